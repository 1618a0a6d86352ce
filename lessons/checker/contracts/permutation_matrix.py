"""permutation-matrix: P with P @ X = X[perm], softmax(P S Pᵀ) = P softmax(S) Pᵀ, equivariant outputs and an invariant readout.

Each array is compared with what the learner's own X, head and perm give,
and, when it differs, with each misconception: P built as the inverse
shuffle (P[perm[k], k] = 1), the shuffle applied to the rows only (P S, no
Pᵀ), the softmax taken over the queries (axis 0), the right-hand side left
unshuffled, and a "readout" that is one token's output rather than a sum
over the tokens. The rerun redraws the tokens and the query projection and
shifts the shuffle by one slot, which typed arrays cannot follow.
"""

from __future__ import annotations

import numpy as np

from attnpos.core import softmax
from attnpos.lessons.checker.contracts.common import Contract, Rerun, Runs
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.values import SAFETY, Values, describe, dtype_roundoff, gap
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text

NAMES = ("X", "Wq", "Wk", "Wv", "perm", "P", "S", "lhs", "rhs", "out", "out_perm", "pooled", "pooled_perm")
CHANGED = "other tokens, another query projection and the shuffle moved by one slot"
MAX_T, MAX_C = 64, 64


def _array(values: Values, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
    value = values[name]
    if value.dtype.kind not in "iuf":
        raise Mistake("bad-type", "not-numeric", name=name, got=describe(value))
    if shape is not None and value.shape != shape:
        raise Mistake("bad-shape", "array-shape", name=name, shape=shape_text(value.shape), wanted=shape_text(shape))
    if not np.all(np.isfinite(value)):
        raise Mistake("bad-type", "not-finite", name=name)
    return value.astype(np.float64)


def _inputs(values: Values) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X = _array(values, "X")
    if X.ndim != 2 or not 2 <= X.shape[0] <= MAX_T or not 1 <= X.shape[1] <= MAX_C:
        raise Mistake("bad-shape", "ndim", name="X", shape=shape_text(X.shape), wanted="(T, C), 2 to 64 tokens")
    T, C = X.shape
    Wq = _array(values, "Wq")
    if Wq.ndim != 2 or Wq.shape[0] != C or not 1 <= Wq.shape[1] <= MAX_C:
        raise Mistake("bad-shape", "projection-rows", name="Wq", shape=shape_text(Wq.shape), x="X", width=C)
    Wk, Wv = _array(values, "Wk", Wq.shape), _array(values, "Wv", Wq.shape)
    perm = values["perm"]
    if perm.dtype.kind not in "iu" or perm.shape != (T,) or sorted(perm.tolist()) != list(range(T)):
        raise Mistake("bad-type", "perm-not-indices", name="perm", got=describe(perm), last=T - 1)
    return X, Wq, Wk, Wv, perm.astype(np.int64)


def _figures(X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray, perm: np.ndarray) -> dict[str, dict[str, Figure]]:
    """The right arrays and each mistake's, on these inputs."""
    T, hs = X.shape[0], Wq.shape[1]
    P = np.eye(T)[perm]  # (T, T) row k picks token perm[k]

    def head(tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        scores = (tokens @ Wq) @ (tokens @ Wk).T / np.sqrt(hs)  # (T, T)
        return scores, softmax(scores) @ (tokens @ Wv)

    S, out = head(X)
    right: dict[str, Figure] = {
        "P": P,
        "S": S,
        "lhs": softmax(P @ S @ P.T),
        "rhs": P @ softmax(S) @ P.T,
        "out": out,
        "out_perm": head(P @ X)[1],
        "pooled": out.sum(axis=0),
        "pooled_perm": head(P @ X)[1].sum(axis=0),
    }
    inverse = P.T
    return {
        "right": right,
        "inverse-perm": {
            "P": inverse,
            "lhs": softmax(inverse @ S @ inverse.T),
            "rhs": inverse @ softmax(S) @ inverse.T,
            "out_perm": head(inverse @ X)[1],
        },
        "rows-only": {"lhs": softmax(P @ S), "rhs": P @ softmax(S)},
        "softmax-axis": {"lhs": softmax(P @ S @ P.T, axis=0), "rhs": P @ softmax(S, axis=0) @ P.T},
        "unpermuted": {"rhs": softmax(S)},
        "not-pooled": {"pooled": out[0], "pooled_perm": head(P @ X)[1][0]},
    }


def _tolerance(values: Values, X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray) -> dict[str, float]:
    """Rounding allowances: a few roundings per product, scaled by the sizes involved."""
    roundoff = dtype_roundoff(values, NAMES)
    T, C = X.shape
    size = (1 + float(np.max(np.abs(X)))) ** 2 * (1 + float(np.max(np.abs(Wq)))) * (1 + float(np.max(np.abs(Wk))))
    value = (1 + float(np.max(np.abs(X)))) * (1 + float(np.max(np.abs(Wv)))) * C
    weights = SAFETY * 16 * roundoff * (T + C) * size
    return {
        "P": 0.1,
        "S": SAFETY * 4 * roundoff * C * size,
        "lhs": weights,
        "rhs": weights,
        "out": (weights + SAFETY * 4 * roundoff) * value * T,
        "out_perm": (weights + SAFETY * 4 * roundoff) * value * T,
        "pooled": (weights + SAFETY * 4 * roundoff) * value * T * T,
        "pooled_perm": (weights + SAFETY * 4 * roundoff) * value * T * T,
    }


def _judge_run(values: Values) -> None:
    X, Wq, Wk, Wv, perm = _inputs(values)
    T = X.shape[0]
    figures = _figures(X, Wq, Wk, Wv, perm)
    tolerance = _tolerance(values, X, Wq, Wk, Wv)
    right = figures["right"]
    for name in ("P", "S", "lhs", "rhs", "out", "out_perm", "pooled", "pooled_perm"):
        expected = np.asarray(right[name])
        got = _array(values, name, expected.shape if name not in ("P", "S", "lhs", "rhs") else (T, T))
        if np.max(np.abs(got - expected)) <= tolerance[name]:
            continue
        for mistake in ("inverse-perm", "rows-only", "softmax-axis", "unpermuted", "not-pooled"):
            if name in figures[mistake] and np.max(np.abs(got - np.asarray(figures[mistake][name]))) <= tolerance[name]:
                raise Mistake(mistake, name=name)
        raise Mistake("mismatch", "array", name=name, got=f"{gap(got, expected):.3g}")


def judge(runs: Runs) -> Passed:
    _judge_run(runs.first)
    second = runs.second(CHANGED)
    before, after = (_figures(*_inputs(values))["right"] for values in (runs.first, second))
    for name in ("lhs", "rhs", "out_perm", "pooled_perm"):
        moved = not np.array_equal(np.asarray(before[name]), np.asarray(after[name]))  # an all-zero output has nothing to follow
        if moved and second[name].shape == runs.first[name].shape and np.array_equal(second[name], runs.first[name]):
            raise Mistake("mismatch", "typed", name=name)
    _judge_run(second)
    return Passed()


def hypotheses(values: Values) -> Hypotheses:
    """Every array on one run's inputs, right and under each mistake the judge names."""
    X, Wq, Wk, Wv = (values[name].astype(np.float64) for name in ("X", "Wq", "Wk", "Wv"))
    perm = values["perm"].astype(np.int64)
    figures = _figures(X, Wq, Wk, Wv, perm)
    right = figures.pop("right")
    return Hypotheses.of(right, figures, _tolerance(values, X, Wq, Wk, Wv))


PERMUTATION_MATRIX = Contract(
    names=NAMES,
    reruns=(Rerun({"X": "redrawn(X)", "Wq": "redrawn(Wq)", "perm": "shifted(perm)"}, CHANGED),),
    judge=judge,
    diagnoses=("inverse-perm", "rows-only", "softmax-axis", "unpermuted", "not-pooled", "mismatch"),
    hypotheses=hypotheses,
    typed=("lhs", "rhs", "out_perm", "pooled_perm"),
    described={
        "inverse-perm": "the inverse shuffle's matrix",
        "rows-only": "the shuffle applied to the rows only",
        "softmax-axis": "the softmax over the queries",
        "unpermuted": "an unshuffled right-hand side",
        "not-pooled": "one token's output as the readout",
        "typed-lhs": "lhs typed in",
        "typed-rhs": "rhs typed in",
        "typed-out_perm": "out_perm typed in",
        "typed-pooled_perm": "pooled_perm typed in",
        "stale-X": "a copy of X made before the checker changed it",
        "stale-Wq": "a copy of Wq made before the checker changed it",
        "stale-perm": "a copy of perm made before the checker changed it",
    },
)
