"""sinusoidal-table: the (T, C) table of Vaswani et al. from its formula, and the rotation M_k that shifts it.

The rerun widens the table by two pairs and lengthens the shift: the right
table and M change with them, each misconception (exponent i, a frequency
per channel, the sign, positions from 1, sin and cos swapped, concatenated
halves) gives a table of its own, and numbers typed in do not change.
Once built, the rerun's table is bent on purpose (row t scaled by
1 + (t / T)² / 64): M no longer shifts it exactly, so an honest
``shift_error`` measured on it is far from rounding, and a figure typed in
(0.0, or rounding-sized) or measured on one row alone does not follow.
That bend's error is largest at the last t; a second rerun bends the
table the other way (row t scaled by 1 + (1 − t/T)²/4), largest at the
first, so that a maximum over some rows only (the first left out, the
second half, the last row) falls short on one bend or the other.
Both bends scale whole rows, monotone in t, and keep T − k: a maximum
over every other t, over the two ends of t or over the last channel pair,
or over the first run's T − k rows typed in, follows them. A third rerun
grows T by five and k by two (T − k by three) and bends five cells of the
table, each one channel pair of one row, by shares that halve one to the
next (``substitutes.bumped_cells``): each of those parts gives a figure of
its own, and is named.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from attnpos.core.sinusoidal_encoding import BASE, shift_error, shift_matrix
from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_ONLY,
    RAISED_AFTER_NAMES,
    Contract,
    Question,
    Rerun,
    Runs,
    StarterSizes,
    figure_mistake,
    judged_on_rerun,
    refuse_borrowing,
    sized_for_the_first_run,
    sized_for_the_starter,
    worst_entry,
)
from attnpos.lessons.checker.contracts.table_reading import close, read_shaped, read_whole, rounding
from attnpos.lessons.checker.learner_modules import GIVEN_PREFIX
from attnpos.lessons.checker.rerun import FINISHED
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.substitutes import (
    BEND,
    COVERING_PLACEMENTS,
    FAR_CHANNELS,
    FAR_POSITIONS,
    bent_at_seam,
    bent_first,
    bent_in_places,
    bent_table,
    covered_cells,
    seam_cells,
)
from attnpos.lessons.checker.values import Values, dtype_roundoff, reported_rounding, scalar
from attnpos.lessons.checker.verdicts import Mistake, Passed

NAMES = ("T", "C", "k", "pe", "M", "shift_error")
# The starter's sizes; its own lines set these names, and a 12, 8 or 3 elsewhere is a size typed in.
SIZES = StarterSizes({12: "T", 8: "C", 3: "k"}, ("T", "C", "k"))
# ... and its number of pairs, C/2, typed as a count (``range(4)``, ``range(3 + 1)``): the 3 of ``3 + 1`` is then no k
STARTER_PAIRS = next(number for number, name in SIZES.sizes.items() if name == "C") // 2
PAIRS_TYPED = Question("types_count", (str(STARTER_PAIRS), SIZES.kept))
TYPED_APART = {number: Question("types_number_apart", (str(number), SIZES.kept)) for number in SIZES.sizes}
# A rerun stopped by numbers typed in that are no size: the whole table (``pe = np.array([[0.0, 1.0, …], …])``), or one
# number per pair of the starter's (its frequencies, ``w = np.array([1.0, 0.1, 0.01, 0.001])``).
TABLE_TYPED = Question("typed_in", ("pe",))
PER_PAIR_TYPED = Question("types_numbers", (str(STARTER_PAIRS), SIZES.kept))
# The sign-flipped table is also t divided by w_i, the minus sign kept (``np.sin(t / w)``): the source says which slip it is.
DIVIDES = Question("divides_by_negated", ())
CHANGED = "`T` two positions longer, `C` four channels wider, `k` two positions longer, and your pe, once built, bent a little (row t scaled by 1 − (t/T)²/64)"
# The second rerun bends the other way, most at the first row: a maximum over rows that leave out t = 0 falls short there.
BENT_FIRST = (
    "`T` two positions longer, `C` four channels wider, `k` two positions longer, and your pe, once built, bent most at its first row"
    " (row t scaled by 1 + (1 − t/T)²/4)"
)
# The third: T − k three rows more, and bumps in single cells, so that a maximum over some rows or pairs only falls short.
IN_PLACES = (
    "`T` five positions longer, `C` four channels wider, `k` two positions longer, so three rows more for T − k, and your pe,"
    " once built, bent in five places, each one channel pair of one row"
)
# The fourth: single channels bent in the middle row of the differences, most in pair 0's sine, so that a maximum leaving
# out pair 0, the sines or that one row falls short; at sizes far past the others' and in another proportion
# (substitutes.FAR_POSITIONS), where M is judged too: no relation among T, C and k of the other runs' holds there.
AT_SEAM = (
    f"`T` {FAR_POSITIONS} positions longer, `C` {FAR_CHANNELS} channels wider, `k` set to 1 (or to 2, if yours already is 1), and your pe, once built,"
    " bent in single channels of the middle difference row, most in pair 0's sine"
)
# each rerun's bend, as the judge applies it to the tables it expects: (table, the rerun's k) -> the bent table
BENDS: dict[str, Callable[[object, int], np.ndarray]] = {
    CHANGED: lambda pe, k: bent_table(pe),
    BENT_FIRST: lambda pe, k: bent_first(pe),
    IN_PLACES: bent_in_places,
    AT_SEAM: lambda pe, k: bent_at_seam(pe, k, k),
}
# The covering reruns, one per placement j, with the script's own T, C and k: the difference at t = j mod (T − k),
# channel j mod C raised the most (substitutes.covered_cells). A maximum over a set returns one of its entries, so a row
# or a channel left out shows only in a run whose largest difference it holds: with T − k and C at most
# COVERING_PLACEMENTS (the starter's 9 rows and 8 channels), every row and every channel holds it in one.
COVERING = {
    (
        "your own T, C and k, and your pe, once built, raised in three cells so that the difference at"
        f" t = {j} mod (T − k), channel {j} mod C is the largest (one of {COVERING_PLACEMENTS} such reruns)"
    ): j
    for j in range(COVERING_PLACEMENTS)
}
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


def _judge_run(values: Values, first: Values | None = None, bend: Callable[[object, int], np.ndarray] = BENDS[CHANGED]) -> Passed:
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
        candidates = {cause: bend(table, k) for cause, table in candidates.items()}
    tol = _table_tolerance(roundoff, T, C)
    if not close(pe, candidates["right"], tol):
        _unfollowed(values, first, "pe")
        # right, and unbent: built again after the bend (the tables made afresh: a bend above works in place)
        if first is not None and close(pe, tables(T, C)["right"], tol):
            raise Mistake("mismatch", "rebuilt", name="pe", **worst_entry("pe", pe, candidates["right"], "that run's T, C and k"))
        positions = np.arange(T, dtype=np.float64)
        _rounded_frequencies(
            "pe", pe, candidates["right"], lambda w: bend(table(positions, w, w, C), k) if first is not None else table(positions, w, w, C), C, tol
        )
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
        _rounded_frequencies("M", M, expected_M, lambda w: _rotation(k, w), C, m_tol)
        raise Mistake("mismatch", name="M", **worst_entry("M", M, expected_M))
    if first is not None:
        return Passed()  # the rerun's figure: judged with every other rerun's (_judge_figures)
    figure = scalar(values, "shift_error")
    honest = shift_error(pe, M, k)
    measured_roundoff = _measured_roundoff(values)
    noise = rounding(measured_roundoff, C * (1 + T))
    if abs(figure - honest) > noise + float(reported_rounding(honest)):
        if measured_roundoff < roundoff and abs(figure - honest) <= rounding(roundoff, C * (1 + T)):
            raise figure_mistake("mismatch", "narrower-copy", "shift_error", honest, figure)  # float32 rounding on float64 arrays
        for cause, measured in _named_measures(pe, M, k).items():  # measured, but not as the largest |entry| of every row
            if abs(figure - measured) <= noise + float(reported_rounding(measured)):
                mistake = figure_mistake("mismatch", cause, "shift_error", honest, figure)
                raise Mistake("mismatch", cause, **mistake.fields, whose="your own pe and M")
        raise figure_mistake("mismatch", "shift-figure", "shift_error", honest, figure)
    return Passed()


# One measure of the differences that the judge can name: (its key, the same on every rerun; its cause; the figure it
# gives on this rerun's table; the message's fields there).
Part = tuple[tuple[str | int, ...], str, float, dict[str, str]]


def _judge_figures(runs: Runs) -> None:
    """Each rerun's shift_error, against the largest |pe[t + k] − M @ pe[t]| of that run's own pe and M. Where one is
    off, it is named by the first measure of :func:`_parts` that gives the script's figure on every rerun: a measure is
    one computation, and the reruns' bends each part it from the right figure (and from the others) on a table of their
    own, so that one rerun's coincidence does not name it."""
    tables = []  # (changed, figure, honest, tolerance of a figure near a measure, pe, M, k) for each rerun
    for changed in (*BENDS, *COVERING):
        values = runs.second(changed)
        T, C, k = (int(values[name]) for name in ("T", "C", "k"))
        pe, M = read_shaped(values, "pe", (T, C)), read_shaped(values, "M", (C, C))
        tables.append((changed, scalar(values, "shift_error"), shift_error(pe, M, k), rounding(_measured_roundoff(values), C * (1 + T)), pe, M, k))
    if all(_near(figure, honest, noise) for _, figure, honest, noise, *_ in tables):
        return  # the measures are only looked for where a figure is off: a right answer waits on none of them
    # (changed, figure, honest, tolerance, parts, largest cell) for each rerun
    judged = [(changed, figure, honest, noise, _parts(pe, M, k, runs.first), _worst(pe, M, k)) for changed, figure, honest, noise, pe, M, k in tables]
    bent = judged[: len(BENDS)]
    consistent = set.intersection(*({key for key, _, measured, _ in parts if _near(figure, measured, noise)} for _, figure, _, noise, parts, _ in bent))
    # the covering reruns keep the script's own C, where the others widen it: a run of channels by number is another
    # run of channels there, so they rule out every measure but those (a maximum leaving out channel 0 is no "cosines only")
    consistent -= {
        key
        for _, figure, _, noise, parts, _ in judged[len(BENDS) :]
        for key, _, measured, _ in parts
        if key[0] != "some-channels" and not _near(figure, measured, noise)
    }
    for changed, figure, honest, noise, parts, worst in judged:
        if _near(figure, honest, noise):
            continue
        C = int(runs.second(changed)["C"])
        near = [(key, cause, fields) for key, cause, measured, fields in parts if key in consistent and _near(figure, measured, noise)]
        named = [(cause, fields) for _, cause, fields in near]
        if named:
            # each run of channels once, in that rerun's numbers (a key counts an end from the last channel as negative)
            ends = dict.fromkeys((int(key[1]) % C, int(key[2]) % C) for key, cause, _ in near if cause == "some-channels")
            spans = _spans_kept(runs, C, [range(a, b + 1) for a, b in ends])
            if spans:  # every run of channels that gives the figure, and the channels each of them leaves out
                told = {
                    "channels": " or ".join(_channels(span) for span in spans[:3]) + (", …" if len(spans) > 3 else ""),
                    "left": _channels(sorted(set(range(C)) - set().union(*spans))),
                }
                named = [(cause, {**fields, **told} if cause == "some-channels" else fields) for cause, fields in named]
            (cause, fields), others = named[0], [(other, more) for other, more in named if _kind(other) != _kind(named[0][0])]
            # a measure of another kind that gives the same figure on every table of the checker's: told as well
            also = (
                f" On the checker's tables your figure is also {ALSO[others[0][0]].format_map(others[0][1])}, and they cannot tell the two apart."
                if others
                else ""
            )
            mistake = figure_mistake("mismatch", cause, "shift_error", honest, figure, rerun=True)
            raise Mistake("mismatch", cause, **{"changed": changed, "whose": "that pe and M", **mistake.fields, **fields, "also": also})
        left = _left_out(runs)
        if left is not None:  # rows or channels the covering reruns each caught, named in that run's numbers
            mistake = figure_mistake("mismatch", "left-out", "shift_error", honest, figure, rerun=True)
            raise Mistake("mismatch", "left-out", **{"changed": changed, "whose": "that pe and M", **mistake.fields, **left})
        # at rounding where the bent table is not: measured on the table before the bend reached it, or typed
        cause = "shift-figure-unbent" if abs(figure) <= noise else "shift-figure-bent"
        mistake = figure_mistake("mismatch", cause, "shift_error", honest, figure, rerun=True)
        raise Mistake("mismatch", cause, **{"changed": changed, "whose": "that pe and M", **mistake.fields, "worst": worst})


