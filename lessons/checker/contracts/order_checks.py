"""order-checks: relisting and pooling cannot tell two orders apart; a per-slot signal can.

Checks 1 and 2 are rounding noise for any inputs, so the rerun scales ``Wv``
by a power of two: honest noise scales with it, a typed figure does not, and
check 3 must then give the scaled figure the arrays give.
"""

from __future__ import annotations

import math

import numpy as np

from attnpos.core import permute_tokens, pooled_readout
from attnpos.lessons.checker.contracts.common import (
    THAT_RUN,
    WHOSE,
    Contract,
    Question,
    Rerun,
    Runs,
    close,
    figure_mistake,
    first_reading,
    follows_scaling,
    matching,
    worst_entry,
)
from attnpos.lessons.checker.separation import Hypotheses, indistinct, inverse_mistakes
from attnpos.lessons.checker.substitutes import VALUE_SCALE
from attnpos.lessons.checker.values import (
    Values,
    alike,
    dtype_roundoff,
    gap,
    head_precision,
    integer_offset,
    read_head,
    read_offset,
    read_output,
    read_perm,
    reported_rounding,
    scalar,
)
from attnpos.lessons.checker.verdicts import Mistake, Passed

NAMES = ("X_a", "Wq", "Wk", "Wv", "perm", "out_a", "out_b", "relist_gap", "pooled_gap", "pos", "pooled_gap_pos")
FIGURES = ("relist_gap", "pooled_gap", "pooled_gap_pos")
CHANGED = f"`Wv` multiplied by 2^{int(np.log2(VALUE_SCALE))}"
# Where check 3 is noise, the source says why: the offset shuffled with the tokens, or added after attention.
MOVED_WITH_TOKENS = Question("indexes_by", ("pos", "perm"))
ADDED_AFTER = Question("added_to_outputs", ("pos", ("out_a", "out_b")))
CHECKS = {"relist_gap": "check 1", "pooled_gap": "check 2", "pooled_gap_pos": "check 3"}
DESCRIBED = {
    "inverse-shuffle": "order B shuffled by the inverse of perm",
    "unreordered": "out_a left unrelisted",
    "inverse": "out_a relisted by the inverse of perm",
    "axis": "sums over the channels",
    "axis-pos": "sums over the channels",
    "position-unused": "pos kept out of check 3",
    "typed-relist_gap": "a relist_gap typed in",
    "typed-pooled_gap": "a pooled_gap typed in",
    "typed-pooled_gap_pos": "a pooled_gap_pos typed in",
    "stale-Wv": "figures from a copy of Wv made before the checker changed it",
}


