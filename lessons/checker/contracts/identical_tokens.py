"""identical-tokens: a per-slot signal, added before attention, tells two copies of a token apart.

Two reruns. The first gives slot 4 slot 0's offset: with equal tokens and
equal offsets rows 0 and 4 must come out equal, so ``out`` must follow ``pos``
(not a private ramp) and ``identical`` must turn True (not a typed False, not
rows 1 and 5). It cannot tell a verdict read off the offsets
(``np.allclose(pos[0], pos[4])``) from the right one: both turn True. So the
second sets ``Wq`` to zeros: every score is 0, every token weighs all
tokens alike, and every output row is the same (bit for bit: the same
weights on the same values), while the offsets of the two slots still
differ. (Zeroing ``Wv`` would do it too, but outputs of zeros turn a
learner's cosine similarity into NaN.)
"""

from __future__ import annotations

import numpy as np

from attnpos.core.permutation import TWIN_SLOTS
from attnpos.lessons.checker.contracts.common import THAT_RUN, WHOSE, Contract, Question, Rerun, Runs, close, worst_entry
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.values import (
    Head,
    Precision,
    Values,
    alike,
    boolean,
    dtype_roundoff,
    gap,
    head_precision,
    integer_offset,
    read_head,
    read_offset,
    read_output,
)
from attnpos.lessons.checker.verdicts import INDISTINCT, Mistake, Passed, shape_text

NAMES = ("X", "Wq", "Wk", "Wv", "pos", "out", "identical")
CHANGED = f"slot {TWIN_SLOTS[1]} given the same offset as slot {TWIN_SLOTS[0]}, so that rows {TWIN_SLOTS[0]} and {TWIN_SLOTS[1]} are equal"
TYPED = Question("typed_in", ("identical",))  # a typed verdict, not one read from pos
ZEROED = (
    f"`Wq` set to zeros, so that every token weighs all tokens alike and every output row is the same, rows {TWIN_SLOTS[0]} "
    f"and {TWIN_SLOTS[1]} included, while their offsets still differ"
)
A, B = TWIN_SLOTS
DESCRIBED = {
    "after": "pos added after attention",
    "never-added": "pos never added",
    "from-pos": "identical read off the offsets instead of out",
    "typed-identical": "an identical typed in",
    "typed-out": "an out from other arrays",
    "wrong-rows": "rows 1 and 5 compared",
    "stale-pos": "out computed from a copy of pos",
    "stale-Wq": "out computed from a copy of Wq",
}


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


def _check_out(head: Head, pos: np.ndarray, out: np.ndarray, precision: Precision, rerun: bool = False, changed: str = "") -> None:
    expected = head.attend(head.X + pos)
    if close(out, expected, precision.array):
        return
    after = _added_after(head, pos)
    if after is not None and close(out, after, precision.array):
        raise Mistake("added-after-attention", name="out")
    if close(out, head.attend(head.X), precision.array):
        raise Mistake("mismatch", "never-added", name="out")
    unscaled = head.unscaled_mistake("out", out, head.X + pos, precision.array)
    if unscaled is not None:
        raise unscaled
    where = {"changed": changed} if changed else {}
    raise Mistake("mismatch", "unrelated-out" if rerun else "out", name="out", **worst_entry("out", out, expected, THAT_RUN if rerun else WHOSE), **where)


def _added_after(head: Head, pos: np.ndarray) -> np.ndarray | None:
    """attention(X) + pos, where the head's output is as wide as pos (a narrower value head cannot have pos added after it)."""
    bare = head.attend(head.X)
    return bare + pos if bare.shape[-1] == pos.shape[-1] else None


def judge(runs: Runs) -> Passed:
    head, pos, out, identical, precision = _read(runs.first)
    if np.all(pos == 0):
        integer = integer_offset(runs.first)
        raise Mistake("zero-offset", "integer" if integer else "", name="pos", **integer)
    if alike(pos[..., A, :], pos[..., B, :], precision.roundoff):
        integer = integer_offset(runs.first)
        raise Mistake("same-offset", "integer" if integer else "twins", name="pos", **integer)
    _check_out(head, pos, out, precision)
    readings = _twin_rows_equal(out, precision)
    if identical and not any(readings) and np.allclose(out[..., A, :], out[..., B, :]):
        # The hint's np.allclose (rtol 1e-5, atol 1e-8) calls rows equal that differ by more than rounding (a softmax
        # near saturation, a tiny Wv): this True is what a typed True gives on every run, so no pass, and no wrong verdict.
        raise Mistake(INDISTINCT, "allclose", got=f"{gap(out[..., A, :], out[..., B, :]):.3g}")
    if identical not in readings:
        raise Mistake("wrong-verdict", name="identical", got=str(identical), truth=str(not identical))

    for changed in (CHANGED, ZEROED):
        head, pos, out, rerun_identical, precision = _read(runs.second(changed))
        _check_out(head, pos, out, precision, rerun=True, changed=changed)
        if rerun_identical not in _twin_rows_equal(out, precision):
            from_pos = alike(pos[..., A, :], pos[..., B, :], precision.roundoff)
            if not runs.says(TYPED) and rerun_identical == from_pos:
                raise Mistake("mismatch", "from-pos", name="identical", got=str(rerun_identical), changed=changed)
            raise Mistake("mismatch", "typed-verdict", name="identical", got=str(rerun_identical), changed=changed)
    return Passed()


def hypotheses(values: Values) -> Hypotheses:
    """What out and identical are on one run's inputs, right and under each mistake the judge names."""
    head = read_head(values)
    pos = read_offset(values, head.X.shape)
    precision = head_precision(head, pos, dtype_roundoff(values, NAMES))

    def rows_equal(out: np.ndarray) -> bool:
        return gap(out[..., A, :], out[..., B, :]) <= precision.gap

    right, after, bare = head.attend(head.X + pos), _added_after(head, pos), head.attend(head.X)
    wrong: dict[str, dict[str, Figure]] = {} if after is None else {"after": {"out": after, "identical": rows_equal(after)}}
    if head.tokens > B + 1:  # the next pair of slots, one off
        wrong["wrong-rows"] = {"identical": gap(right[..., A + 1, :], right[..., B + 1, :]) <= precision.gap}
    return Hypotheses.of(
        {"out": right, "identical": rows_equal(right)},
        {
            **wrong,
            "never-added": {"out": bare, "identical": rows_equal(bare)},
            "from-pos": {"identical": alike(pos[..., A, :], pos[..., B, :], precision.roundoff)},
        },
        {"out": precision.array, "identical": 0.0},
    )


IDENTICAL_TOKENS = Contract(
    names=NAMES,
    reruns=(Rerun({"pos": "twins_alike(pos, X)"}, CHANGED), Rerun({"Wq": "zeroed(Wq)"}, ZEROED)),
    judge=judge,
    diagnoses=("tokens-differ", "zero-offset", "same-offset", "added-after-attention", "mismatch", "wrong-verdict"),
    hypotheses=hypotheses,
    typed=("identical", "out"),
    questions=(TYPED,),
    described=DESCRIBED,
    told_by_source={
        # Both say False on every run (the offsets of slots 0 and 4 differ on both): the syntax says which (TYPED).
        frozenset(("from-pos", "typed-identical")): "identical assigned a value computed from nothing",
    },
)
