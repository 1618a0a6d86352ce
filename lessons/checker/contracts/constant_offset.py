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
from attnpos.lessons.checker.contracts.common import Contract, Question, Rerun, Runs, figure_mistake, first_reading, matching
from attnpos.lessons.checker.separation import RIGHT, Hypotheses, inverse_mistakes
from attnpos.lessons.checker.values import (
    Precision,
    Values,
    alike,
    dtype_roundoff,
    gap,
    head_precision,
    integer_offset,
    read_head,
    read_offset,
    read_perm,
    scalar,
)
from attnpos.lessons.checker.verdicts import Mistake, Passed

NAMES = ("X", "Wq", "Wk", "Wv", "perm", "pos", "max_diff")
CHANGED = "`pos` set to an offset that differs from slot to slot and `perm` moving every token one slot on"


# What the source says where the figures cannot: the offset shuffled with the tokens, max_diff typed in, pos never reaching attention.
MOVED_WITH_TOKENS = Question("indexes_by", ("pos", "perm"))
TYPED = Question("typed_in", ("max_diff",))
REACHES_ATTENTION = Question("reaches_attention", ("pos",))


def judge(runs: Runs) -> Passed:
    values = runs.first
    head = read_head(values)
    readings = read_perm(values, head.tokens)
    pos = read_offset(values, head.X.shape)
    max_diff = scalar(values, "max_diff")
    if np.all(pos == 0):
        integer = integer_offset(runs.first)
        raise Mistake("zero-offset", "integer" if integer else "", name="pos", **integer)
    roundoff = dtype_roundoff(values, NAMES)
    if not alike(pos, pos[..., :1, :], roundoff):
        perm = readings[0]
        if alike(pos, permute_tokens(pos, perm), roundoff):  # it varies only where the shuffle leaves it alike: the gap did not grow
            raise Mistake("offset-varies", "unseen", name="pos", slots=_odd_slots(pos, roundoff))
        raise Mistake("offset-varies", name="pos")
    precision = head_precision(head, pos, roundoff)

    def as_written(perm: np.ndarray) -> Passed:
        if not precision.is_noise(max_diff, precision.gap):
            shuffled = head.attend(permute_tokens(head.X, perm) + pos)
            in_order = head.attend(head.X + pos)
            cause = matching(
                max_diff,
                {
                    "unreordered": gap(shuffled, in_order),
                    "inverse": gap(shuffled, permute_tokens(in_order, np.argsort(perm))),
                    "one-side": gap(shuffled, permute_tokens(head.attend(head.X), perm)),
                    "other-side": gap(head.attend(permute_tokens(head.X, perm)), permute_tokens(in_order, perm)),
                },
                precision,
                precision.gap,
            )
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
                if named.diagnosis == first_mistake.diagnosis and "got" in first_mistake.fields:
                    # The rerun names the cause; the learner's own figures show it (theirs, not the rerun's).
                    for field in ("got", "expected", "yours", "run"):
                        named.fields[field] = first_mistake.fields[field]
                raise named from None
        raise first_mistake from None
    return _rerun(runs)


def _odd_slots(pos: np.ndarray, roundoff: float) -> str:
    """The slots whose offset differs from the one most slots share, in words: "4", "2 and 5"."""
    T = pos.shape[-2]
    rows = [pos[..., k, :] for k in range(T)]
    shared = max(range(T), key=lambda k: sum(alike(rows[k], other, roundoff) for other in rows))
    odd = [str(k) for k in range(T) if not alike(rows[k], rows[shared], roundoff)]
    return f"slot {odd[0]}" if len(odd) == 1 else f"slots {', '.join(odd[:-1])} and {odd[-1]}"


def _rerun(runs: Runs) -> Passed:
    """With a per-slot pos (and another shuffle), only the right computation gives the right, large gap."""
    values = runs.second(CHANGED)
    head = read_head(values)
    readings = read_perm(values, head.tokens)
    pos = read_offset(values, head.X.shape)
    max_diff = scalar(values, "max_diff")
    if alike(pos, pos[..., :1, :], dtype_roundoff(values, NAMES)):
        raise Mistake("rerun-failed", changed=CHANGED, failure="the script sets pos again after using it")
    first_diff = scalar(runs.first, "max_diff")

    def rerun_with(perm: np.ndarray) -> Passed:
        figures = {name: float(f["max_diff"]) for name, f in _hypotheses(values, perm).figures.items()}  # every max_diff is a float
        right = figures[RIGHT]
        cause = matching(max_diff, figures, *_precision(values))
        if cause == RIGHT:
            return Passed()
        if cause == "after":
            raise Mistake("added-after-attention", name="max_diff")
        if cause in ("unreordered", "inverse"):
            raise figure_mistake("wrong-comparison", cause, "max_diff", right, max_diff, rerun=True)
        if cause in ("one-side", "other-side", "signed"):
            raise figure_mistake("mismatch", cause, "max_diff", right, max_diff, rerun=True)
        if cause is not None or _precision(values)[0].is_noise(max_diff, _precision(values)[1]):  # pos changed nothing the figure can see
            if runs.says(MOVED_WITH_TOKENS):
                raise Mistake("moved-with-tokens", name="pos")
            if not runs.says(TYPED) and not runs.says(REACHES_ATTENTION):
                raise Mistake("mismatch", "never-added", name="max_diff")
        if max_diff == first_diff or runs.says(TYPED):
            raise figure_mistake("mismatch", "typed", "max_diff", right, max_diff, rerun=True)
        raise figure_mistake("mismatch", "unrelated", "max_diff", right, max_diff, rerun=True)

    return first_reading(readings, rerun_with)