def _judge_run(values: Values, runs: Runs, first: Values | None = None) -> Passed:
    """One run on its own terms; ``first`` (the first run's values) marks a rerun."""
    head = read_head(values, "X_a", ndim=(2, 3))
    X, attend = head.X, head.attend
    readings = read_perm(values, head.tokens)
    A = attend(X)  # (T, hv) or (B, T, hv)
    out_a = read_output(values, "out_a", A.shape)
    out_b = read_output(values, "out_b", A.shape)
    relist_gap, pooled_gap = scalar(values, "relist_gap"), scalar(values, "pooled_gap")
    pos = read_offset(values, X.shape, "X_a")
    pooled_gap_pos = scalar(values, "pooled_gap_pos")
    roundoff = dtype_roundoff(values, NAMES)
    precision, with_pos = head_precision(head, 0.0, roundoff), head_precision(head, pos, roundoff)
    T = head.tokens

    def with_perm(perm: np.ndarray) -> Passed:
        inverse = np.argsort(perm)
        B = attend(permute_tokens(X, perm))
        if not close(out_a, A, precision.array):
            raise head.unscaled_mistake("out_a", out_a, X, precision.array) or _array_mistake("out_a", out_a, A, first is not None)
        if not close(out_b, B, precision.array):
            if close(out_b, attend(permute_tokens(X, inverse)), precision.array):
                raise Mistake("wrong-comparison", "inverse-shuffle", name="out_b")
            raise head.unscaled_mistake("out_b", out_b, permute_tokens(X, perm), precision.array) or _array_mistake("out_b", out_b, B, first is not None)
        rerun_run = first is not None
        if not precision.is_noise(relist_gap, precision.gap):
            cause = matching(relist_gap, {"unreordered": gap(B, A), "inverse": gap(B, permute_tokens(A, inverse))}, precision, precision.gap)
            raise figure_mistake(
                "wrong-comparison" if cause else "mismatch",
                cause or "figure",
                "relist_gap",
                gap(B, permute_tokens(A, perm)),
                relist_gap,
                rerun_run,
            )
        # Noise, but it must be the noise these very outputs give: subtraction, abs and max are exact on them.
        exact = gap(out_b, permute_tokens(out_a, perm))
        if abs(relist_gap - exact) > reported_rounding(exact):
            raise _not_from_arrays("relist_gap", exact, relist_gap, rerun_run)
        pooled_noise = precision.pooled_gap(T)
        if not precision.is_noise(pooled_gap, pooled_noise):
            cause = matching(pooled_gap, {"axis": gap(B.sum(axis=-1), A.sum(axis=-1))}, precision, pooled_noise)
            right = gap(pooled_readout(B), pooled_readout(A))
            raise figure_mistake("wrong-comparison" if cause else "mismatch", cause or "figure", "pooled_gap", right, pooled_gap, rerun_run)
        # Noise too, and it must be what some honest sum of these very outputs gives, to the digits shown.
        sums = _honest_pooled_gaps(values, perm)
        if not any(abs(pooled_gap - honest) <= reported_rounding(honest) for honest in sums):
            raise _not_from_arrays("pooled_gap", sums[0], pooled_gap, rerun_run)

        if np.all(pos == 0):
            integer = integer_offset(values)
            raise Mistake("zero-offset", "integer" if integer else "", name="pos", **integer)
        if alike(pos, pos[..., :1, :], roundoff):
            raise Mistake("same-offset", "constant", name="pos")
        B_pos, A_pos = attend(permute_tokens(X, perm) + pos), attend(X + pos)
        right = gap(pooled_readout(B_pos), pooled_readout(A_pos))
        tolerance = with_pos.pooled_gap(T)
        if with_pos.is_noise(right, tolerance):
            slots = _alike_cycles(pos, perm, roundoff)
            if not slots:  # pos differs where words move, yet check 3 is noise: these arrays cannot show position at all
                raise indistinct(values, NAMES, "position-unused", DESCRIBED["position-unused"])
            raise Mistake("same-offset", "exchanged", name="pos", slots=slots)
        cause = matching(
            pooled_gap_pos,
            {
                "right": right,
                "axis": gap(B_pos.sum(axis=-1), A_pos.sum(axis=-1)),
            },
            with_pos,
            tolerance,
        )
        if cause == "right":
            return Passed()
        if cause == "axis":
            raise figure_mistake("wrong-comparison", "axis", "pooled_gap_pos", right, pooled_gap_pos, rerun_run)
        if with_pos.is_noise(pooled_gap_pos, tolerance):
            # Added after attention, shuffled along with the tokens, or never added: every one sums to check 2.
            if runs.says(MOVED_WITH_TOKENS):
                raise Mistake("moved-with-tokens", name="pos")
            if runs.says(ADDED_AFTER):
                raise Mistake("added-after-attention", name="pooled_gap_pos")
            raise Mistake("mismatch", "undone", name="pooled_gap_pos", check=CHECKS["pooled_gap_pos"])
        if first is not None and pooled_gap_pos == scalar(first, "pooled_gap_pos"):
            raise figure_mistake("mismatch", "typed", "pooled_gap_pos", right, pooled_gap_pos, rerun_run)
        raise figure_mistake("mismatch", "figure", "pooled_gap_pos", right, pooled_gap_pos, rerun_run)

    return first_reading(readings, with_perm)


def _array_mistake(name: str, got: np.ndarray, expected: np.ndarray, rerun_run: bool) -> Mistake:
    """An output that is not what the arrays give; from the rerun, with the outputs' own size beside it (they are 2^20 times larger)."""
    return Mistake(
        "mismatch",
        "unrelated-array" if rerun_run else "array",
        name=name,
        **worst_entry(name, got, expected, THAT_RUN if rerun_run else WHOSE),
        size=f"{np.max(np.abs(expected)):.3g}",
    )


def _not_from_arrays(name: str, exact: float, got: float, rerun_run: bool) -> Mistake:
    mistake = figure_mistake("mismatch", "not-from-arrays", name, exact, got, rerun_run)
    mistake.fields["check"] = CHECKS[name]
    return mistake


def _honest_pooled_gaps(values: Values, perm: np.ndarray) -> list[float]:
    """Check 2 as honest code gets it from the learner's own outputs, in their dtype, by the sums a learner writes.

    Summing in the listed order (``out.sum(axis=0)``, ``sum(out)``, a loop:
    on a few tokens NumPy adds the rows one by one too), in the other order's
    listing, or exactly (``math.fsum``): any may be the learner's, and
    rounding makes them differ. The first is numpy's.
    """
    out_a, out_b = (np.asarray(values[name]) for name in ("out_a", "out_b"))
    if out_a.ndim == 3 and out_a.shape[0] == 1:
        out_a, out_b = out_a[0], out_b[0]
    listed = float(np.max(np.abs(out_b.sum(axis=-2) - out_a.sum(axis=-2))))
    relisted = float(np.max(np.abs(permute_tokens(out_b, np.argsort(perm)).sum(axis=-2) - out_a.sum(axis=-2))))
    exact_a = np.apply_along_axis(math.fsum, -2, out_a.astype(np.float64))
    exact_b = np.apply_along_axis(math.fsum, -2, out_b.astype(np.float64))
    return [listed, relisted, float(np.max(np.abs(exact_b - exact_a)))]


