"""identical-tokens: a per-slot signal, added before attention, tells two copies of a token apart.

The rerun gives the second copy's slot the first copy's offset: with equal
tokens and equal offsets the two output rows must be equal, so ``out`` and
``identical`` must change with it; a typed verdict does not.
"""

from __future__ import annotations

import numpy as np

from attnpos.core.experiments import TWIN_SLOTS
from attnpos.lessons.checking.contracts.common import Contract, Runs, close
from attnpos.lessons.checking.values import (
    Head,
    Precision,
    Values,
    alike,
    boolean,
    dtype_roundoff,
    gap,
    head_precision,
    read_head,
    read_offset,
    read_output,
)
from attnpos.lessons.checking.verdicts import Mistake, Passed, shape_text

NAMES = ("X", "Wq", "Wk", "Wv", "pos", "out", "identical")
CHANGED = f"slot {TWIN_SLOTS[1]} given the same offset as slot {TWIN_SLOTS[0]}"
A, B = TWIN_SLOTS


def _read(values: Values) -> tuple[Head, np.ndarray, np.ndarray, bool, Precision]:
    head = read_head(values)
    if head.tokens <= B:
        raise Mistake("bad-shape", "twin-slots", name="X", shape=shape_text(head.X.shape), a=A, b=B, tokens=B + 1)
    if not np.array_equal(head.X[..., A, :], head.X[..., B, :]):
        raise Mistake("tokens-differ", name="X")
    pos = read_offset(values, head.X.shape)
    out = read_output(values, "out", head.attend(head.X).shape)
    return head, pos, out, boolean(values, "identical"), head_precision(head, pos, dtype_roundoff(values, NAMES))


def _twin_rows_equal(out: np.ndarray, precision: Precision) -> tuple[bool, ...]:
    """What an honest `identical` may say of these rows: exactly equal, or equal up to rounding (np.allclose)."""
    difference = gap(out[..., A, :], out[..., B, :])
    return difference == 0, difference <= precision.gap


def _check_out(head: Head, pos: np.ndarray, out: np.ndarray, precision: Precision, rerun: bool = False) -> None:
    expected = head.attend(head.X + pos)
    if close(out, expected, precision.array):
        return
    if close(out, head.attend(head.X) + pos, precision.array):
        raise Mistake("added-after-attention", name="out")
    if close(out, head.attend(head.X), precision.array):
        raise Mistake("mismatch", "never-added", name="out")
    raise Mistake("mismatch", "unrelated-out" if rerun else "out", name="out", got=f"{gap(out, expected):.3g}")


def judge(runs: Runs) -> Passed:
    head, pos, out, identical, precision = _read(runs.first)
    if np.all(pos == 0):
        raise Mistake("zero-offset", name="pos")
    if alike(pos[..., A, :], pos[..., B, :], precision.roundoff):
        raise Mistake("same-offset", "twins", name="pos")
    _check_out(head, pos, out, precision)
    readings = _twin_rows_equal(out, precision)
    if identical not in readings:
        raise Mistake("wrong-verdict", name="identical", got=str(identical), truth=str(not identical))
    saturated = readings[1]  # different offsets, yet the rows agree: the softmax put all weight on one slot

    values = runs.second(CHANGED)
    head, pos, out, rerun_identical, precision = _read(values)
    _check_out(head, pos, out, precision, rerun=True)
    if rerun_identical not in _twin_rows_equal(out, precision):
        raise Mistake("mismatch", "typed-verdict", name="identical", got=str(rerun_identical), changed=CHANGED)
    return Passed("saturated" if saturated else "")


IDENTICAL_TOKENS = Contract(
    names=NAMES,
    replacements={"pos": "twins_alike(pos, X)"},
    changed=CHANGED,
    judge=judge,
    diagnoses=("tokens-differ", "zero-offset", "same-offset", "added-after-attention", "mismatch", "wrong-verdict"),
)
