"""sinusoidal-table: the (T, C) table of Vaswani et al. from its formula, and the rotation M_k that shifts it.

The rerun widens the table by two pairs and lengthens the shift: the right
table and M change with them, each misconception (exponent i, a frequency
per channel, the sign, positions from 1, sin and cos swapped, concatenated
halves) gives a table of its own, and numbers typed in do not change.
Once built, the rerun's table is bent on purpose (row t scaled by
1 + (t / T)² / 64): M no longer shifts it exactly, so an honest
``shift_error`` measured on it is far from rounding, and a figure typed in
(0.0, or rounding-sized) or measured on one row alone does not follow.
"""

from __future__ import annotations

import numpy as np

from attnpos.core.sinusoidal_encoding import BASE, shift_error, shift_matrix
from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_ONLY,
    Contract,
    Rerun,
    Runs,
    StarterSizes,
    figure_mistake,
    judged_on_rerun,
    refuse_borrowing,
    sized_for_the_first_run,
    worst_entry,
)
from attnpos.lessons.checker.contracts.table_reading import close, read_shaped, read_whole, rounding
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.substitutes import BEND, bent_table
from attnpos.lessons.checker.values import Values, dtype_roundoff, reported_rounding, scalar
from attnpos.lessons.checker.verdicts import Mistake, Passed

NAMES = ("T", "C", "k", "pe", "M", "shift_error")
# The starter's sizes; its own lines set these names, and a 12, 8 or 3 elsewhere is a size typed in.
SIZES = StarterSizes({12: "T", 8: "C", 3: "k"}, ("T", "C", "k"))
CHANGED = "`T` two positions longer, `C` four channels wider, `k` two positions longer, and your pe, once built, bent a little (row t scaled by 1 − (t/T)²/64)"
BORROWS = NUMPY_ONLY
MAX_POSITIONS, MAX_CHANNELS = 4096, 1024


def table(t: np.ndarray, w_sin: np.ndarray, w_cos: np.ndarray, C: int) -> np.ndarray:
    """(T, C) sines of t·w_sin in the even channels, cosines of t·w_cos in the odd ones."""
    pe = np.zeros((len(t), C))
    pe[:, 0::2] = np.sin(t[:, None] * w_sin[None, :])
    pe[:, 1::2] = np.cos(t[:, None] * w_cos[None, :])
    return pe