def _alike_cycles(pos: np.ndarray, perm: np.ndarray, roundoff: float) -> str:
    """The shuffle's cycles on which pos is the same at every slot, in words: "2 and 3, which it swaps"."""
    seen: set[int] = set()
    words = []
    for start in range(len(perm)):
        cycle = [start]
        while int(perm[cycle[-1]]) != start:
            cycle.append(int(perm[cycle[-1]]))
        if start in seen or len(cycle) < 2:
            seen.update(cycle)
            continue
        seen.update(cycle)
        if all(alike(pos[..., k, :], pos[..., cycle[0], :], roundoff) for k in cycle):
            slots = sorted(cycle)
            listed = f"{slots[0]} and {slots[1]}" if len(slots) == 2 else f"{', '.join(map(str, slots[:-1]))} and {slots[-1]}"
            words.append(f"slots {listed}, which the shuffle {'swaps' if len(slots) == 2 else 'moves round'}")
    return "; and ".join(words)


def judge(runs: Runs) -> Passed:
    _judge_run(runs.first, runs)
    values = runs.second(CHANGED)
    _judge_run(values, runs, runs.first)
    noise = head_precision(read_head(values, "X_a", ndim=(2, 3)), 0.0, dtype_roundoff(values, NAMES)).gap
    for name in ("relist_gap", "pooled_gap"):
        first, second = scalar(runs.first, name), scalar(values, name)
        if not follows_scaling(first, second, VALUE_SCALE, noise):
            raise Mistake("mismatch", "typed-noise", name=name, got=f"{first:.3g}", rerun=f"{second:.3g}", changed=CHANGED, check=CHECKS[name])
    return Passed()


def hypotheses(values: Values) -> Hypotheses:
    """What the outputs and the three checks are on one run's inputs, right and under each mistake the judge names.

    Checks 1 and 2 are rounding noise held to what the arrays give exactly
    (no tolerance: the same computation on arrays scaled by a power of two
    gives a figure scaled exactly); check 3 to the pooled tolerance.
    """
    head = read_head(values, "X_a", ndim=(2, 3))
    X, attend = head.X, head.attend
    perm = read_perm(values, head.tokens)[0]
    inverse = np.argsort(perm)
    pos = read_offset(values, X.shape, "X_a")
    roundoff = dtype_roundoff(values, NAMES)
    precision, with_pos = head_precision(head, 0.0, roundoff), head_precision(head, pos, roundoff)
    A, B = attend(X), attend(permute_tokens(X, perm))
    A_pos, B_pos = attend(X + pos), attend(permute_tokens(X, perm) + pos)
    no_position = gap(pooled_readout(B), pooled_readout(A))
    return Hypotheses.of(
        {
            "out_a": A,
            "out_b": B,
            "relist_gap": gap(B, permute_tokens(A, perm)),
            "pooled_gap": no_position,
            "pooled_gap_pos": gap(pooled_readout(B_pos), pooled_readout(A_pos)),
        },
        inverse_mistakes(
            perm,
            {
                "inverse-shuffle": {"out_b": attend(permute_tokens(X, inverse))},
                "unreordered": {"relist_gap": gap(B, A)},
                "inverse": {"relist_gap": gap(B, permute_tokens(A, inverse))},
                "axis": {"pooled_gap": gap(B.sum(axis=-1), A.sum(axis=-1))},
                "axis-pos": {"pooled_gap_pos": gap(B_pos.sum(axis=-1), A_pos.sum(axis=-1))},
                # pos added after attention, shuffled with the words, or never added: check 3 is check 2 again
                "position-unused": {"pooled_gap_pos": no_position},
            },
            ("inverse", "inverse-shuffle"),
        ),
        {
            "out_a": precision.array,
            "out_b": precision.array,
            "relist_gap": 0.0,
            "pooled_gap": 0.0,
            "pooled_gap_pos": with_pos.pooled_gap(head.tokens),
        },
    )


ORDER_CHECKS = Contract(
    names=NAMES,
    reruns=(Rerun({"Wv": "scaled(Wv)"}, CHANGED),),
    judge=judge,
    diagnoses=("wrong-comparison", "mismatch", "zero-offset", "same-offset", "added-after-attention", "moved-with-tokens"),
    hypotheses=hypotheses,
    typed=FIGURES,
    questions=(MOVED_WITH_TOKENS, ADDED_AFTER),
    described=DESCRIBED,
)
