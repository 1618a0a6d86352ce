"""order-checks: relisting and pooling cannot tell two orders apart; a per-slot signal can.

Checks 1 and 2 are rounding noise for any inputs, so the rerun scales ``Wv``
by a power of two: honest noise scales with it, a typed figure does not, and
check 3 must then give the scaled figure the arrays give.
"""

from __future__ import annotations

import numpy as np

from attnpos.core import permute_tokens, pooled_readout
from attnpos.lessons.checking import rerun
from attnpos.lessons.checking.contracts.common import (
    Contract,
    Runs,
    close,
    figure_mistake,
    first_reading,
    follows_scaling,
    matching,
)
from attnpos.lessons.checking.substitutes import VALUE_SCALE
from attnpos.lessons.checking.values import Values, alike, dtype_roundoff, gap, head_precision, read_head, read_offset, read_output, read_perm, scalar
from attnpos.lessons.checking.verdicts import Mistake, Passed

NAMES = ("X_a", "Wq", "Wk", "Wv", "perm", "out_a", "out_b", "relist_gap", "pooled_gap", "pos", "pooled_gap_pos")
FIGURES = ("relist_gap", "pooled_gap", "pooled_gap_pos")
CHANGED = f"`Wv` multiplied by 2^{int(np.log2(VALUE_SCALE))}"
CHECKS = {"relist_gap": "check 1", "pooled_gap": "check 2", "pooled_gap_pos": "check 3"}


def _judge_run(values: Values, source: str, first: Values | None = None) -> Passed:
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
            raise Mistake("mismatch", "array", name="out_a", got=f"{gap(out_a, A):.3g}")
        if not close(out_b, B, precision.array):
            if close(out_b, attend(permute_tokens(X, inverse)), precision.array):
                raise Mistake("wrong-comparison", "inverse-shuffle", name="out_b")
            raise Mistake("mismatch", "array", name="out_b", got=f"{gap(out_b, B):.3g}")
        if not precision.is_noise(relist_gap, precision.gap):
            cause = matching(relist_gap, {"unreordered": gap(B, A), "inverse": gap(B, permute_tokens(A, inverse))}, precision, precision.gap)
            raise figure_mistake("wrong-comparison" if cause else "mismatch", cause or "figure", "relist_gap", gap(B, permute_tokens(A, perm)), relist_gap)
        pooled_noise = precision.pooled_gap(T)
        if not precision.is_noise(pooled_gap, pooled_noise):
            cause = matching(pooled_gap, {"axis": gap(B.sum(axis=-1), A.sum(axis=-1))}, precision, pooled_noise)
            right = gap(pooled_readout(B), pooled_readout(A))
            raise figure_mistake("wrong-comparison" if cause else "mismatch", cause or "figure", "pooled_gap", right, pooled_gap)

        if np.all(pos == 0):
            raise Mistake("zero-offset", name="pos")
        if alike(pos, pos[..., :1, :], roundoff):
            raise Mistake("same-offset", "constant", name="pos")
        B_pos, A_pos = attend(permute_tokens(X, perm) + pos), attend(X + pos)
        right = gap(pooled_readout(B_pos), pooled_readout(A_pos))
        tolerance = with_pos.pooled_gap(T)
        if with_pos.is_noise(right, tolerance):
            raise Mistake("same-offset", "exchanged", name="pos", slots=_alike_cycles(pos, perm, roundoff))
        cause = matching(pooled_gap_pos, {
            "right": right, "axis": gap(B_pos.sum(axis=-1), A_pos.sum(axis=-1)),
        }, with_pos, tolerance)
        if cause == "right":
            return Passed()
        if cause == "axis":
            raise figure_mistake("wrong-comparison", "axis", "pooled_gap_pos", right, pooled_gap_pos)
        if with_pos.is_noise(pooled_gap_pos, tolerance):
            # Added after attention, shuffled along with the tokens, or never added: every one sums to check 2.
            if rerun.indexes_by(source, "pos", "perm"):
                raise Mistake("moved-with-tokens", name="pos")
            if rerun.added_to_outputs(source, "pos", ("out_a", "out_b")):
                raise Mistake("added-after-attention", name="pooled_gap_pos")
            raise Mistake("mismatch", "undone", name="pooled_gap_pos", check=CHECKS["pooled_gap_pos"])
        if first is not None and pooled_gap_pos == scalar(first, "pooled_gap_pos"):
            raise figure_mistake("mismatch", "typed", "pooled_gap_pos", right, pooled_gap_pos)
        raise figure_mistake("mismatch", "figure", "pooled_gap_pos", right, pooled_gap_pos)

    return first_reading(readings, with_perm)


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
    return "; and ".join(words) if words else "the slots the shuffle moves, each word landing on the offset it left"


def judge(runs: Runs) -> Passed:
    _judge_run(runs.first, runs.source)
    values = runs.second(CHANGED)
    _judge_run(values, runs.source, runs.first)
    noise = head_precision(read_head(values, "X_a", ndim=(2, 3)), 0.0, dtype_roundoff(values, NAMES)).gap
    for name in ("relist_gap", "pooled_gap"):
        first, second = scalar(runs.first, name), scalar(values, name)
        if not follows_scaling(first, second, VALUE_SCALE, noise):
            raise Mistake("mismatch", "typed-noise", name=name, got=f"{first:.3g}", rerun=f"{second:.3g}", changed=CHANGED, check=CHECKS[name])
    return Passed()


ORDER_CHECKS = Contract(
    names=NAMES,
    replacements={"Wv": "scaled(Wv)"},
    changed=CHANGED,
    judge=judge,
    diagnoses=("wrong-comparison", "mismatch", "zero-offset", "same-offset", "added-after-attention", "moved-with-tokens"),
)