def tables(T: int, C: int) -> dict[str, np.ndarray]:
    """The right table and what each misconception builds instead, by diagnosis."""
    t = np.arange(T, dtype=np.float64)
    pairs = np.arange(C // 2, dtype=np.float64)
    w = BASE ** (-2 * pairs / C)
    right = table(t, w, w, C)
    return {
        "right": right,
        "exponent-i": table(t, BASE ** (-pairs / C), BASE ** (-pairs / C), C),
        "frequency-per-channel": table(t, w, BASE ** (-(2 * pairs + 1) / C), C),
        "frequency-per-channel/doubled": table(t, BASE ** (-4 * pairs / C), BASE ** (-2 * (2 * pairs + 1) / C), C),
        "from-one": table(t + 1, w, w, C),
        "sin-cos-swapped": right[:, np.ravel(np.column_stack([np.arange(1, C, 2), np.arange(0, C, 2)]))],
        "halves": np.concatenate([right[:, 0::2], right[:, 1::2]], axis=1),
        "sign-flipped": table(t, 1 / w, 1 / w, C),  # last: its rounding tolerance is the widest
    }


def _table_tolerance(roundoff: float, T: int, C: int, cause: str = "right") -> float:
    """sin(t·w) rounds like the angle t·w itself: 64 roundings of the largest angle the table holds.

    That is about T radians for the right table; with the sign flipped the
    last pair turns 10000^((C−2)/C) radians a step, so its angles are far
    larger and so is their rounding.
    """
    fastest = BASE ** ((C - 2) / C) if cause == "sign-flipped" else 1.0
    return rounding(roundoff, 1 + (T + 1) * fastest)


def _judge_run(values: Values, first: Values | None = None) -> Passed:
    T = read_whole(values, "T", 2, MAX_POSITIONS)
    C = read_whole(values, "C", 2, MAX_CHANNELS)
    if C % 2:
        raise Mistake("bad-value", "odd-width", name="C", value=C)
    k = read_whole(values, "k", 1, T - 1)
    if first is not None:
        for name in ("pe", "M"):  # the rerun changed C and k: an honest table and M change shape and values
            _unfollowed(values, first, name)
    roundoff = dtype_roundoff(values, NAMES)
    pe = read_shaped(values, "pe", (T, C))
    candidates = tables(T, C)
    if first is not None:  # the rerun bent the table the script built: each candidate as the checker bent it
        candidates = {cause: bent_table(table) for cause, table in candidates.items()}
    tol = _table_tolerance(roundoff, T, C)
    if not close(pe, candidates["right"], tol):
        _unfollowed(values, first, "pe")
        for cause, wrong in candidates.items():
            if cause != "right" and close(pe, wrong, _table_tolerance(roundoff, T, C, cause)):
                diagnosis, _, detail = cause.partition("/")
                # the slowest pair's speed, 10000^((C − 2)/C) radians a step once the sign is lost: a figure of the learner's C
                slowest = BASE ** ((C - 2) / C)
                raise Mistake(diagnosis, detail, name="pe", C=C, slowest=f"{slowest:,.4g}", pair=C // 2 - 1)
        raise Mistake("mismatch", name="pe", **worst_entry("pe", pe, candidates["right"]))
    M = read_shaped(values, "M", (C, C))
    expected_M = shift_matrix(k, C)
    m_tol = rounding(roundoff, 1 + k)
    if not close(M, expected_M, m_tol):
        _unfollowed(values, first, "M")
        if close(M, expected_M.T, m_tol):
            raise Mistake("mismatch", "rotation-transposed", name="M")
        if first is not None and close(M, expected_M * (1 - BEND * (k / T) ** 2), m_tol):  # cos and sin read off the bent pe[k]
            raise Mistake("mismatch", "read-off-table", name="M", changed=CHANGED)
        raise Mistake("mismatch", name="M", **worst_entry("M", M, expected_M))
    figure = scalar(values, "shift_error")
    honest = shift_error(pe, M, k)
    noise = rounding(roundoff, C * (1 + T))
    if abs(figure - honest) > noise + float(reported_rounding(honest)):
        for cause, measured in _named_measures(pe, M, k).items():  # measured, but not as the largest |entry| of every row
            if abs(figure - measured) <= noise + float(reported_rounding(measured)):
                mistake = figure_mistake("mismatch", cause, "shift_error", honest, figure, rerun=first is not None)
                raise Mistake("mismatch", cause, **mistake.fields, whose="your own pe and M" if first is None else "that pe and M")
        if first is not None:
            # at rounding where the bent table is not: measured on the table before the bend reached it, or typed
            cause = "shift-figure-unbent" if abs(figure) <= noise else "shift-figure-bent"
            raise figure_mistake("mismatch", cause, "shift_error", honest, figure, rerun=True)
        raise figure_mistake("mismatch", "shift-figure", "shift_error", honest, figure)
    return Passed()


def _other_measures(pe: np.ndarray, M: np.ndarray, k: int) -> dict[str, float]:
    """The figures of every row's difference pe[t + k] − M @ pe[t] measured otherwise: its largest signed entry (no |·|),
    its largest row length (the Euclidean norm of a row). Told apart where the largest entry is a negative one, as on
    the rerun's table, which shrinks row by row."""
    difference = pe[k:].astype(np.float64) - pe[:-k].astype(np.float64) @ M.T  # (T − k, C)
    if difference.size == 0:
        return {}
    return {
        "no-abs": float(np.max(difference)),
        "row-norm": float(np.max(np.linalg.norm(difference, axis=1))),
        "mean-error": float(np.mean(np.abs(difference))),
    }


def _named_measures(pe: np.ndarray, M: np.ndarray, k: int) -> dict[str, float]:
    """The judge's: those of :func:`_other_measures`, and t = 0 … T − k − 2 (``range(T - k - 1)``), the last row the brief
    names left out. Not a hypothesis: on the bent table it sits too near the right figure for float32 to tell apart, so
    it is only named for a figure already off the right one."""
    difference = pe[k:].astype(np.float64) - pe[:-k].astype(np.float64) @ M.T  # (T − k, C)
    last = {"last-row-missed": float(np.max(np.abs(difference[:-1])))} if difference.shape[0] > 1 else {}
    return {**_other_measures(pe, M, k), **last}


def _unfollowed(values: Values, first: Values | None, name: str) -> None:
    if first is not None and np.array_equal(values[name], first[name]):
        raise Mistake("mismatch", "typed", name=name)


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, BORROWS, "pe")
    _judge_run(runs.first)
    rerun = runs.second(CHANGED)
    if np.array_equal(rerun["C"], runs.first["C"]):
        raise Mistake("rerun-failed", "set-again", changed=CHANGED, failure="the script sets `C` again after the checker changed it", reset="C")
    try:
        return sized_for_the_first_run(lambda: judged_on_rerun(lambda: _judge_run(rerun, runs.first), CHANGED), CHANGED)
    except Mistake as mistake:
        typed = SIZES.typed(runs)  # the starter's numbers this script writes, and only those, named
        said = {"typed": f" (your script types in the starter's {typed})" if typed else ""}
        if (mistake.diagnosis, mistake.cause) == ("mismatch", ""):  # right on the learner's own sizes, wrong on the rerun's: a size typed in
            raise Mistake("mismatch", "unrelated", **{**mistake.fields, **said, "changed": CHANGED, "whose": "that run's T, C and k"}) from None
        if (mistake.diagnosis, mistake.cause) == ("mismatch", "unrelated-shape"):
            raise Mistake("mismatch", "unrelated-shape", **{**mistake.fields, **said}) from None
        raise


def hypotheses(values: Values) -> Hypotheses:
    """What pe, M and shift_error are for one run's T, C and k, right and under each mistake the judge names."""
    T, C, k = (read_whole(values, name, 1, MAX_POSITIONS) for name in ("T", "C", "k"))
    roundoff = dtype_roundoff(values, NAMES)
    candidates = tables(T, C)
    M = shift_matrix(k, C)
    # the shift error measured on the table the run holds: rounding for the script's own, clearly more for the rerun's bent one
    right: dict[str, Figure] = {"pe": candidates["right"], "M": M, "shift_error": shift_error(read_shaped(values, "pe", (T, C)), M, k)}
    wrong: dict[str, dict] = {cause: {"pe": table} for cause, table in candidates.items() if cause != "right"}
    wrong["rotation-transposed"] = {"M": M.T}
    table = read_shaped(values, "pe", (T, C))
    for cause, measured in _other_measures(table, M, k).items():
        wrong[f"mismatch/{cause}"] = {"shift_error": measured}
    # the widest table tolerance, so that no rounding of a mistaken table is taken for a difference
    return Hypotheses.of(
        right,
        wrong,
        {
            "pe": _table_tolerance(roundoff, T, C, "sign-flipped"),
            "M": rounding(roundoff, 1 + k),
            "shift_error": rounding(roundoff, C * (1 + T)),
        },
    )


SINUSOIDAL_TABLE = Contract(
    names=NAMES,
    reruns=(Rerun({"T": "longer(T)", "C": "wider(C)", "k": "farther(k, T)", "pe": "bent_table(pe)"}, CHANGED),),
    judge=judge,
    diagnoses=("bad-value", "exponent-i", "frequency-per-channel", "sign-flipped", "from-one", "sin-cos-swapped", "halves", "mismatch"),
    hypotheses=hypotheses,
    typed=("pe", "M", "shift_error"),
    questions=(BORROWS, IMPORTS_BY_NAME, *SIZES.questions),
    # a signed maximum equals the largest |entry| wherever that entry is positive: told on the rerun's shrinking table, not held to
    seen_only=frozenset({"mismatch/no-abs"}),
    described={
        "exponent-i": "the exponent i in place of 2i",
        "frequency-per-channel": "a frequency per channel",
        "frequency-per-channel/doubled": "a frequency per channel with 2j",
        "sign-flipped": "the exponent's sign flipped",
        "from-one": "positions from 1",
        "sin-cos-swapped": "sines and cosines swapped",
        "halves": "concatenated halves",
        "rotation-transposed": "M turned the other way",
        "mismatch/no-abs": "the largest signed difference, no |·|",
        "mismatch/row-norm": "the largest row length",
        "typed-pe": "a pe typed in",
        "typed-M": "an M typed in",
        "typed-shift_error": "a shift_error typed in",
        "stale-C": "a table from a copy of C made before the checker changed it",
        "stale-k": "an M from a copy of k made before the checker changed it",
    },
)