def _precision(values: Values) -> tuple[Precision, float]:
    head = read_head(values)
    precision = head_precision(head, read_offset(values, head.X.shape), dtype_roundoff(values, NAMES))
    return precision, precision.gap


def hypotheses(values: Values) -> Hypotheses:
    """What max_diff is on one run's inputs, right and under each mistake the judge names (in the order it tries them)."""
    return _hypotheses(values, read_perm(values, read_head(values).tokens)[0])


def _hypotheses(values: Values, perm: np.ndarray) -> Hypotheses:
    head = read_head(values)
    pos = read_offset(values, head.X.shape)
    X, attend = head.X, head.attend
    shuffled, in_order = attend(permute_tokens(X, perm) + pos), attend(X + pos)
    return Hypotheses.of(
        {"max_diff": gap(shuffled, permute_tokens(in_order, perm))},
        inverse_mistakes(
            perm,
            {
                "after": {"max_diff": gap(attend(permute_tokens(X, perm)) + pos, permute_tokens(attend(X) + pos, perm))},
                "unreordered": {"max_diff": gap(shuffled, in_order)},
                "inverse": {"max_diff": gap(shuffled, permute_tokens(in_order, np.argsort(perm)))},
                "one-side": {"max_diff": gap(shuffled, permute_tokens(attend(X), perm))},
                "other-side": {"max_diff": gap(attend(permute_tokens(X, perm)), permute_tokens(in_order, perm))},
                "signed": {"max_diff": float(np.max(shuffled - permute_tokens(in_order, perm)))},
                "never-added": {"max_diff": gap(attend(permute_tokens(X, perm)), permute_tokens(attend(X), perm))},
                "moved-with-tokens": {"max_diff": gap(attend(permute_tokens(X + pos, perm)), permute_tokens(in_order, perm))},
            },
            ("inverse",),
        ),
        {"max_diff": _precision(values)[1]},
    )


CONSTANT_OFFSET = Contract(
    names=NAMES,
    reruns=(Rerun({"pos": "varying_offset(pos, X)", "perm": "shifted(perm)"}, CHANGED),),
    judge=judge,
    diagnoses=("zero-offset", "offset-varies", "wrong-comparison", "added-after-attention", "moved-with-tokens", "mismatch"),
    hypotheses=hypotheses,
    typed=("max_diff",),
    questions=(MOVED_WITH_TOKENS, TYPED, REACHES_ATTENTION),
    # stale-perm: the gap computed with the learner's own shuffle rather than the rerun's. Under a varying offset the
    # two gaps meet wherever the largest entry sits in a slot both shuffles fill alike (1 float32 answer in 80, found
    # by tests/checker/test_checker.py's property); it followed pos, and any shuffle is a right one to compare by.
    seen_only=frozenset({"signed", "stale-perm"}),
    described={
        "after": "pos added after attention",
        "unreordered": "the original run left unreordered",
        "inverse": "the original run reordered by the inverse of perm",
        "one-side": "pos added to the shuffled run only",
        "other-side": "pos added to the original run only",
        "never-added": "pos never added",
        "moved-with-tokens": "pos shuffled along with the tokens",
        "typed-max_diff": "a max_diff typed in",
        "stale-pos": "a copy of pos made before the checker changed it",
        "signed": "the largest signed difference, without abs",
    },
    told_by_source={
        # Each leaves max_diff at rounding noise on every run: the syntax says which (the questions below).
        frozenset(("never-added", "moved-with-tokens")): "`(X + pos)[:, perm]` in the source",
        frozenset(("never-added", "typed-max_diff")): "max_diff assigned a value computed from nothing, and pos reaching attention",
        frozenset(("moved-with-tokens", "typed-max_diff")): "`(X + pos)[:, perm]` in the source",
        # A private copy of the constant offset: noise on every run too; every one of these is a mismatch but moved-with-tokens.
        frozenset(("stale-pos", "never-added")): "pos itself reaching attention (both are mismatch)",
        frozenset(("stale-pos", "typed-max_diff")): "max_diff computed from a value (both are mismatch)",
        frozenset(("stale-pos", "moved-with-tokens")): "`(X + pos)[:, perm]` in the source",
    },
)