def _spans_kept(runs: Runs, C: int, spans: list[range]) -> list[range]:
    """Of the runs of a rerun's C channels that each give the script's figure there, those that give it on every
    covering rerun too, at the script's own C, each end read from the first channel or from the last, or both as a share
    of C (channels 0 … 5 of 12 are the first 6, all but the last 6, or the first half: at C = 8, channels 0 … 5, 0 … 1
    or 0 … 3); all of them where none does."""
    covering = _covering(runs)
    own = covering[0][2].shape[1] if covering else 0

    def kept(span: range) -> bool:
        a, b = span[0], span[-1]
        readings = [(first, last) for first in (a, a - C + own) for last in (b, b - C + own)]
        if (a * own) % C == 0 and ((b + 1) * own) % C == 0:
            readings.append((a * own // C, (b + 1) * own // C - 1))
        return any(
            0 <= first <= last < own and all(_near(figure, float(np.max(size[:, first : last + 1])), noise) for figure, noise, size, _ in covering)
            for first, last in readings
        )

    agreeing = [span for span in spans if kept(span)] if covering else []
    return agreeing or spans


def _covering(runs: Runs) -> list[tuple[float, float, np.ndarray, tuple[int, int]]]:
    """(figure, tolerance, |differences| (T − k, C), raised cell) of each covering rerun; empty where one of them has no
    raised cell (too few rows or channels)."""
    covering = []
    for changed, placement in COVERING.items():
        values = runs.second(changed)
        T, C, k = (int(values[name]) for name in ("T", "C", "k"))
        pe, M = read_shaped(values, "pe", (T, C)), read_shaped(values, "M", (C, C))
        cells = covered_cells(T, C, k, placement)
        if not cells:
            return []
        size = np.abs(pe[k:].astype(np.float64) - pe[:-k].astype(np.float64) @ M.T)  # (T − k, C)
        noise = rounding(_measured_roundoff(values), C * (1 + T))
        covering.append((scalar(values, "shift_error"), noise, size, cells[0][:2]))
    return covering


def _measured_roundoff(values: Values) -> float:
    """The rounding a shift_error measured on the run's own pe and M carries: float64's where both are float64 arrays that
    hold float64 numbers (not float32 ones widened), whatever narrower type the source names or the figure is kept in
    (its own rounding is the reported one's): measured on them, a figure has no float32 rounding in it unless it was
    measured on float32 copies (``pe.astype(np.float32)``), which round away the very error it is about. Else the
    rounding of the narrowest type in play."""
    arrays = [values[name] for name in ("pe", "M")]
    if all(array.dtype == np.float64 and np.any(array != array.astype(np.float32)) for array in arrays):
        return float(np.finfo(np.float64).eps / 2)
    return dtype_roundoff(values, NAMES)


def _near(figure: float, measured: float, noise: float) -> bool:
    return abs(figure - measured) <= noise + float(reported_rounding(measured))


def _worst(pe: np.ndarray, M: np.ndarray, k: int) -> str:
    """Where the largest |difference| is, in the learner's words: "t = 9, channel 2 (pair 1's sine)"."""
    difference = np.abs(pe[k:].astype(np.float64) - pe[:-k].astype(np.float64) @ M.T)  # (T − k, C)
    if difference.size == 0:
        return "no row"
    row, channel = (int(i) for i in np.unravel_index(np.argmax(difference), difference.shape))
    return f"t = {row}, channel {channel} (pair {channel // 2}'s {'cosine' if channel % 2 else 'sine'})"


# Frequencies rounded to this many decimals or more are exact for the starter's C = 8 (1, 0.1, 0.01, 0.001).
ROUNDED_DECIMALS = range(3, 9)


def _rounded_frequencies(name: str, value: np.ndarray, expected: np.ndarray, built: Callable[[np.ndarray], np.ndarray], C: int, tol: float) -> None:
    """pe or M built from the frequencies rounded to some decimals (``built(frequencies)``): right for the starter's
    C = 8, not for the rerun's width."""
    for decimals in ROUNDED_DECIMALS:
        if close(value, built(np.round(BASE ** (-2 * np.arange(C // 2) / C), decimals)), tol):
            whose = {"whose": "that run's T, C and k"}
            raise Mistake("mismatch", "frequencies-rounded", name=name, decimals=decimals, **worst_entry(name, value, expected), **whose)


def _rotation(k: int, w: np.ndarray) -> np.ndarray:
    """(C, C) M from the frequencies ``w``: the block [[cos kw, sin kw], [−sin kw, cos kw]] for each pair."""
    M = np.zeros((2 * len(w), 2 * len(w)))
    for i, angle in enumerate(k * w):
        M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]]
    return M


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
    # the signed maximum the other way round, of M @ pe[t] − pe[t + k]: the third bend's bumps are positive differences
    reversed_sign = {"no-abs-reversed": float(np.max(-difference))} if difference.size else {}
    return {**_other_measures(pe, M, k), **last, **reversed_sign}


def _parts(pe: np.ndarray, M: np.ndarray, k: int, first: Values) -> list[Part]:
    """Every measure of the differences pe[t + k] − M @ pe[t] that the judge names, in the order it names them: those of
    :func:`_named_measures`; the parts the fourth rerun's seam bumps tell (pair 0 left out, the cosines only, the middle
    row left out); those the third rerun's bumps tell (a T − k typed in, every other t, the two ends of t, the last pair)
    and the sines only; any run of rows t = a … b, or of channels, but all; the right figure rounded to some decimals."""
    difference = pe[k:].astype(np.float64) - pe[:-k].astype(np.float64) @ M.T  # (T − k, C)
    rows, channels = difference.shape
    if difference.size == 0:
        return []
    size = np.abs(difference)
    by_row = np.max(size, axis=1)  # (T − k,)
    worst_row, worst_channel = (int(i) for i in np.unravel_index(np.argmax(size), size.shape))
    worst, worst_pair = f"t = {worst_row}", worst_channel // 2
    parts: list[Part] = [((cause,), cause, measured, {}) for cause, measured in _named_measures(pe, M, k).items()]
    cells = seam_cells(rows + k, channels, k)
    if cells:
        seam, pairs = cells[0][0], channels // 2
        parts += [
            (("first-pair-left",), "first-pair-left", float(np.max(size[:, 2:])), {"left": "channels 0 and 1", "kept": f"pairs 1 … {pairs - 1}"}),
            (("cosines-only",), "cosines-only", float(np.max(size[:, 1::2])), {"left": f"the sines (channels 0, 2, … {channels - 2})"}),
            (("seam-row",), "seam-row", float(np.max(np.delete(size, seam, axis=0))), {"left": f"t = {seam}", "rows": _rows(range(rows))}),
        ]
        parts = [
            (key, cause, measured, {**fields, "worst": _worst(pe, M, k), "count": str(rows)}) if cause in SEAM_PARTS else (key, cause, measured, fields)
            for key, cause, measured, fields in parts
        ]
    T0, k0 = int(first["T"]), int(first["k"])
    starter = {name: number for number, name in SIZES.sizes.items()}
    if 0 < k0 < rows + k:  # the first run's shift typed into the slices, `pe[3:] - pe[:-3]`, beside this run's M
        shifted = np.abs(pe[k0:].astype(np.float64) - pe[:-k0].astype(np.float64) @ M.T)  # (T − k0, C)
        whose = "the starter's" if k0 == starter["k"] else "your first run's"
        parts.append((("shift-typed",), "shift-typed", float(np.max(shifted)), {"typed": f"{whose} {k0}", "shift": str(k0), "k": str(k)}))
    if 0 < T0 - k0 <= rows:  # on a rerun that keeps T − k, the rows of every t
        whose = "the starter's" if (T0, k0) == (starter["T"], starter["k"]) else "your"
        typed = f"{whose} {T0 - k0}" + ("" if whose != "your" else f" ({T0} − {k0})")
        fields = {"rows": _rows(range(T0 - k0)), "typed": typed, "k": str(k), "T": str(k + rows)}
        parts.append((("rows-typed",), "rows-typed", float(np.max(by_row[: T0 - k0])), fields))
    if rows >= 4:
        fields = {"rows": _rows(range(0, rows, 2)), "left": _rows(range(1, rows, 2))}
        parts.append((("every-other-row",), "every-other-row", float(np.max(by_row[0::2])), fields))
    if rows >= 3:
        fields = {"rows": f"t = 0 and t = {rows - 1}", "left": _rows(range(1, rows - 1))}
        parts.append((("row-ends",), "row-ends", float(max(by_row[0], by_row[-1])), fields))
    if channels >= 4:
        last = channels // 2 - 1
        others = "pair 0 (channels 0 and 1)" if last == 1 else f"pairs 0 … {last - 1} (channels 0 … {channels - 3})"
        fields = {
            "pair": f"pair {last}, channels {channels - 2} and {channels - 1}",
            "left": others,
            "worst_pair": f"pair {worst_pair} (channels {2 * worst_pair} and {2 * worst_pair + 1})",
        }
        parts.append((("last-pair",), "last-pair", float(np.max(size[:, -2:])), fields))
        # the first bend's largest difference is a cosine's (the slowest pair's, near 1, shrunk most)
        parts.append(
            (
                ("sines-only",),
                "sines-only",
                float(np.max(size[:, 0::2])),
                {"left": f"the cosines (channels 1, 3, … {channels - 1})", "channel": str(worst_channel)},
            )
        )
    parts = [(key, cause, measured, {"worst": worst, "count": str(rows), **fields}) for key, cause, measured, fields in parts]
    runs = sorted(((a, b) for a in range(rows) for b in range(a, rows) if (a, b) != (0, rows - 1)), key=lambda run: run[0] - run[1])
    for a, b in runs:  # a run of rows, the widest first, each end counted from the first row or from the last
        fields = {"rows": f"t = {a} … {b}" if b > a else f"t = {a}", "worst": worst, "count": str(rows)}
        parts += [(("some-rows", start, end), "some-rows", float(np.max(by_row[a : b + 1])), fields) for start in (a, a - rows) for end in (b, b - rows)]
    spans = sorted(((a, b) for a in range(channels) for b in range(a, channels) if (a, b) != (0, channels - 1)), key=lambda span: span[0] - span[1])
    where = _worst(pe, M, k)
    for a, b in spans:  # a run of channels, the widest first, each end counted from the first channel or from the last
        fields = {"channels": _channels(range(a, b + 1)), "left": _channels([*range(a), *range(b + 1, channels)]), "worst": where}
        measured = float(np.max(size[:, a : b + 1]))
        parts += [(("some-channels", start, end), "some-channels", measured, fields) for start in (a, a - channels) for end in (b, b - channels)]
    honest = float(np.max(size))
    for decimals in range(12, 0, -1):  # the most decimals first: the least rounding that gives the figure
        parts.append((("rounded", decimals), "rounded", round(honest, decimals), {"decimals": str(decimals)}))
    return parts


# Each measure of :func:`_parts` in a few words, from its fields: what a figure is also, where the checker's tables give
# it by two measures.
ALSO = {
    "no-abs": "the largest signed difference pe[t + k] − M @ pe[t], with no |·|",
    "no-abs-reversed": "the largest signed difference M @ pe[t] − pe[t + k], with no |·|",
    "row-norm": "the largest length of a row's difference",
    "mean-error": "the mean |pe[t + k] − M @ pe[t]|",
    "last-row-missed": "the largest over t = 0 … T − k − 2, one row short",
    "first-pair-left": "the largest over every pair but pair 0",
    "cosines-only": "the largest over the cosine channels only",
    "seam-row": "the largest over every row but {left}",
    "rows-typed": "the largest over {rows} only",
    "shift-typed": "the largest |pe[t + {shift}] − M @ pe[t]|, {typed} for k typed into the slices",
    "every-other-row": "the largest over every other t only",
    "row-ends": "the largest over the two ends of t only",
    "last-pair": "the largest over the last channel pair only",
    "sines-only": "the largest over the sine channels only",
    "some-rows": "the largest over {rows} only",
    "some-channels": "the largest over a run of channels that leaves out {left}",
    "rounded": "the right figure rounded to {decimals} decimal places",
}


# Measures over some of the channels, and over some of the rows: one of a kind that gives the figure is told, not others
# of that kind (pair 0 left out is a run of channels 2 … C − 1 too).
KINDS = {
    "channels": frozenset({"first-pair-left", "cosines-only", "last-pair", "sines-only", "some-channels"}),
    "rows": frozenset({"last-row-missed", "rows-typed", "every-other-row", "row-ends", "seam-row", "some-rows"}),
}


def _kind(cause: str) -> str:
    return next((kind for kind, causes in KINDS.items() if cause in causes), cause)


# the parts the fourth rerun's seam bumps tell apart, named with the largest difference's channel
SEAM_PARTS = frozenset({"first-pair-left", "cosines-only", "seam-row"})


def _channels(channels: range | list[int]) -> str:
    """Channels in the learner's words: "channel 11", "channels 0 … 10", "channels 0, 1 and 11"."""
    channels = list(channels)
    if len(channels) == 1:
        return f"channel {channels[0]}"
    if channels == list(range(channels[0], channels[-1] + 1)):
        return f"channels {channels[0]} … {channels[-1]}" if len(channels) > 2 else f"channels {channels[0]} and {channels[1]}"
    return "channels " + ", ".join(str(c) for c in channels[:-1]) + f" and {channels[-1]}"


def _rows(t: range) -> str:
    """Rows in the learner's words: "t = 0 … 8", "t = 0, 2, 4, … 10", "t = 1", "t = 1 and 3"."""
    if len(t) == 1:
        return f"t = {t[0]}"
    if len(t) == 2:
        return f"t = {t[0]} and {t[1]}"
    if t.step == 1:
        return f"t = {t[0]} … {t[-1]}"
    return f"t = {t[0]}, {t[1]}, … {t[-1]}" if len(t) == 3 else f"t = {t[0]}, {t[1]}, {t[2]}, … {t[-1]}"


def _unfollowed(values: Values, first: Values | None, name: str) -> None:
    if first is not None and np.array_equal(values[name], first[name]):
        raise Mistake("mismatch", "typed", name=name)


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, BORROWS, "pe")
    try:
        _judge_run(runs.first)
    except Mistake as mistake:
        if mistake.diagnosis == "sign-flipped" and runs.says(DIVIDES):  # same table: t / w_i with w_i = 10000^(−2i/C)
            raise Mistake("sign-flipped", "divided", **mistake.fields) from None
        raise
    for changed, bend in BENDS.items():
        _judge_bent(runs, changed, bend)
    _judge_figures(runs)
    _zeroed(runs.first)
    on_values = _stopped_on_values(runs)  # any other raise after every name is the judging's to tell
    if on_values is not None:
        raise on_values
    return Passed()


def _stopped_on_values(runs: Runs) -> Mistake | None:
    """An assert of the script's that stopped a covering rerun, one that keeps the script's own T, C and k and bends its
    table alone: an assert on pe's values or on shift_error (no size changed there), which every bend fails by design."""
    for changed in COVERING:
        index = runs.changed.index(changed)
        failure = runs.failures[index] if runs.reruns[index] is None else (runs.raised[index] if runs.raised else "")
        if failure.startswith("AssertionError"):
            after = RAISED_AFTER_NAMES if runs.reruns[index] is not None else ""
            return Mistake("rerun-failed", "assert-on-values", changed=changed, failure=failure + after)
    return None


def _left_out(runs: Runs) -> dict[str, str] | None:
    """What the covering reruns say a maximum leaves out: the rows t of the runs whose figure falls short of their raised
    cell (t, c), where the largest over every other row gives the figure on every covering run; else their channels c,
    where the largest over every other channel does (then perhaps only the one entry raised in each). None where
    neither does, or none falls short, or every one does."""
    covering = _covering(runs)
    if not covering:
        return None
    short = [cell for figure, noise, size, cell in covering if not _near(figure, float(np.max(size)), noise)]
    for axis, left in ((0, {t for t, _ in short}), (1, {c for _, c in short})):
        if not left or len(left) == covering[0][2].shape[axis]:
            continue
        if all(_near(figure, float(np.max(np.delete(size, sorted(left), axis=axis))), noise) for figure, noise, size, _ in covering):
            # a channel's runs show the largest over every other channel, which is also the largest over every entry but the raised one
            entry = " (perhaps only the one entry the checker raised in each: one run cannot tell the two apart)" if axis else ""
            told = _rows_listed(sorted(left)) if axis == 0 else _channels(sorted(left))
            T, C, k = (int(runs.first[name]) for name in ("T", "C", "k"))
            return {"left": told, "sizes": f"T = {T}, C = {C}, k = {k}", "count": str(COVERING_PLACEMENTS), "entry": entry}
    return None


def _rows_listed(rows: list[int]) -> str:
    """Rows in the learner's words, any set: "t = 1", "t = 2, 5 and 8"."""
    if not rows:
        return ""
    if len(rows) == 1:
        return f"t = {rows[0]}"
    if len(rows) > 2 and rows == list(range(rows[0], rows[-1] + 1)):
        return f"t = {rows[0]} … {rows[-1]}"
    return "t = " + ", ".join(str(t) for t in rows[:-1]) + f" and {rows[-1]}"


def _zeroed(values: Values) -> None:
    """A shift_error of exactly 0 where the script's own pe and M differ by rounding: its figures followed every bend,
    so it measures, and then sets a figure that small to 0 (or leaves out the rows whose difference is that small). A
    maximum of |differences| that round is 0 only where every difference is exactly 0, and the table's are not."""
    T, C, k = (int(values[name]) for name in ("T", "C", "k"))
    honest = shift_error(read_shaped(values, "pe", (T, C)), read_shaped(values, "M", (C, C)), k)
    if scalar(values, "shift_error") == 0 and honest != 0:
        raise figure_mistake("mismatch", "shift-figure-zeroed", "shift_error", honest, 0.0)


def _judge_bent(runs: Runs, changed: str, bend: Callable[[object, int], np.ndarray]) -> None:
    """One rerun: the sizes changed and the table bent by ``bend`` once built."""
    try:
        rerun = runs.second(changed)
    except Mistake as mistake:
        if not mistake.cause:  # stopped by the new sizes, not by an assert of the learner's: a size typed in, or one used for another
            if not SIZES.typed(runs):
                _numbers_typed(runs, mistake, changed)
            sized_for_the_starter(runs, SIZES, mistake, changed)
        raise _stopped_on_values(runs) or mistake from None
    try:
        sized_for_the_first_run(lambda: judged_on_rerun(lambda: _judge_run(rerun, runs.first, bend), changed), changed)
    except Mistake as mistake:
        said = {"typed": _typed(runs)}
        if (mistake.diagnosis, mistake.cause) == ("mismatch", ""):  # right on the learner's own sizes, wrong on the rerun's: a size typed in
            raise Mistake("mismatch", "unrelated", **{**mistake.fields, **said, "changed": changed, "whose": "that run's T, C and k"}) from None
        if (mistake.diagnosis, mistake.cause) == ("mismatch", "unrelated-shape"):
            raise Mistake("mismatch", "unrelated-shape", **{**mistake.fields, **said}) from None
        raise Mistake(mistake.diagnosis, mistake.cause, **{"changed": changed, **mistake.fields}) from None  # which rerun it was


def _numbers_typed(runs: Runs, mistake: Mistake, changed: str) -> None:
    """A rerun stopped where the script types in numbers that are no size, and none of the starter's sizes: the table
    itself, or one number for each of the starter's pairs; raised as that, with what stopped the run."""
    what = f"that run failed: {mistake.fields['failure']}"
    if runs.says(TABLE_TYPED):
        raise Mistake("rerun-failed", "typed-table", changed=changed, what=what) from None
    if runs.says(PER_PAIR_TYPED):
        raise Mistake("rerun-failed", "typed-per-pair", changed=changed, what=what, pairs=STARTER_PAIRS) from None


def _typed(runs: Runs) -> str:
    """The starter's numbers this script writes, and only those, in words: " (your script types in the starter's 3 for
    k)"; a number of pairs typed as a count is named as that (``range(3 + 1)``: 4 pairs, not 3 for k)."""
    found = [f"{number} for {name}" for number, name in SIZES.sizes.items() if runs.says(TYPED_APART[number])]
    if runs.says(PAIRS_TYPED):
        found.append(f"{STARTER_PAIRS} for the number of pairs, C/2")
    typed = " and ".join(found) if len(found) < 3 else ", ".join(found[:-1]) + " and " + found[-1]
    return f" (your script types in the starter's {typed})" if typed else ""


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
    if T - k >= 2:  # the largest over some rows only: the first bend (most at the last row) parts the first row's from the
        # right figure, the second (most at the first row) the largest over every row but the first
        by_row = np.max(np.abs(table[k:] - table[:-k] @ M.T), axis=1)  # (T − k,)
        wrong["mismatch/first-row"] = {"shift_error": float(by_row[0])}
        wrong["mismatch/rows-after-first"] = {"shift_error": float(np.max(by_row[1:]))}
        # parts the third rerun's bends each give a figure of their own: every other t, the two ends of t, the last pair
        if T - k >= 4:
            wrong["mismatch/every-other-row"] = {"shift_error": float(np.max(by_row[0::2]))}
        if T - k >= 3:
            wrong["mismatch/row-ends"] = {"shift_error": float(max(by_row[0], by_row[-1]))}
    if C >= 4:
        wrong["mismatch/last-pair"] = {"shift_error": float(np.max(np.abs(table[k:, -2:] - table[:-k] @ M[-2:].T)))}
        # parts the fourth rerun's bends, most in pair 0's sine at the middle difference row, each give a figure of their own
        difference = np.abs(table[k:] - table[:-k] @ M.T)  # (T − k, C)
        wrong["mismatch/first-pair-left"] = {"shift_error": float(np.max(difference[:, 2:]))}
        wrong["mismatch/cosines-only"] = {"shift_error": float(np.max(difference[:, 1::2]))}
        if T - k >= 3:
            wrong["mismatch/seam-row"] = {"shift_error": float(np.max(np.delete(difference, (T - k) // 2, axis=0)))}
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
    reruns=(
        Rerun({"T": "longer(T)", "C": "wider(C)", "k": "farther(k, T)", f"pe{FINISHED}": "bent_table(pe)"}, CHANGED),
        Rerun({"T": "longer(T)", "C": "wider(C)", "k": "farther(k, T)", f"pe{FINISHED}": "bent_first(pe)"}, BENT_FIRST),
        # pe first: where one statement first reads both pe and k, the rerun's k is then set before the bend reads it
        Rerun({f"pe{FINISHED}": "bent_in_places(pe, k)", "T": "five_longer(T)", "C": "wider(C)", "k": "farther(k, T)"}, IN_PLACES),
        # the bend reads the rerun's k as given, or moves the script's own where pe is read before k
        Rerun(
            {f"pe{FINISHED}": f"bent_at_seam(pe, k, {GIVEN_PREFIX}k)", "T": "far_more_positions(T)", "C": "far_more_channels(C)", "k": "shortest_shift(k)"},
            AT_SEAM,
        ),
        *(Rerun({f"pe{FINISHED}": f"bent_in_one_cell(pe, k, {GIVEN_PREFIX}k, {j})"}, changed) for changed, j in COVERING.items()),
    ),
    judge=judge,
    diagnoses=("bad-value", "exponent-i", "frequency-per-channel", "sign-flipped", "from-one", "sin-cos-swapped", "halves", "mismatch", "changed-input"),
    given=("T", "C", "k"),
    hypotheses=hypotheses,
    typed=("pe", "M", "shift_error"),
    questions=(BORROWS, IMPORTS_BY_NAME, *SIZES.questions, PAIRS_TYPED, *TYPED_APART.values(), DIVIDES, TABLE_TYPED, PER_PAIR_TYPED),
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
        "mismatch/first-row": "the difference at t = 0 alone",
        "mismatch/rows-after-first": "the largest over every row but the first",
        "mismatch/every-other-row": "the largest over every other t",
        "mismatch/row-ends": "the largest over the two ends of t",
        "mismatch/last-pair": "the largest over the last channel pair",
        "mismatch/first-pair-left": "the largest over every channel pair but pair 0",
        "mismatch/cosines-only": "the largest over the cosine channels",
        "mismatch/seam-row": "the largest over every row but the middle one",
        "typed-pe": "a pe typed in",
        "typed-M": "an M typed in",
        "typed-shift_error": "a typed figure",  # the held arrays follow: "a typed figure in `shift_error`, …"
        "stale-C": "a table from a copy of C made before the checker changed it",
        "stale-k": "an M from a copy of k made before the checker changed it",
    },
)
