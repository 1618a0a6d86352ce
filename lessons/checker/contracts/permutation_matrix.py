"""permutation-matrix: P with P @ X = X[perm], softmax(P S Pᵀ) = P softmax(S) Pᵀ, equivariant outputs and an invariant readout.

Each array is compared with what the learner's own X, head and perm give,
and, when it differs, with each misconception: P built as the inverse
shuffle (P[perm[k], k] = 1), the shuffle applied to the rows only (P S, no
Pᵀ), the softmax taken over the queries (axis 0), the right-hand side left
unshuffled, a "readout" that is one token's output rather than a sum over
the tokens, and a side copied from the other (``rhs = lhs``, ``out_perm =
P @ out``, ``pooled_perm = pooled``). The first rerun gives four more, other
tokens, a head two channels wider (its values three) and the shuffle moved by one slot, which
typed arrays and sizes cannot follow; the second repeats the first half of
``perm`` in its later slots, so that it is no shuffle: there the two sides
of each identity part, and a copy of one side is not the other. Where the
script later sets X to the shuffled tokens (``X = P @ X``), each run is
judged on the tokens its scores were computed from. What the script prints
must be what its final arrays give: where perm is no shuffle, the printed
verdicts of the checks that part there must change from the learner's run.
"""

from __future__ import annotations

import difflib
import re

import numpy as np

from attnpos.core import softmax
from attnpos.lessons.checker.contracts.common import IMPORTS_BY_NAME, NUMPY_AND_SOFTMAX, Contract, Question, Rerun, Runs, refuse_borrowing
from attnpos.lessons.checker.separation import RIGHT, Figure, Hypotheses
from attnpos.lessons.checker.values import SAFETY, Values, describe, dtype_roundoff, gap
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text

NAMES = ("X", "Wq", "Wk", "Wv", "perm", "P", "S", "lhs", "rhs", "out", "out_perm", "pooled", "pooled_perm")
RESIZED = "four more tokens (other ones), a head two channels wider (its values three) and the shuffle moved by one slot"
NO_SHUFFLE = (
    "`perm` made no shuffle (its later slots repeat the tokens of its first ones, and the other tokens are left out), where the two sides of each identity part"
)
MAX_T, MAX_C = 64, 64
P_TYPED = Question("typed_in", ("P",))  # P's last assignment uses nothing the script computed: a literal matrix
# The brief's last step: print the three checks, each side against the other, in the script's own names (so they follow its arrays).
PRINTED_CHECKS = {
    "lhs against rhs": Question("prints_comparing", ("lhs", "rhs")),
    "out_perm against P @ out": Question("prints_comparing", ("out_perm", "out")),
    "pooled_perm against pooled": Question("prints_comparing", ("pooled_perm", "pooled")),
}
# The starter's head width, 4, typed in for the scale (or its root, 2): where X is as wide, only the source tells it from X's width.
TYPED_WIDTH = {number: Question("types_number", (number, ("rng", "X", "Wq", "Wk", "Wv", "perm"))) for number in ("4", "2")}
PRINTS = Question("prints_anything", ())
PRINTS_SELF = Question("prints_self_comparison", ())
# The arrays judged, in the order a mistake is looked for; the shuffle's own and the head's own first.
JUDGED = ("P", "S", "lhs", "rhs", "out", "out_perm", "pooled", "pooled_perm")
MISTAKES = ("inverse-perm", "rows-only", "softmax-axis", "unpermuted", "not-pooled")
# The inverse shuffle with a right P: what the array computes, and what it should.
WRONG_WAY_ROUND = {"lhs": "softmax(Pᵀ S P)", "rhs": "Pᵀ softmax(S) P", "out_perm": "the head's outputs on Pᵀ @ X"}
RIGHT_WAY_ROUND = {"lhs": "softmax(P S Pᵀ)", "rhs": "P softmax(S) Pᵀ", "out_perm": "the head's outputs on P @ X"}
# A side set from the other side (or its formula) rather than its own: equal wherever the identity holds, apart on NO_SHUFFLE.
COPIES = ("copied-lhs", "copied-rhs", "copied-out", "copied-out_perm", "copied-pooled", "copied-pooled_perm")
# Pᵀ taken as P's inverse, np.linalg.pinv(P): the same for a true permutation, not once perm is no shuffle.
PINV = "pinv-for-transpose"


