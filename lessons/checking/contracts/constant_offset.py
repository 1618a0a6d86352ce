"""constant-offset: the same offset at every slot leaves the shuffle gap at rounding noise.

A right answer's figure is rounding noise, which a typed number can imitate.
So the rerun gives ``pos`` a per-slot signal: then the right computation's
gap is large and particular, and each wrong one gives a figure of its own
(offset after attention, never added, shuffled along with the tokens,
compared with the wrong rows).
"""

from __future__ import annotations

import numpy as np

from attnpos.core import permute_tokens
from attnpos.lessons.checking import rerun
from attnpos.lessons.checking.contracts.common import Contract, Runs, figure_mistake, first_reading, matching
from attnpos.lessons.checking.values import alike, dtype_roundoff, gap, head_precision, read_head, read_offset, read_perm, scalar
from attnpos.lessons.checking.verdicts import Mistake, Passed

NAMES = ("X", "Wq", "Wk", "Wv", "perm", "pos", "max_diff")
CHANGED = "`pos` set to an offset that differs from slot to slot"


def judge(runs: Runs) -> Passed:
    values = runs.first
    head = read_head(values)
    readings = read_perm(values, head.tokens)
    pos = read_offset(values, head.X.shape)
    max_diff = scalar(values, "max_diff")
    if np.all(pos == 0):
        raise Mistake("zero-offset", name="pos")
    roundoff = dtype_roundoff(values, NAMES)
    if not alike(pos, pos[..., :1, :], roundoff):
        raise Mistake("offset-varies", name="pos")
    precision = head_precision(head, pos, roundoff)

    def as_written(perm: np.ndarray) -> Passed:
        if not precision.is_noise(max_diff, precision.gap):
            shuffled = head.attend(permute_tokens(head.X, perm) + pos)
            in_order = head.attend(head.X + pos)
            cause = matching(max_diff, {
                "unreordered": gap(shuffled, in_order),
                "inverse": gap(shuffled, permute_tokens(in_order, np.argsort(perm))),
                "one-side": gap(shuffled, permute_tokens(head.attend(head.X), perm)),
                "other-side": gap(head.attend(permute_tokens(head.X, perm)), permute_tokens(in_order, perm)),
            }, precision, precision.gap)
            diagnosis = "wrong-comparison" if cause in ("unreordered", "inverse") else "mismatch"
            raise figure_mistake(diagnosis, cause or "figure", "max_diff", gap(shuffled, permute_tokens(in_order, perm)), max_diff)
        return Passed()

    try:
        first_reading(readings, as_written)
    except Mistake as first_mistake:
        # With a constant pos several mistakes give the same figure; the rerun's per-slot pos tells them apart.
        try:
            _rerun(runs)
        except Mistake as named:
            if named.diagnosis != "rerun-failed" and named.cause != "unrelated":
                raise named from None
        raise first_mistake from None
    return _rerun(runs)


def _rerun(runs: Runs) -> Passed:
    """With a per-slot pos, only the right computation gives the right, large gap."""
    values = runs.second(CHANGED)
    head = read_head(values)
    readings = read_perm(values, head.tokens)
    pos = read_offset(values, head.X.shape)
    max_diff = scalar(values, "max_diff")
    if alike(pos, pos[..., :1, :], dtype_roundoff(values, NAMES)):
        raise Mistake("rerun-failed", changed=CHANGED, failure="the script sets pos again after using it")
    precision = head_precision(head, pos, dtype_roundoff(values, NAMES))
    first_diff = scalar(runs.first, "max_diff")

    def rerun_with(perm: np.ndarray) -> Passed:
        X, attend = head.X, head.attend
        shuffled = attend(permute_tokens(X, perm) + pos)
        in_order = attend(X + pos)
        right = gap(shuffled, permute_tokens(in_order, perm))
        cause = matching(max_diff, {
            "right": right,
            "after": gap(attend(permute_tokens(X, perm)) + pos, permute_tokens(attend(X) + pos, perm)),
            "unreordered": gap(shuffled, in_order),
            "inverse": gap(shuffled, permute_tokens(in_order, np.argsort(perm))),
            "one-side": gap(shuffled, permute_tokens(attend(X), perm)),
            "other-side": gap(attend(permute_tokens(X, perm)), permute_tokens(in_order, perm)),
        }, precision, precision.gap)
        if cause == "right":
            return Passed()
        if cause == "after":
            raise Mistake("added-after-attention", name="max_diff")
        if cause in ("unreordered", "inverse"):
            raise figure_mistake("wrong-comparison", cause, "max_diff", right, max_diff)
        if cause is not None:
            raise figure_mistake("mismatch", cause, "max_diff", right, max_diff)
        if precision.is_noise(max_diff, precision.gap):  # pos changed nothing the figure can see
            if rerun.indexes_by(runs.source, "pos", "perm"):
                raise Mistake("moved-with-tokens", name="pos")
            if not rerun.typed_in(runs.source, "max_diff") and not rerun.reaches_attention(runs.source, "pos"):
                raise Mistake("mismatch", "never-added", name="max_diff")
        if max_diff == first_diff or rerun.typed_in(runs.source, "max_diff"):
            raise figure_mistake("mismatch", "typed", "max_diff", right, max_diff)
        raise figure_mistake("mismatch", "unrelated", "max_diff", right, max_diff)

    return first_reading(readings, rerun_with)


CONSTANT_OFFSET = Contract(
    names=NAMES,
    replacements={"pos": "varying_offset(pos, X)"},
    changed=CHANGED,
    judge=judge,
    diagnoses=("zero-offset", "offset-varies", "wrong-comparison", "added-after-attention", "moved-with-tokens", "mismatch"),
)
