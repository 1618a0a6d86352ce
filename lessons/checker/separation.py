"""Can an answer's arrays tell the right computation from each wrong one? The checker's hypotheses, side by side.

Every contract lists, declaratively, the hypotheses its judge tells apart:
what an answer's names would hold if it were right, and if it made each
mistake the exercise anticipates (added after attention, never added, the
inverse reorder, a figure typed in, …). A hypothesis is a set of figures
computed from one run's inputs. Two hypotheses are *told apart* when, on at
least one run (the script as written, or the rerun with its substitutions),
some figure differs between them by more than twice the tolerance a figure
must meet to match either: then no reported figure can agree with both.

``tests/checker/test_separation.py`` computes every pair on the starter's arrays
(with the solution's own choices, such as ``pos``) under the contract's
substitutions and fails when two hypotheses are not far apart. At check
time the judge's pass is held to the same standard on the learner's own
arrays: where "right" cannot be told from some wrong hypothesis (an all-zero
head, a tolerance as large as the figures, float16), the verdict is
``indistinct``, never ``passed``.

Pairs that no figure can separate but the source can (``(X + pos)[:, perm]``
and "pos never added" both leave a noise-sized gap; the syntax tells which)
are declared in the contract's ``told_by_source`` with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

import numpy as np
from msgspec import Struct

from attnpos.lessons.checker.values import COMPUTED_IN, REPORTED_ROUNDING, Values, dtype_roundoff
from attnpos.lessons.checker.verdicts import INDISTINCT, Mistake

Figure = float | bool | np.ndarray

RIGHT = "right"
TYPED = "typed-"  # "typed-max_diff": the first run's right figure, kept whatever the rerun changes
STALE = "stale-"  # "stale-pos": the right figures computed with the first run's pos, not the rerun's (a private copy)


class Hypotheses(Struct, frozen=True):
    """On one run's arrays: each hypothesis's figures (every reported name), and the tolerance of each name."""

    figures: dict[str, dict[str, Figure]]  # hypothesis -> name -> value
    tolerance: dict[str, float]  # name -> absolute tolerance a reported figure is held to on this run

    @classmethod
    def of(cls, right: dict[str, Figure], wrong: Mapping[str, dict[str, Figure]], tolerance: dict[str, float]) -> Hypotheses:
        """``wrong`` gives only the names a mistake changes; the others are the right ones."""
        figures = {RIGHT: dict(right)}
        figures.update({name: {**right, **changes} for name, changes in wrong.items()})
        return cls(figures, tolerance)


def inverse_mistakes(perm: np.ndarray, wrong: dict[str, dict[str, Figure]], names: tuple[str, ...]) -> dict[str, dict[str, Figure]]:
    """``wrong`` without the hypotheses ``names`` that use the inverse shuffle where they are no mistake of their own.

    When ``perm`` is its own inverse (swaps only) they are the right
    computation; on three tokens or fewer every shuffle is that or a 3-cycle,
    whose inverse pairs up the same tokens. See :func:`told_apart` for runs
    that lack a hypothesis.
    """
    if len(perm) <= 3 or np.array_equal(np.argsort(perm), perm):
        return {name: changes for name, changes in wrong.items() if name not in names}
    return wrong


def with_typed(readings: Sequence[Hypotheses], typed: Sequence[str]) -> list[Hypotheses]:
    """Each run's hypotheses plus "typed-NAME" for each name: the first run's right value, on every run.

    A right figure that is exactly 0 on the first run gets no typed twin:
    a typed 0.0 is then indistinguishable from the honest figure whatever
    the substitutions, the one limit docs/CHECKING.md documents.
    """
    first_right = readings[0].figures[RIGHT]
    out = []
    for reading in readings:
        figures = dict(reading.figures)
        for name in typed:
            value = first_right[name]
            if not (isinstance(value, (bool, np.bool_)) or np.any(np.asarray(value) != 0)):
                continue
            figures[TYPED + name] = {**reading.figures[RIGHT], name: value}
        out.append(Hypotheses(figures, reading.tolerance))
    return out


def every_reading(
    hypotheses: Callable[[Values], Hypotheses],
    typed: Sequence[str],
    replaced: Sequence[Sequence[str]],
    first: Values,
    reruns: Sequence[Values],
) -> list[Hypotheses]:
    """The hypotheses on the first run and on each rerun (``replaced[i]``: the names rerun i replaces), with the generic ones.

    Besides the contract's own: "typed-NAME" (see :func:`with_typed`), and
    "stale-INPUT" for each replaced input: the right figures computed with
    the first run's value of that input, as an answer that works on a copy
    made before the checker's replacement would report.
    """
    readings = [hypotheses(first)]
    for names, values in zip(replaced, reruns, strict=True):
        reading = hypotheses(values)
        for name in names:
            if name not in values or name not in first:
                continue  # a function the rerun wraps (learned-positions' add_positions): no figure, and no stale copy of one
            if not np.array_equal(np.asarray(values[name]), np.asarray(first[name])):  # else the same computation as the right one
                try:
                    reading.figures[STALE + name] = hypotheses({**values, name: first[name]}).figures[RIGHT]
                except Mistake:
                    continue  # the stale copy no longer fits the rerun's other inputs (ids one token shorter than grad_out): no figures
        readings.append(reading)
    return with_typed(readings, typed)


def far_apart(a: Figure, b: Figure, tolerance: float, margin: float = 1.0) -> bool:
    """Whether no single reported figure can agree with both ``a`` and ``b`` (``margin`` > 1 asks for room to spare)."""
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        return bool(a) != bool(b)
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return True
    size = max(float(np.max(np.abs(a))), float(np.max(np.abs(b))))
    return float(np.max(np.abs(a - b))) > margin * 2 * (tolerance + REPORTED_ROUNDING * size)


def told_apart(readings: Sequence[Hypotheses], one: str, other: str, margin: float = 1.0) -> bool:
    """Whether some run and some figure separate the two.

    A run lacks a hypothesis that is the right computation there (a stale
    copy of an input the run did not change, the inverse of a swap): it
    stands for the right figures on that run.
    """
    for reading in readings:
        if one not in reading.figures and other not in reading.figures:
            continue
        a, b = (reading.figures.get(name, reading.figures[RIGHT]) for name in (one, other))
        if any(far_apart(a[name], b[name], reading.tolerance[name], margin) for name in a):
            return True
    return False


def unseparated(
    readings: Sequence[Hypotheses],
    told_by_source: Mapping[frozenset[str], str],
    margin: float = 1.0,
    only: str | None = None,
) -> list[tuple[str, str]]:
    """The pairs of hypotheses (all of them, or only those with ``only``) that neither the figures nor the source tell apart."""
    names = list(dict.fromkeys(name for reading in readings for name in reading.figures))
    pairs = [(a, b) for a, b in combinations(names, 2) if only is None or only in (a, b)]
    return [(a, b) for a, b in pairs if frozenset((a, b)) not in told_by_source and not told_apart(readings, a, b, margin)]


# Coarser than float32's rounding cannot hold what the course's figures need (float16's unit roundoff is 2^-11).
COARSEST_ROUNDOFF = float(np.finfo(np.float32).eps / 2)


def indistinct(values: Values, names: tuple[str, ...], confused: str, words: str) -> Mistake:
    """The ``indistinct`` verdict for arrays that cannot tell "right" from hypothesis ``confused``, with its cause.

    ``precision``: a dtype coarser than float32, whose tolerance is as large
    as the figures; ``zero-head``: a value projection of zeros, so every
    output is zero; else the hypothesis itself (identical-tokens's saturated
    softmax is ``typed-identical``).
    """
    if dtype_roundoff(values, names) > COARSEST_ROUNDOFF:
        cause = "precision"
    elif "Wv" in values and not np.any(values["Wv"]):
        cause = "zero-head"
    else:
        cause = confused
    return Mistake(INDISTINCT, cause, confused=words, **_precision_words(values, names))


def _precision_words(values: Values, names: tuple[str, ...]) -> dict[str, str]:
    """``rounding``, the float type whose rounding the tolerance is, and ``dtype``, the answer's arrays in words as "Your
    arrays are {dtype}" reads them: "float16"; "float16 (`slopes`, `bias` and `weights`)" when only those are, beside
    the starter's float64; "float64 computed in float16" when the source names a coarser type than any array has."""
    floats = {n: values[n].dtype for n in names if n in values and values[n].dtype.kind == "f"}
    marker = [values[COMPUTED_IN].dtype] if COMPUTED_IN in values else []

    def coarsest(dtypes: list[np.dtype]) -> np.dtype:
        return max(dtypes, key=lambda dtype: np.finfo(dtype).eps)

    if not floats:
        return {"dtype": "float64", "rounding": str(coarsest(marker)) if marker else "float64"}
    arrays, rounding = coarsest(list(floats.values())), coarsest([*floats.values(), *marker])
    if rounding != arrays:  # arrays of one type computed in a coarser one (RoPE's angles in float16 beside float64 tokens): both said
        return {"dtype": f"{arrays} computed in {rounding}", "rounding": str(rounding)}
    coarse = [f"`{n}`" for n, dtype in floats.items() if dtype == arrays]
    if len(coarse) == len(floats):
        return {"dtype": str(arrays), "rounding": str(rounding)}
    listed = coarse[0] if len(coarse) == 1 else ", ".join(coarse[:-1]) + " and " + coarse[-1]
    return {"dtype": f"{arrays} ({listed})", "rounding": str(rounding)}