def _array(values: Values, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
    value = values[name]
    if value.dtype == bool and name != "P":  # a True/False P is a permutation matrix all the same: P @ X == X[perm]
        raise Mistake("bad-type", "bools", name=name)
    if value.dtype.kind not in "iufb":
        raise Mistake("bad-type", "not-numeric", name=name, got=f"{value.dtype} array")
    if shape is not None and value.shape != shape:
        raise Mistake("bad-shape", "array-shape", name=name, shape=shape_text(value.shape), wanted=shape_text(shape))
    if not np.all(np.isfinite(value)):
        raise Mistake("bad-type", "not-finite", name=name)
    return value.astype(np.float64)


def _inputs(values: Values, shuffle: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """X, Wq, Wk, Wv and perm as float64 and int64; perm must be a shuffle unless the checker made it none (``shuffle``)."""
    X = _array(values, "X")
    if X.ndim != 2 or not 2 <= X.shape[0] <= MAX_T or not 1 <= X.shape[1] <= MAX_C:
        raise Mistake("bad-shape", "ndim", name="X", shape=shape_text(X.shape), wanted="(T, C), 2 to 64 tokens")
    T, C = X.shape
    Wq = _array(values, "Wq")
    if Wq.ndim != 2 or Wq.shape[0] != C or not 1 <= Wq.shape[1] <= MAX_C:
        raise Mistake("bad-shape", "projection-rows", name="Wq", shape=shape_text(Wq.shape), x="X", width=C)
    Wk = _array(values, "Wk", Wq.shape)
    Wv = _array(values, "Wv")  # the values may be as wide as they like (the resized rerun makes them wider than the scores)
    if Wv.ndim != 2 or Wv.shape[0] != C or not 1 <= Wv.shape[1] <= MAX_C:
        raise Mistake("bad-shape", "projection-rows", name="Wv", shape=shape_text(Wv.shape), x="X", width=C)
    perm = values["perm"]
    indices = perm.dtype.kind in "iu" and perm.shape == (T,)
    if not indices or (sorted(perm.tolist()) != list(range(T)) if shuffle else not np.all((perm >= 0) & (perm < T))):
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
    out_perm = head(P @ X)[1]
    right: dict[str, Figure] = {
        "P": P,
        "S": S,
        "lhs": softmax(P @ S @ P.T),
        "rhs": P @ softmax(S) @ P.T,
        "out": out,
        "out_perm": out_perm,
        "pooled": out.sum(axis=0),
        "pooled_perm": out_perm.sum(axis=0),
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
        "not-pooled": {"pooled": out[0], "pooled_perm": out_perm[0]},
        "copied-lhs": {"lhs": right["rhs"]},
        "copied-rhs": {"rhs": right["lhs"]},
        "copied-out": {"out": P.T @ out_perm},
        "copied-out_perm": {"out_perm": P @ out},
        "copied-pooled": {"pooled": right["pooled_perm"]},
        "copied-pooled_perm": {"pooled_perm": right["pooled"]},
        PINV: {"lhs": softmax(P @ S @ np.linalg.pinv(P)), "rhs": P @ softmax(S) @ np.linalg.pinv(P)},
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


def _tokens_used(values: Values, X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, perm: np.ndarray, earlier: np.ndarray | None) -> np.ndarray:
    """The tokens the answer's S was computed from: X as read at the end, or, where the script later set X to the
    shuffled tokens (``X = P @ X``), the tokens before that: Pᵀ X, or, where the shuffle is none, those of an earlier run."""
    if values["S"].dtype.kind not in "iuf":
        return X  # judged, and refused, as it is
    tolerance = _tolerance(values, X, Wq, Wk, Wk)["S"]  # the scores' allowance does not involve Wv
    candidates = [X]
    if sorted(perm.tolist()) == list(range(len(perm))):
        candidates.append(np.eye(len(perm))[perm].T @ X)
    if earlier is not None and earlier.shape == X.shape:
        candidates.append(earlier)
    for tokens in candidates:
        S = (tokens @ Wq) @ (tokens @ Wk).T / np.sqrt(Wq.shape[1])
        if values["S"].shape == S.shape and np.max(np.abs(values["S"].astype(np.float64) - S)) <= tolerance:
            return tokens
    return X


def _judge_run(values: Values, shuffle: bool = True, earlier: np.ndarray | None = None) -> np.ndarray:
    """Each array against the right one on this run's inputs, and against each mistake's; the tokens it was judged on."""
    X, Wq, Wk, Wv, perm = _inputs(values, shuffle)
    X = _tokens_used(values, X, Wq, Wk, perm, earlier)
    T = X.shape[0]
    figures = _figures(X, Wq, Wk, Wv, perm)
    tolerance = _tolerance(values, X, Wq, Wk, Wv)
    right = figures["right"]
    for name in JUDGED:
        expected = np.asarray(right[name])
        got = _array(values, name, expected.shape if name not in ("P", "S", "lhs", "rhs") else (T, T))
        if np.max(np.abs(got - expected)) <= tolerance[name]:
            continue
        for mistake in (*MISTAKES, *COPIES, PINV):
            if name in figures[mistake] and np.max(np.abs(got - np.asarray(figures[mistake][name]))) <= tolerance[name]:
                if mistake == "inverse-perm" and name != "P":  # P was judged first and is right: the shuffle is applied the wrong way round
                    raise Mistake(mistake, "wrong-way-round", name=name, wrong=WRONG_WAY_ROUND[name], right=RIGHT_WAY_ROUND[name])
                raise Mistake("mismatch", mistake, name=name) if mistake in (*COPIES, PINV) else Mistake(mistake, name=name)
        if name == "S" and values["S"].shape == (T, T):
            _typed_width(got, X, Wq, Wk, Wv, tolerance["S"])
        if name == "P" and np.array_equal(got, np.eye(T)):  # perm never used: every check then compares a thing with itself
            raise Mistake("mismatch", "identity-P", name="P")
        if name == "pooled_perm" and np.max(np.abs(got - (np.asarray(right["P"]) @ np.asarray(right["out"])).sum(axis=0))) <= tolerance[name]:
            raise Mistake("mismatch", "pooled-from-P-out", name=name)  # the other side of the check summed, where P @ out is not out_perm
        raise Mistake("mismatch", "array", name=name, got=f"{gap(got, expected):.3g}")
    return X


def _typed_width(S: np.ndarray, X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray, tolerance: float) -> None:
    """S scaled by √ of some size other than the head's width (X's, the starter's 4 typed in, the values' width, T or
    T − 1, which the starter's head width equals): a Mistake naming it."""
    unscaled = (X @ Wq) @ (X @ Wk).T
    for width in sorted({X.shape[1], 4} - {Wq.shape[1]}):
        if np.max(np.abs(S - unscaled / np.sqrt(width))) <= tolerance:
            raise Mistake("mismatch", "scaled-by-other-width", name="S", width=width, hs=Wq.shape[1])
    sizes = {Wv.shape[1]: "the values' width, Wv.shape[1]", X.shape[0] - 1: "one less than the tokens, T − 1", X.shape[0]: "the number of tokens, T"}
    for width, what in sizes.items():
        if width not in (Wq.shape[1], X.shape[1], 4) and width > 0 and np.max(np.abs(S - unscaled / np.sqrt(width))) <= tolerance:
            raise Mistake("mismatch", "scaled-by-other-size", name="S", width=width, what=what, hs=Wq.shape[1])


# A mistake seen only on a rerun, the learner's own run right: told as the rerun's, since the learner never saw those arrays.
RERUN_CAUSES = {
    ("mismatch", "array"): "array-rerun",
    ("bad-shape", "array-shape"): "shape-rerun",
    ("mismatch", "scaled-by-other-width"): "scaled-by-other-width-rerun",
    ("mismatch", "scaled-by-other-size"): "scaled-by-other-size-rerun",
}


def _judge_rerun(runs: Runs, changed: str, first_tokens: np.ndarray) -> None:
    """One rerun judged as the first run is (a perm set again after the change fails the resized rerun by its length)."""
    try:
        values = runs.second(changed)
    except Mistake as failed:
        if changed != NO_SHUFFLE or failed.cause:
            raise
        raise Mistake("rerun-failed", "no-shuffle", **failed.fields) from None  # what only a perm that is no shuffle breaks
    try:
        _judge_run(values, shuffle=changed == RESIZED, earlier=first_tokens if changed == NO_SHUFFLE else None)
    except Mistake as mistake:  # a typed array fails the resized rerun by its shape (shape-rerun)
        cause = RERUN_CAUSES.get((mistake.diagnosis, mistake.cause))
        typed = [number for number, question in TYPED_WIDTH.items() if runs.says(question)]
        if cause == "scaled-by-other-width-rerun" and typed:  # the starter's width written as a number, not read from X
            cause = "scaled-by-typed-width-rerun"
            mistake = Mistake(mistake.diagnosis, mistake.cause, **mistake.fields, typed=" or ".join(typed))
        if cause == "array-rerun" and mistake.fields.get("name") == "P" and _inverse_columns(values):
            cause = "inverse-columns-P-rerun"  # eye[:, argsort(perm)] is eye[perm] while perm is a permutation, and only then
        diagnosis = "mismatch" if cause else mistake.diagnosis
        raise Mistake(diagnosis, cause or mistake.cause, **{**mistake.fields, "changed": changed}) from None


def _inverse_columns(values: Values) -> bool:
    """Whether P is the identity's columns taken by the inverse shuffle, ``np.eye(T)[:, np.argsort(perm)]``."""
    perm = np.asarray(values["perm"]).reshape(-1)
    P = np.asarray(values["P"])
    if perm.dtype.kind not in "iu" or P.shape != (perm.size, perm.size):
        return False
    # where perm repeats tokens, argsort's order among the ties is its sort's own: either counts
    return any(np.array_equal(P, np.eye(perm.size)[:, np.argsort(perm, kind=kind)]) for kind in ("quicksort", "stable"))


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, NUMPY_AND_SOFTMAX, "P")  # the matrix and the head are what the exercise asks written
    first_tokens = _judge_run(runs.first)
    resized = runs.reruns[runs.changed.index(RESIZED)]
    if runs.says(P_TYPED) and (resized is None or np.array_equal(resized["P"], runs.first["P"])):
        failure = runs.failures[runs.changed.index(RESIZED)] or "`P` stayed as it was"
        raise Mistake("mismatch", "typed-P", name="P", changed=RESIZED, failure=failure)  # the fundamental mistake, not what it broke
    _judge_rerun(runs, RESIZED, first_tokens)
    _judge_rerun(runs, NO_SHUFFLE, first_tokens)
    _judge_prints(runs)
    _judge_printed_verdicts(runs)
    return Passed()


# A printed token: a word, or a number as NumPy and f-strings write it (1.1e-16, 0.0, 2.) with the brackets around it left off.
PRINTED_TOKEN = re.compile(r"[^\s\[\](),:=|]+")
WHOLE_NUMBER = re.compile(r"[-+]?\d+")


def _verdict_like(token: str, allowance: float) -> bool:
    """A token that may say two sides agree: a word (True, "holds") or a figure within the allowance (a largest difference)."""
    if WHOLE_NUMBER.fullmatch(token):
        return False  # a slot, a size or a count
    try:
        return abs(float(token)) <= allowance
    except ValueError:
        return True


def _judge_printed_verdicts(runs: Runs) -> None:
    """What the script prints is what its final arrays give: where perm is no shuffle, every check whose sides part there
    must print otherwise than on the learner's own run (True to False, a difference of 1e-16 to one of 0.3)."""
    index = runs.changed.index(NO_SHUFFLE)
    values = runs.reruns[index]
    if values is None:
        return
    X, Wq, Wk, Wv, _ = _inputs(runs.first)
    allowance = _tolerance(runs.first, X, Wq, Wk, Wv)
    final = {name: _array(values, name) for name in ("lhs", "rhs", "out_perm", "out", "P", "pooled", "pooled_perm")}
    sides = {
        "lhs against rhs": (final["lhs"], final["rhs"], allowance["lhs"]),
        "out_perm against P @ out": (final["out_perm"], final["P"] @ final["out"], allowance["out_perm"]),
        "pooled_perm against pooled": (final["pooled_perm"], final["pooled"], allowance["pooled"]),
    }
    parting = {check: gap(a, b) for check, (a, b, allowed) in sides.items() if gap(a, b) > allowed}
    largest = max(allowance[name] for name in ("lhs", "out_perm", "pooled"))
    mine, theirs = PRINTED_TOKEN.findall(runs.printed), PRINTED_TOKEN.findall(runs.reprinted[index])
    if "False" in mine:  # every pair agrees on the learner's own run (judged above): a check that says otherwise is no check of them
        raise Mistake("unfinished", "printed-apart", count=mine.count("False"))
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    changed = sum(_verdict_like(token, largest) for tag, start, end, _, _ in matcher.get_opcodes() if tag in ("replace", "delete") for token in mine[start:end])
    if changed < len(parting):
        raise Mistake(
            "unfinished",
            "printed-before-final",
            changed=NO_SHUFFLE,
            parted="; ".join(f"{check} by {difference:.3g}" for check, difference in parting.items()),
            count=len(parting),
            said=changed,
        )


def _judge_prints(runs: Runs) -> None:
    """Every array right: the brief's checks must be printed, each comparing the two sides the script computed."""
    unprinted = [check for check, question in PRINTED_CHECKS.items() if not runs.says(question)]
    if not unprinted:
        return
    missing = unprinted[0] if len(unprinted) == 1 else ", ".join(unprinted[:-1]) + " or " + unprinted[-1]
    if not runs.says(PRINTS):
        raise Mistake("unfinished", "no-print", missing=missing)
    if runs.says(PRINTS_SELF):
        raise Mistake("unfinished", "self-comparison", missing=missing)
    raise Mistake("unfinished", "not-compared", missing=missing)


def hypotheses(values: Values) -> Hypotheses:
    """Every array on one run's inputs, right and under each mistake the judge names."""
    X, Wq, Wk, Wv = (values[name].astype(np.float64) for name in ("X", "Wq", "Wk", "Wv"))
    perm = values["perm"].astype(np.int64)
    if perm.shape != (X.shape[0],) or Wq.shape[0] != X.shape[1] or Wq.shape != Wk.shape or Wv.shape[0] != X.shape[1]:
        # a stale copy of one input beside the rerun's resized others: they do not fit, so that run fails, whatever it reports
        misfit = np.empty((0, X.shape[0], perm.shape[0], *Wq.shape, *Wk.shape, *Wv.shape))  # a shape of its own for each misfit
        return Hypotheses({RIGHT: {name: misfit for name in JUDGED}}, {name: 0.0 for name in JUDGED})
    figures = _figures(X, Wq, Wk, Wv, perm)
    right = figures.pop("right")
    return Hypotheses.of(right, figures, _tolerance(values, X, Wq, Wk, Wv))


PERMUTATION_MATRIX = Contract(
    names=NAMES,
    reruns=(
        Rerun({"X": "more_tokens(X)", "Wq": "wider_query(Wq)", "Wk": "wider_key(Wk)", "Wv": "wider_value(Wv)", "perm": "longer_shift(perm)"}, RESIZED),
        Rerun({"perm": "no_shuffle(perm)"}, NO_SHUFFLE),
    ),
    judge=judge,
    diagnoses=("inverse-perm", "rows-only", "softmax-axis", "unpermuted", "not-pooled", "mismatch", "unfinished"),
    questions=(P_TYPED, NUMPY_AND_SOFTMAX, IMPORTS_BY_NAME, *PRINTED_CHECKS.values(), PRINTS, PRINTS_SELF, *TYPED_WIDTH.values()),
    hypotheses=hypotheses,
    typed=("lhs", "rhs", "out_perm", "pooled_perm"),
    described={
        "inverse-perm": "the inverse shuffle's matrix",
        PINV: "np.linalg.pinv(P) in place of P.T",
        "rows-only": "the shuffle applied to the rows only",
        "softmax-axis": "the softmax over the queries",
        "unpermuted": "an unshuffled right-hand side",
        "not-pooled": "one token's output as the readout",
        "copied-lhs": "lhs copied from rhs",
        "copied-rhs": "rhs copied from lhs",
        "copied-out": "out set to Pᵀ @ out_perm",
        "copied-out_perm": "out_perm set to P @ out",
        "copied-pooled": "pooled copied from pooled_perm",
        "copied-pooled_perm": "pooled_perm copied from pooled",
        "typed-lhs": "lhs typed in",
        "typed-rhs": "rhs typed in",
        "typed-out_perm": "out_perm typed in",
        "typed-pooled_perm": "pooled_perm typed in",
        "stale-X": "a copy of X made before the checker changed it",
        "stale-Wq": "a copy of Wq made before the checker changed it",
        "stale-Wk": "a copy of Wk made before the checker changed it",
        "stale-Wv": "a copy of Wv made before the checker changed it",
        "stale-perm": "a copy of perm made before the checker changed it",
    },
)
