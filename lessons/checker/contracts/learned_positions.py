"""learned-positions: x = wte[ids] + wpe[:T], the table's gradient for a batch, and an error past max_len.

The first rerun gives ``ids`` and ``grad_out`` other values, one sequence more and both tables four channels
more (a batch size or a width typed in does not follow): the right x and
gradient change with them, each misconception (the table indexed by
token id, positions from 1, every row scattered, the batch averaged or cut
to one sequence) gives arrays of its own, and numbers typed in do not change.
``too_long`` is what ``add_positions`` returned for max_len + 2 tokens:
empty when it refused, as it must, with a ``raise`` of the script's own (a
``wpe[:T]`` that fails to broadcast is NumPy refusing, not a length check).
The first rerun also wraps ``add_positions`` to note which raise refused and
what it said: one of the script's own, whose message speaks of the length
(a ``raise`` that never runs, or one that says only "bad input" or blames
the vocabulary, does not) without calling the sequence short, and calls it
once more with other tables, which its answer must follow (a function
reading the script's own ``wte`` and ``wpe`` does not), and with the refused ids and a one-row table,
which it must refuse too (NumPy's broadcast error raised again does not).
The second rerun gives it exactly max_len tokens, which it must answer: a
check written ``T >= max_len`` refuses them. It also makes ``max_len``,
so the table, three larger: a check against the starter's 8 typed in
refuses those 11 tokens too. The third makes the table two rows shorter than
``max_len`` and ``long_ids`` one token longer than it: the smallest sequence
that must be refused, by a check of the table passed in (one of the global
max_len lets NumPy refuse it), with a message that quotes, if any, that
run's numbers (the starter's 10 and 8 typed in, in figures or words, do not
fit), and a ``grad_wpe`` of that table's shape, not the global max_len's. In every run
that refused, a number the message counts ("4 rows", "1 tokens") must be
that run's own count of it: the table's rows, the sequence's tokens.
A fourth rerun goes past the first's sizes (two sequences more, each as long as
the table, three rows and eight channels more), so that a cap typed in just
above them, or a gradient that drops the table's last row, does not follow; x
and grad_wpe are judged on every rerun, by that run's own figures.
"""

from __future__ import annotations

import re

import numpy as np

from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_ONLY,
    THAT_RUN,
    Contract,
    Question,
    Rerun,
    Runs,
    StarterSizes,
    refuse_borrowing,
    sized_for_the_first_run,
    sized_for_the_starter,
    worst_entry,
)
from attnpos.lessons.checker.contracts.table_reading import close, read_ids, read_shaped, read_table, tolerance
from attnpos.lessons.checker.separation import Hypotheses
from attnpos.lessons.checker.substitutes import (
    CHECK_AFTER,
    NARROW_TABLE,
    ONE_ROW,
    ONE_SEQUENCE,
    OTHER_LENGTH,
    OTHER_LENGTH_SIZES,
    OWN_TABLES,
    REFUSAL,
    TABLE_SHIFTS,
    WIDE_ROWS,
    WIDE_TABLE,
    WIDE_TABLE_REFUSAL,
    WIDE_TOKENS,
)
from attnpos.lessons.checker.values import SAFETY, Values, dtype_roundoff, real_array
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text
from attnpos.lessons.sandbox import printable

NAMES = ("wte", "wpe", "ids", "grad_out", "x", "grad_wpe", "long_ids", "too_long")
BORROWS = NUMPY_ONLY
TRIES_LONG = Question("calls_with", ("long_ids",))  # add_positions(long_ids, …) was at least called
RAISES = Question("raises", ())  # a refusal of the script's own, not NumPy's broadcast or index error
# a length compared with the table's plus or minus a number (`T > wpe.shape[0] + 1`): what let one token past it through
OFF_BY_NUMBER = Question("compares_shape_plus_number", ())
OR_EQUAL = Question("compares_or_equal", ())  # a `>=` (or `<=`) somewhere: what refused max_len tokens, rather than a length typed in
CHANGED = (
    "`ids` replaced by other ids (one token longer, or shorter at the table's end, and one sequence more), `C` four channels more "
    "(so both tables, built from it) and `grad_out` by other gradients to match"
)
FULL_LENGTH = "`max_len` three larger (so the table, built from it) and `long_ids` cut to exactly as many tokens as wpe has rows"
ONE_PAST = "`wpe` two rows shorter than `max_len` says (so that max_len is not its length) and `long_ids` one token longer than that table, in three sequences"
# A rerun well past the first's sizes, so that a cap typed in just above them (B 4, T 6, C 8) does not follow, and with
# sequences as long as the table, so that its last row is one the tokens use; and with more symbols than rows, so that
# ids past the table's last row are looked up (a lookup modulo the table, or a check that refuses such ids, shows).
LARGER = (
    "`ids` replaced by a larger batch (two sequences more, each exactly as long as the table), `V` more than four times the table's rows "
    "(so wte, and ids past wpe's last row), `max_len` three larger and `C` eight channels more "
    "(so the tables, built from them) and `grad_out` by other gradients to match"
)
# Numbers written out in words ("ten tokens", "an eight-row table"): typed in as surely as figures. From two on: "one"
# is as often a pronoun ("the last one") as a count, and a refusal may always quote 1.
NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(), start=2
    )
}
_NUMBER = r"(?<![\w.])\d+(?![\w.]|-[a-z]\b)|\b(?:" + "|".join(NUMBER_WORDS) + r")\b"
# A whole number in a refusal's message ("10 tokens", "T=10 > max_len=8", "ten tokens"), not part of a word or of a
# decimal, nor of a name such as "2-D" (a number of dimensions, no size: "an 8-row table" is still one).
QUOTED_NUMBER = re.compile(_NUMBER, re.IGNORECASE)


def _value(number: str) -> int:
    """A number as a refusal quotes it, in figures or in words."""
    return int(number) if number.isdigit() else NUMBER_WORDS[number.lower()]


def _in_words(number: str) -> str:
    """What a message about ``number`` adds when it was written in words."""
    return "" if number.isdigit() else " (a number written out in words is typed in as surely as a figure: it stays as it is when the sizes change)"


# The starter's sizes; its own lines set these names, so a 3, 5, 8 or 4 elsewhere is a size typed in.
SIZES = StarterSizes(
    {3: "B", 5: "T", 8: "max_len", 4: "C"}, ("rng", "V", "C", "max_len", "wte", "wpe", "ids", "grad_out", "long_ids", "too_long"), {"ids": ("B", "T")}
)
TYPES_MAX_LEN = Question("types_number", ("8", SIZES.kept))  # the starter's max_len written in the script's own lines
# A script that draws arrays of its own (the starter's seed again) rather than using the given ones.
REDRAWS = Question("draws_random", (SIZES.kept,))


def _forward(values: Values, first: Values | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    wte, wpe = read_table(values, "wte"), read_table(values, "wpe")
    (V, C), max_len = wte.shape, wpe.shape[0]
    if wpe.shape[1] != C:
        raise Mistake("bad-shape", "array-shape", name="wpe", shape=shape_text(wpe.shape), wanted=shape_text((max_len, C)))
    ids = read_ids(values, "ids", V)
    B, T = ids.shape
    if T > max_len:
        raise Mistake("bad-shape", "whole-range", name="ids", value=T, low=1, high=max_len)
    roundoff = dtype_roundoff(values, NAMES)
    x = read_shaped(values, "x", (B, T, C))
    tol = tolerance(roundoff, 2, float(np.max(np.abs(wte))) + float(np.max(np.abs(wpe))))
    tokens = wte[ids]  # (B, T, C)
    if close(x, tokens + wpe[:T], tol):
        return wpe, ids, tokens, roundoff
    if first is not None and np.array_equal(values["x"], first["x"]):
        raise Mistake("mismatch", "typed", name="x")
    if ids.max() < max_len and close(x, tokens + wpe[ids], tol):
        raise Mistake("by-token-id", name="x")
    if T < max_len and close(x, tokens + wpe[1 : T + 1], tol):
        raise Mistake("off-by-one", name="x")
    raise Mistake("mismatch", "unrelated" if first is not None else "", name="x", **worst_entry("x", x, tokens + wpe[:T]))


def _no_length_check(runs: Runs, max_len: int) -> Mistake:
    """No raise of the script's own: NumPy refused the 10 tokens. Which of its errors did, from the first rerun's note, so the message tells that one."""
    index = runs.changed.index(CHANGED)
    rerun = runs.reruns[index] if index < len(runs.reruns) else None
    note = rerun.get(REFUSAL) if rerun is not None else None
    if rerun is not None and note is None:  # no error came out of add_positions at all: an empty answer, not a refusal
        return Mistake("length-check", "returned-empty", name="too_long", max_len=max_len)
    said = _said(note) if note is not None and note.size else ""
    if note is not None and note.size and note[0] and said.startswith("AssertionError"):
        return Mistake("length-check", "assert", name="too_long", said=said)  # an assert of its own, caught by an edited except line
    cause = "missing-index" if said.startswith("IndexError") else "missing-broadcast" if said else "missing"
    return Mistake("length-check", cause, name="too_long", max_len=max_len, said=said, changed=CHANGED)


def _said(note: np.ndarray) -> str:
    """What a refusal note (substitutes.refusal_noted) says the error was, ``Type: message``, made printable."""
    return printable(bytes(np.asarray(note[1:], dtype=np.uint8)).decode("utf-8", "replace")).strip()


def _refused(values: Values, runs: Runs, wte: np.ndarray, wpe: np.ndarray, roundoff: float) -> None:
    too_long = real_array(values, "too_long") if values["too_long"].size else values["too_long"]
    max_len = wpe.shape[0]
    long_ids = read_ids(values, "long_ids", wte.shape[0])
    L = long_ids.shape[-1]
    if L <= max_len:  # the starter's last lines edited: nothing past the table was ever asked for
        raise Mistake("mismatch", "long-ids-changed", name="long_ids", tokens=L, max_len=max_len)
    if too_long.size == 0:
        if not runs.says(TRIES_LONG):
            raise Mistake("mismatch", "too-long-untried", name="too_long")
        if not runs.says(RAISES):
            raise _no_length_check(runs, wpe.shape[0])
        return
    slots = np.arange(L)
    tokens = wte[long_ids]
    tol = tolerance(roundoff, 2, float(np.max(np.abs(wte))) + float(np.max(np.abs(wpe))))
    if too_long.shape == tokens.shape:
        if close(too_long, tokens + wpe[slots % max_len], tol):
            raise Mistake("wraps-around", name="too_long", position=max_len, row=0)
        if close(too_long, tokens + wpe[np.minimum(slots, max_len - 1)], tol):
            raise Mistake("wraps-around", "clipped", name="too_long")
        raise Mistake("wraps-around", "other", name="too_long")
    if too_long.ndim == tokens.ndim and too_long.shape[:-2] == tokens.shape[:-2] and too_long.shape[-1] == tokens.shape[-1] and too_long.shape[-2] < L:
        kept = too_long.shape[-2]  # the sequence cut down (to max_len, say): an answer all the same, not a refusal
        raise Mistake("truncated", name="too_long", kept=kept)
    raise Mistake("mismatch", "too-long", name="too_long", shape=shape_text(too_long.shape))


def _backward(values: Values, wpe: np.ndarray, ids: np.ndarray, roundoff: float, first: Values | None) -> None:
    max_len, C = wpe.shape
    B, T = ids.shape
    grad_out = read_shaped(values, "grad_out", (B, T, C))
    grad = real_array(values, "grad_wpe")
    if grad.shape == (C, max_len) and C != max_len:
        raise Mistake("bad-shape", "transposed-table", name="grad_wpe", shape=shape_text(grad.shape), rows="position", wanted=shape_text((max_len, C)))
    grad = read_shaped(values, "grad_wpe", (max_len, C))
    tol = tolerance(roundoff, B, float(np.max(np.abs(grad_out))))
    right = np.zeros((max_len, C))
    right[:T] = grad_out.sum(axis=0)
    if close(grad, right, tol):
        return
    if first is not None and np.array_equal(values["grad_wpe"], first["grad_wpe"]):
        raise Mistake("mismatch", "typed", name="grad_wpe")
    by_id = np.zeros((max_len, C))
    if ids.max() < max_len:
        np.add.at(by_id, ids.reshape(-1), grad_out.reshape(-1, C))
        if close(grad, by_id, tol):
            raise Mistake("by-token-id", "gradient", name="grad_wpe")  # x was judged right: the lookup is by position
    if T < max_len:
        shifted = np.zeros((max_len, C))
        shifted[1 : T + 1] = grad_out.sum(axis=0)
        if close(grad, shifted, tol):
            raise Mistake("off-by-one", name="grad_wpe")
    mean = np.zeros((max_len, C))
    mean[:T] = grad_out.mean(axis=0)
    if close(grad, mean, tol):
        raise Mistake("batch-not-summed", "mean", name="grad_wpe")
    for b in range(B):
        one = np.zeros((max_len, C))
        one[:T] = grad_out[b]
        if close(grad, one, tol):
            raise Mistake("batch-not-summed", "one-sequence", name="grad_wpe", sentence=b)
    if T < max_len:
        _placed_wrongly(grad, right, wpe, T, tol, first is not None)
    if T < max_len and np.any(np.abs(grad[T:]) > tol):
        rows = np.flatnonzero(np.any(np.abs(grad[T:]) > tol, axis=1)) + T
        shown = f"{rows[0]} … {rows[-1]}" if len(rows) > 1 else str(rows[0])
        whose = "" if first is None else " (the T of the checker's rerun, with ids of its own and one sequence more)"
        raise Mistake(
            "every-row",
            _unused_rows(grad, wpe, T, tol, rerun=first is not None),
            name="grad_wpe",
            rows=shown,
            tokens=T,
            last=T - 1,
            whose=whose,
            held=f"{float(grad[rows][np.abs(grad[rows]) > tol][0]):.3g}",
        )
    raise Mistake("mismatch", "unrelated" if first is not None else "", name="grad_wpe", **worst_entry("grad_wpe", grad, right))


# What a mistake the judge names on a rerun's x or grad_wpe reads as, said beside that rerun's worst entry.
READINGS = {
    ("by-token-id", ""): "the rows of wpe[ids], looked up by token id",
    ("by-token-id", "gradient"): "the gradient scattered by token id",
    ("off-by-one", ""): "positions counted from 1",
    ("batch-not-summed", "mean"): "the batch averaged rather than added",
    ("every-row", ""): "a row no token used holding something other than 0",
}


def _judge_values(runs: Runs, changed: str) -> None:
    """x and grad_wpe on the rerun that made ``changed``, by that run's own figures: an answer right only for the
    starter's table or sizes (a branch on its 8 rows, a cap just past the first rerun's) is wrong there, and the
    mistake names that rerun."""
    try:
        values = runs.second(changed)
    except Mistake as failed:
        # every input of the larger rerun is legal (sequences as long as the table, ids past its last row): an error
        # raised there refused what the brief allows, whether a check of the script's own or NumPy's indexing did; a
        # shape that does not broadcast is a size kept from the starter, the generic message's
        failure = str(failed.fields["failure"])
        if changed == LARGER and not failed.cause and failure.startswith(("ValueError", "IndexError")) and "broadcast" not in failure:
            raise Mistake("rerun-failed", "legal-batch-refused", **failed.fields) from None
        raise
    try:
        wpe, ids, _, roundoff = _forward(values, None)
        _backward(values, wpe, ids, roundoff, None)
    except Mistake as mistake:
        name = str(mistake.fields.get("name", ""))
        if name not in ("x", "grad_wpe"):
            raise Mistake(mistake.diagnosis, mistake.cause, **{**mistake.fields, "changed": changed}) from None
        wte, wpe = read_table(values, "wte"), read_table(values, "wpe")
        ids = read_ids(values, "ids", wte.shape[0])
        T = ids.shape[-1]
        if name == "x":
            right = wte[ids] + wpe[:T]
        else:
            right = np.zeros(wpe.shape)
            right[:T] = read_shaped(values, "grad_out", (*ids.shape, wpe.shape[1])).sum(axis=0)
        reading = READINGS.get((mistake.diagnosis, mistake.cause), "")
        if mistake.diagnosis == "batch-not-summed" and mistake.cause == "one-sequence":
            reading = f"the gradient of sequence {mistake.fields['sentence']} alone"
        reading = f"; that is {reading}" if reading else ""
        raise Mistake(
            "mismatch", "other-run", name=name, changed=changed, reading=reading, **worst_entry(name, real_array(values, name), right, THAT_RUN)
        ) from None


def _placed_wrongly(grad: np.ndarray, right: np.ndarray, wpe: np.ndarray, T: int, tol: float, rerun: bool) -> None:
    """A grad_wpe whose rows from T on are not 0 because of where the batch's sum went or what was added to it: the sum
    written into the table's last T rows (``grad_wpe[-T:]``), or a multiple of wpe added to every row (weight decay)."""
    max_len = wpe.shape[0]
    whose = " (the T of the checker's rerun, with ids of its own and one sequence more)" if rerun else ""
    at_end = np.zeros_like(right)
    at_end[-T:] = right[:T]
    if close(grad, at_end, tol):
        raise Mistake("every-row", "at-the-end", name="grad_wpe", tokens=T, start=max_len - T, last=max_len - 1, used=T - 1, whose=whose)
    # fitted on the rows no token used, which the message says hold it: a decay added to the used rows alone leaves
    # those 0, and a share fitted over the whole table would name a multiple that no row holds
    unused = wpe[T:]  # (max_len - T, C)
    share = float(np.sum(grad[T:] * unused) / np.sum(unused * unused)) if np.any(unused) else 0.0
    if share and close(grad, right + share * wpe, tol):
        rows = f"{T} … {max_len - 1}" if max_len - T > 1 else str(T)
        raise Mistake("every-row", "plus-table", name="grad_wpe", share=f"{share:.3g}", rows=rows, tokens=T, last=T - 1, whose=whose)


def _unused_rows(grad: np.ndarray, wpe: np.ndarray, T: int, tol: float, rerun: bool) -> str:
    """What grad_wpe's rows from T on hold, where some are not 0 and the rows before are right or nearly: gradient
    put there ("", a copy of a used row or the total), wpe's own rows (a gradient started from wpe.copy()), one number
    filled in, or whatever an np.empty left (none of these). On a rerun, the script's own run was right: wpe's rows
    there are memory NumPy handed out again to an np.empty_like, not a copy, which the script's own run would show."""
    unused, used = grad[T:], grad[:T]
    gradient = [*used, used.sum(axis=0)]  # a used row copied on (np.resize), or the total over positions in every row
    if all(any(np.all(np.abs(row - each) <= tol) for each in gradient) for row in unused if np.any(np.abs(row) > tol)):
        return ""
    if not rerun and np.all(np.abs(unused - wpe[T:]) <= tol):
        return "from-wpe"
    set_entries = unused[np.abs(unused) > tol]
    if np.all(set_entries == set_entries[0]):
        return "filled"
    return "unset"


def _judge_run(values: Values, runs: Runs, first: Values | None = None) -> Passed:
    wpe, ids, _, roundoff = _forward(values, first)
    _refused(values, runs, read_table(values, "wte"), wpe, roundoff)
    _backward(values, wpe, ids, roundoff, first)
    return Passed()


def _full_length(values: Values, first_rows: int, or_equal: bool, typed_rows: bool) -> None:
    """The second rerun: max_len tokens, exactly as many as the table has rows, must be answered, not refused."""
    wte, wpe = read_table(values, "wte"), read_table(values, "wpe")
    max_len = wpe.shape[0]
    long_ids = read_ids(values, "long_ids", wte.shape[0])
    too_long = values["too_long"]
    note = values.get(REFUSAL)
    if too_long.size == 0 and note is not None and note.size and not note[0]:  # NumPy refused them, not a check: a size typed in
        said = _said(note)
        raise Mistake("mismatch", "full-length-failed", name="too_long", max_len=max_len, said=said, changed=FULL_LENGTH)
    if too_long.size == 0:
        # a table longer than the first run's: a length typed in (the starter's 8) refuses its max_len tokens as `>=` does
        cause = "refuses-longer-table" if max_len != first_rows and not or_equal else "refuses-max-len"
        if cause == "refuses-longer-table" and not typed_rows:
            cause = "refuses-longer-table-other"  # no 8 typed: the length of another array (wte's rows, say)
        raise Mistake("length-check", cause, name="too_long", max_len=max_len, first=first_rows, changed=FULL_LENGTH)
    got = real_array(values, "too_long")
    right = wte[long_ids] + wpe
    roundoff = dtype_roundoff(values, NAMES)
    tol = tolerance(roundoff, 2, float(np.max(np.abs(wte))) + float(np.max(np.abs(wpe))))
    if got.shape != right.shape and got.shape == tuple(n for n in right.shape if n != 1):  # the batch of one's axis dropped
        raise Mistake("mismatch", "full-length-squeezed", name="too_long", shape=shape_text(got.shape), wanted=shape_text(right.shape), changed=FULL_LENGTH)
    ids = read_ids(values, "ids", wte.shape[0])
    if got.shape != right.shape and close(got, wte[ids] + wpe[: ids.shape[-1]], tol):  # the script's own ids looked up, not those passed in
        raise Mistake("mismatch", "full-length-global-ids", name="too_long", shape=shape_text(got.shape), tokens=long_ids.shape[-1], changed=FULL_LENGTH)
    tokens_only = wte[long_ids]  # the tokens' rows alone: add_positions added no position here, though x has them
    if close(got, tokens_only, tol) and not close(right, tokens_only, tol):  # (a tolerance as wide as float16's tells nothing)
        raise Mistake("mismatch", "full-length-no-positions", name="too_long", max_len=max_len, changed=FULL_LENGTH)
    if not close(got, right, tol):
        raise Mistake("mismatch", "full-length", name="too_long", max_len=max_len, **worst_entry("too_long", got, right, THAT_RUN), changed=FULL_LENGTH)


def _one_past(values: Values, off_by_number: bool = False) -> None:
    """The third rerun: one token more than a table that is not max_len long must be refused, by the script's own
    check of that table, and a message that quotes numbers must quote this run's."""
    wte, wpe = read_table(values, "wte"), read_table(values, "wpe")
    rows, C = wpe.shape
    long_ids = read_ids(values, "long_ids", wte.shape[0])
    tokens = long_ids.shape[-1]
    if values["too_long"].size:
        cause = "one-past" if off_by_number else "one-past-unread"  # a bound read from the table, a number added; or not the table's at all
        alone = values.get(ONE_SEQUENCE)
        if alone is not None and alone.size and alone[0]:  # its own check refused the first sequence alone: a condition on the batch
            cause = "one-past-batch"
        batch = long_ids.shape[0] if long_ids.ndim > 1 else 1
        raise Mistake("wraps-around", cause, name="too_long", tokens=tokens, rows=rows, batch=batch, changed=ONE_PAST)
    gradient = np.shape(values["grad_wpe"])
    if gradient != wpe.shape:  # the gradient of this table, whatever the global max_len says
        raise Mistake("bad-shape", "gradient-not-the-tables", name="grad_wpe", shape=shape_text(gradient), wanted=shape_text(wpe.shape), changed=ONE_PAST)
    note = values.get(REFUSAL)
    if note is None or note.size == 0:
        return  # refused before add_positions was reached: nothing to read of how
    said = _said(note)
    if not note[0]:  # the script's own check let them through: it does not read the table it is given
        cause = "table-plus-number" if off_by_number else "table-not-read"  # read from the table, but with a number added
        longer = values.get(OTHER_LENGTH)
        if cause == "table-not-read" and longer is not None and longer.size and not longer[0]:
            # not the global max_len (nor the starter's 8): two tokens more, past it too, were let through as well
            batch = long_ids.shape[0] if long_ids.ndim > 1 else 1
            raise Mistake(
                "length-check", "check-skipped", name="too_long", tokens=tokens, longer=tokens + 2, rows=rows, said=said, batch=batch, changed=ONE_PAST
            )
        raise Mistake("length-check", cause, name="too_long", tokens=tokens, rows=rows, said=said, changed=ONE_PAST)
    own = {0, 1, tokens, rows, rows - 1, tokens - 1, C, *long_ids.shape}  # what this run's refusal may quote
    quoted = {_value(number): number for number in QUOTED_NUMBER.findall(said) if _value(number) not in own}
    if quoted:
        wrong = " and ".join(quoted[number] for number in sorted(quoted)) + "".join(dict.fromkeys(_in_words(number) for number in quoted.values()))
        raise Mistake("length-check", "typed-numbers", name="too_long", tokens=tokens, rows=rows, said=said, wrong=wrong, changed=ONE_PAST)


# A whole number followed by what it counts ("4 rows", "1 tokens", "an 8-row table"): that count must be the run's own.
COUNTED_NUMBER = re.compile(r"(" + _NUMBER + r")\s*-?\s*(rows?|tokens?|positions?)\b", re.IGNORECASE)
# A number whose role the words around it make plain, whatever follows it: the table's length ("the table has 8
# positions", "a table of 8", "at most 8") or the sequence's ("a sequence of 10", "sequence length 10"). Only these
# wordings: "need 10 positions" counts the sequence's, so a number whose role is not plain is judged by its value alone.
ROLE_NUMBER = re.compile(
    r"\btable(?:'s)?\s+(?:has|holds|of|with|length)\s+(?:only\s+)?(?:=\s*|is\s+)?(?P<row>" + _NUMBER + r")"
    r"|\bat most\s+(?P<at_most>" + _NUMBER + r")"
    r"|\bsequence\s+(?:of\s+(?:length\s+)?|length\s*(?:of\s+|=\s*|:\s*|is\s+)?)(?P<sequence>" + _NUMBER + r")",
    re.IGNORECASE,
)


def _quoted_counts(values: Values, run: str) -> None:
    """A refusal of the script's own whose message quotes a number, in every rerun that refused: "N rows" must be the
    rows of the table passed in, "N tokens" the sequence's length (or how far past the table it goes), and any other
    number one of that run's sizes. Names the first that is not, with what it should have been; ``run`` says which run."""
    note = values.get(REFUSAL)
    if note is None or note.size == 0 or not note[0] or values["too_long"].size:
        return  # nothing refused by the script's own raise in this run
    _counts_in(_said(note), read_table(values, "wpe").shape, np.asarray(values["long_ids"]).shape, run)


def _vocabulary_compared(quoted: Mistake, values: Values, full: Values) -> None:
    """A refusal quoting the token table's rows (``quoted``, a wrong number on ``values``' run) that also refuses
    exactly as many tokens as the position table has rows (the full-length rerun ``full``, by a raise of its own,
    where the vocabulary is smaller): a check of T against the vocabulary's size, named so rather than by its number."""
    vocabulary = read_table(values, "wte").shape[0]
    max_len = read_table(full, "wpe").shape[0]
    note = full.get(REFUSAL)
    if quoted.fields.get("number") != vocabulary or vocabulary >= max_len or full["too_long"].size or note is None or not note.size or not note[0]:
        return
    fields = {key: quoted.fields[key] for key in ("name", "tokens", "rows", "said", "run")}
    raise Mistake("length-check", "vocabulary-compared", **fields, vocabulary=vocabulary, max_len=max_len, changed=FULL_LENGTH)


def _asked_counts(values: Values, run: str) -> None:
    """:func:`_quoted_counts` for the rerun's own call (substitutes.refusal_noted): ids two tokens longer than the
    sequence refused. A message that quotes the global ``long_ids`` rather than the ids it is given is named so."""
    note, sizes = values.get(OTHER_LENGTH), values.get(OTHER_LENGTH_SIZES)
    if note is None or note.size == 0 or not note[0] or sizes is None or sizes.size < 3:
        return  # never asked, answered (judged elsewhere), or refused by NumPy rather than the script's raise
    global_tokens = int(np.shape(values["long_ids"])[-1]) if np.ndim(values["long_ids"]) else None
    shape, table = tuple(int(size) for size in sizes[:-2]), (int(sizes[-2]), int(sizes[-1]))
    _counts_in(_said(note), table, shape, run, global_tokens)


def _counts_in(said: str, table: tuple[int, ...], shape: tuple[int, ...], run: str, global_tokens: int | None = None) -> None:
    """The numbers a refusal ``said`` for ids of ``shape`` and a table of ``table``'s shape: each must be one of theirs.
    A number that is ``global_tokens``, the length of the script's own ``long_ids``, is named as that."""
    (rows, C), tokens = table, shape[-1]

    def whose(number: int) -> str:
        return f" ({number} is the length of your global `long_ids`, not of the ids add_positions was given)" if number == global_tokens else ""

    def which(number: int) -> str:
        """Whose number one quoted in the wrong role is, where it is another of the run's sizes."""
        if number == tokens:
            return f" ({number} is the sequence's length: the numbers are in each other's places)"
        if number == rows:
            return f" ({number} is the table's length: the numbers are in each other's places)"
        if len(shape) > 1 and number == shape[0]:
            return f" ({number} is the batch's size, len(ids), not the sequence's length)"
        if number == rows - 1:
            return f" (rows 0 … {rows - 1} are {rows}: at most {rows} tokens fit)"
        return ""

    counts = {"row": ({rows}, f"the table's {rows} rows"), "token": ({tokens, tokens - rows}, f"the sequence's {tokens} tokens")}
    counts["position"] = ({rows, tokens, tokens - rows}, f"the sequence's {tokens} tokens or the table's {rows} rows")
    counts["at_most"] = ({rows}, f"the table's {rows} rows, as many tokens as fit")
    counts["sequence"] = ({tokens}, f"the sequence's {tokens} tokens")
    found = [(match.start(1), match, match.group(1), match.group(2).lower().rstrip("s")) for match in COUNTED_NUMBER.finditer(said)]
    found += [(match.start(match.lastgroup), match, match.group(match.lastgroup), match.lastgroup) for match in ROLE_NUMBER.finditer(said) if match.lastgroup]
    # in the order of the numbers; a number both count and role words name ("table has 4 rows") is quoted by its count
    for _, match, figure, role in sorted(found, key=lambda each: each[0]):
        number = _value(figure)
        allowed, should = counts[role]
        if number not in allowed:
            quoted = f"its “{match.group(0)}” is not {should}{whose(number) or which(number)}{_in_words(figure)}"
            raise Mistake("length-check", "wrong-number", name="too_long", tokens=tokens, rows=rows, said=said, quoted=quoted, run=run, number=number)
    own = {0, 1, tokens, rows, rows - 1, tokens - 1, tokens - rows, C, *shape}  # the sizes a refusal may quote
    for found in QUOTED_NUMBER.findall(said):
        number = _value(found)
        if number in own:
            continue
        quoted = f"its {found} is none of that run's sizes ({tokens} tokens, a table of {rows} rows, {C} wide){whose(number)}{_in_words(found)}"
        raise Mistake("length-check", "wrong-number", name="too_long", tokens=tokens, rows=rows, said=said, quoted=quoted, run=run, number=number)


# What a refusal's message (or its error's type) says when it speaks of the sequence's length, generously: "10 tokens,
# but the position table has only 8 rows", "T=10 > max_len=8", "SequenceTooLong". Asked only of a `raise` of the
# script's own, so NumPy's "could not be broadcast" and "out of bounds" never come here. Not "token", "range", "bound"
# or "size" alone: "a token id is out of range of the vocabulary" says them of the ids' values, not of their number.
SPEAKS_OF_LENGTH = re.compile(
    r"long|length|\blen\b|max|exceed|larg|great|big|more than|beyond|past|limit|too many|row|position|context|block|table|fit|only|>",
    re.IGNORECASE,
)
# A message that puts the refusal down to something else than the length, and what that is: the vocabulary (the ids'
# values, all within it here) whatever else it says; the ids' type or number of dimensions (all as asked) where it
# says nothing of the length.
VOCABULARY = re.compile(r"\bvocab\w*", re.IGNORECASE)
IDS_FORM = re.compile(r"\bdtype\b|\bintegers?\b|\b\d-?D\b|\bndim\b|\bdimensions?\b", re.IGNORECASE)


def _blames_other(said: str) -> str:
    """What in ``said`` puts the refusal down to something else than the sequence's length, with what that is, or ""."""
    if vocabulary := VOCABULARY.search(said):
        return f"“{vocabulary.group()}” speaks of the token ids' values, and every one of them is in the vocabulary"
    if not SPEAKS_OF_LENGTH.search(said) and (form := IDS_FORM.search(said)):
        return f"“{form.group()}” speaks of the ids' type or shape, which are as asked"
    return ""


# A message that calls the sequence short ("a sequence of 10 tokens is too short for a table of 8 positions"): the
# opposite of why it is refused. Only where the sequence is what is called so, the last thing named before the words:
# "the table is too short for 10 tokens" and "only 8 rows, fewer than the 10 tokens" say it the right way round, and
# "T must be less than", "is not smaller than" say what it must be or is not.
SHORT = re.compile(r"too short|shorter|too few|fewer|too small|smaller|less than|not long enough", re.IGNORECASE)
NAMED = re.compile(
    r"(?P<sequence>\bsequences?\b|\bseq\b|\bids\b|\binputs?\b|\btokens?\b|\bT\b)|\btables?\b|\bwpe\b|max_len|\brows?\b|\bpositions?\b|\bcontext\b|\bblock\b|\blimit\b",
    re.IGNORECASE,
)
# A message that calls the table too long ("the position table (8 rows) is too long for a sequence of 10 tokens"): the
# opposite again. Only where a word for the table is what "is too long" says it of, directly.
TABLE_LONG = re.compile(
    r"\b(?:table|wpe|max_len|rows?|positions?)\b(?:\s*\([^)]*\))?\s*(?:is|are)\s+(?:too long|too large|too big|too many|longer|larger|bigger)\b", re.IGNORECASE
)
NOT_SAYING_IT_IS = re.compile(r"\b(?:not|no|never|must|should|needs?|has to|have to|at most|cannot|can)\b|n't", re.IGNORECASE)


def _says_short(said: str) -> str:
    """The words of ``said`` that call the sequence short, or ""."""
    for short in SHORT.finditer(said):
        rest = said[short.end() :]
        following = None if short.group().lower().endswith("than") else NAMED.match(said, len(said) - len(rest.lstrip()))
        if following:  # "too few rows", "fewer tokens": the words count what follows them
            if following.group("sequence"):
                return said[short.start() : following.end()]
            continue
        named = list(NAMED.finditer(said, 0, short.start()))
        if named and named[-1].group("sequence") and not NOT_SAYING_IT_IS.search(said, named[-1].end(), short.start()):
            return said[named[-1].start() : short.end()]
    return ""


def _refusal(values: Values) -> None:
    """The rerun's note of what refused long_ids (substitutes.refusal_noted): a `raise` of the script's own, saying why,
    that also refuses them with a one-row table (where a broadcast error re-raised does not)."""
    note = values.get(REFUSAL)
    if note is None or note.size == 0 or values["too_long"].size:
        return  # add_positions refused nothing (what too_long holds was judged), or the note was never made
    said = _said(note)
    if not note[0]:  # a raise of its own that the failure came before (a check after the lookup), or one that tests something else
        cause = "check-after-lookup" if np.size(values.get(CHECK_AFTER, ())) else "not-own"
        raise Mistake("length-check", cause, name="too_long", said=said, changed=CHANGED)
    max_len = values["wpe"].shape[0]
    if blamed := _blames_other(said):
        raise Mistake("length-check", "blames-other", name="too_long", said=said, blamed=blamed, max_len=max_len)
    if short := _says_short(said):
        raise Mistake("length-check", "says-short", name="too_long", said=said, short=short, max_len=max_len)
    if long := TABLE_LONG.search(said):
        raise Mistake("length-check", "says-table-long", name="too_long", said=said, long=long.group(), max_len=max_len)
    if not SPEAKS_OF_LENGTH.search(said):
        raise Mistake("length-check", "unsaid", name="too_long", said=said, max_len=max_len)
    answered = values.get(ONE_ROW)
    if answered is not None and answered.size:
        raise Mistake("length-check", "broadcast-only", name="too_long", tokens=int(answered[0]), said=said, changed=CHANGED)


def _own_tables(values: Values) -> None:
    """The rerun's note of add_positions given other tables (substitutes.refusal_noted): its answer must move by both shifts."""
    difference = values.get(OWN_TABLES)
    if difference is None or difference.size == 0:
        return  # never answered, or not callable with other tables: nothing to tell
    token_shift, position_shift = TABLE_SHIFTS
    readings = {
        "": token_shift + position_shift,
        "`wpe`": token_shift,  # the token table followed, the position table did not
        "`wte`": position_shift,
        "`wte` and `wpe`": 0.0,
    }
    # the shifts are whole numbers, far apart; an answer moves by them up to its dtype's rounding of the moved entries
    size = float(np.max(np.abs(values["x"]))) + token_shift + position_shift
    allowed = SAFETY * 4 * dtype_roundoff(values, NAMES) * size
    read = next((which for which, shift in readings.items() if np.allclose(difference, shift, rtol=0.0, atol=allowed)), None)
    if read is None:  # it reads the tables it is given, but does not add their rows as they are
        low, high = float(np.min(difference)), float(np.max(difference))
        moved = f"{low:.3g}" if np.isclose(low, high, rtol=0.0, atol=allowed) else f"{low:.3g} to {high:.3g}, entry by entry"
        raise Mistake("mismatch", "tables-not-added", name="x", moved=moved, right=f"{token_shift + position_shift:g}")
    if read:
        raise Mistake("mismatch", "global-tables", name="x", which=read)


def _wide_table(values: Values) -> None:
    """The rerun's note of add_positions asked about more tokens than rows of a table wider than it is long, and shorter
    than the script's own (substitutes.refusal_noted): it must refuse them, by a check of its own. NumPy refusing them,
    where its check refused the script's long_ids, is a check of a table other than the one passed in (the global wpe)."""
    answered = values.get(WIDE_TABLE)
    if answered is not None and answered.size == 3:
        tokens, rows, width = (int(size) for size in answered)
        # answered one channel wide as well: no size of the table it is given bounds T, but a length fixed before the call
        cause = "fixed-rows" if np.size(values.get(NARROW_TABLE, ())) else "wide-table"
        raise Mistake("length-check", cause, name="too_long", tokens=tokens, rows=rows, width=width)
    note = values.get(WIDE_TABLE_REFUSAL)
    if note is not None and note.size and not note[0]:
        shown = np.shape(values["long_ids"])
        raise Mistake(
            "length-check",
            "global-table",
            name="too_long",
            tokens=WIDE_TOKENS,
            rows=WIDE_ROWS,
            said=_said(note),
            long=shown[-1] if shown else 0,
            max_len=read_table(values, "wpe").shape[0],
        )


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, BORROWS, "grad_wpe")
    _judge_run(runs.first, runs)
    try:
        rerun = runs.second(CHANGED)
        passed = sized_for_the_first_run(lambda: _judge_run(rerun, runs, runs.first), CHANGED)
    except Mistake as mistake:
        if mistake.diagnosis == "rerun-failed" or (mistake.diagnosis, mistake.cause) in (("mismatch", "unrelated-shape"), ("mismatch", "unrelated")):
            try:
                sized_for_the_starter(runs, SIZES, mistake, CHANGED)
            except Mistake as sized:
                # arrays drawn again, whether the rerun then gave arrays that do not fit or stopped at a size typed in
                if sized.diagnosis in ("mismatch", "rerun-failed") and sized.cause in ("typed-size", "sized") and runs.says(REDRAWS):
                    typed = f", and types in the starter's {sized.fields['typed']}" if sized.fields.get("typed") else ""
                    raise Mistake("mismatch", "redrawn", **{**sized.fields, "typed": typed}) from None
                raise
        raise
    _refusal(rerun)
    _own_tables(rerun)
    try:
        _quoted_counts(rerun, "your own `long_ids` and table, as the checker's first rerun left them")
    except Mistake as quoted:
        _vocabulary_compared(quoted, rerun, runs.second(FULL_LENGTH))
        raise
    _full_length(runs.second(FULL_LENGTH), runs.first["wpe"].shape[0], runs.says(OR_EQUAL), runs.says(TYPES_MAX_LEN))
    _one_past(runs.second(ONE_PAST), runs.says(OFF_BY_NUMBER))
    _quoted_counts(runs.second(ONE_PAST), f"the checker's rerun with {ONE_PAST}")
    _asked_counts(rerun, "a call of the checker's own in its first rerun, two tokens longer than the `long_ids` your add_positions had just refused")
    _asked_counts(runs.second(ONE_PAST), f"a call of the checker's own, two tokens longer than `long_ids`, in its rerun with {ONE_PAST}")
    _wide_table(rerun)
    for changed in (FULL_LENGTH, ONE_PAST, LARGER):
        _judge_values(runs, changed)
    return passed


def hypotheses(values: Values) -> Hypotheses:
    """What x, grad_wpe and too_long are on one run's inputs, right and under each mistake the judge names."""
    wte, wpe = read_table(values, "wte"), read_table(values, "wpe")
    max_len, C = wpe.shape
    ids = read_ids(values, "ids", wte.shape[0])
    B, T = ids.shape
    grad_out = read_shaped(values, "grad_out", (B, T, C))
    long_ids = read_ids(values, "long_ids", wte.shape[0])
    roundoff = dtype_roundoff(values, NAMES)

    def rows(summed: np.ndarray, start: int = 0) -> np.ndarray:
        grad = np.zeros((max_len, C))
        grad[start : start + T] = summed
        return grad

    tokens, slots = wte[ids], np.arange(long_ids.shape[-1])
    # A refusal has no figures; it stands here as zeros, which no lookup of these tables gives.
    refused = np.zeros((*long_ids.shape, C))
    answered = wte[long_ids] + wpe[np.minimum(slots, max_len - 1)]  # the right answer where long_ids fits the table
    right = {"x": tokens + wpe[:T], "grad_wpe": rows(grad_out.sum(axis=0)), "too_long": refused if long_ids.shape[-1] > max_len else answered}
    by_id = np.zeros((max_len, C))
    if ids.max() < max_len:
        np.add.at(by_id, ids.reshape(-1), grad_out.reshape(-1, C))
    wrong: dict[str, dict] = {
        "by-token-id": {"x": tokens + wpe[np.minimum(ids, max_len - 1)], "grad_wpe": by_id},
        "mean": {"grad_wpe": rows(grad_out.mean(axis=0))},
        **{f"sequence-{b}": {"grad_wpe": rows(grad_out[b])} for b in range(B)},
        "every-row": {"grad_wpe": np.broadcast_to(grad_out.sum(axis=(0, 1)), (max_len, C))},
        "modulo": {"too_long": wte[long_ids] + wpe[slots % max_len]},
        "clipped": {"too_long": wte[long_ids] + wpe[np.minimum(slots, max_len - 1)]},
        "refuses-max-len": {"too_long": refused},
        # a bound one past the table (T > max_len + 1): max_len + 1 tokens answered, their last slot wrapped to row 0
        "one-past": {"too_long": wte[long_ids] + wpe[slots % max_len] if long_ids.shape[-1] == max_len + 1 else right["too_long"]},
    }
    if T < max_len:
        wrong["off-by-one"] = {"x": tokens + wpe[1 : T + 1], "grad_wpe": rows(grad_out.sum(axis=0), 1)}
    size = float(np.max(np.abs(wte))) + float(np.max(np.abs(wpe)))
    return Hypotheses.of(
        right,
        wrong,
        {
            "x": tolerance(roundoff, 2, size),
            "grad_wpe": tolerance(roundoff, B, float(np.max(np.abs(grad_out), initial=0.0))),
            "too_long": tolerance(roundoff, 2, size),
        },
    )


LEARNED_POSITIONS = Contract(
    names=NAMES,
    reruns=(
        # add_positions wrapped too, to note what refused the long sequence: its own raise, or NumPy's error
        Rerun(
            {
                "C": "wider(C)",
                "ids": "one_more_sentence(ids, wte, wpe)",
                "grad_out": "redrawn_for(grad_out, ids)",
                "add_positions": "refusal_noted(add_positions)",
            },
            CHANGED,
        ),
        Rerun(
            {"max_len": "more_rows(max_len)", "long_ids": "table_length_ids(long_ids, wpe)", "add_positions": "refusal_noted(add_positions)"},
            FULL_LENGTH,
        ),
        Rerun({"wpe": "shorter_table(wpe, ids)", "long_ids": "one_past_ids(long_ids, wpe)", "add_positions": "refusal_noted(add_positions)"}, ONE_PAST),
        Rerun(
            {
                "V": "vocabulary_past_the_table(V, max_len)",
                "max_len": "more_rows(max_len)",
                "C": "many_more_channels(C)",
                "ids": "table_filling_batch(ids, wte, wpe)",
                "grad_out": "redrawn_for(grad_out, ids)",
            },
            LARGER,
        ),
    ),
    judge=judge,
    diagnoses=("by-token-id", "wraps-around", "truncated", "length-check", "every-row", "batch-not-summed", "off-by-one", "mismatch", "changed-input"),
    given=("wte", "wpe", "ids", "grad_out", "long_ids"),
    kept=("wte", "wpe"),
    hypotheses=hypotheses,
    typed=("x", "grad_wpe"),
    questions=(BORROWS, TRIES_LONG, RAISES, IMPORTS_BY_NAME, OR_EQUAL, OFF_BY_NUMBER, REDRAWS, *SIZES.questions),
    probes=(REFUSAL, CHECK_AFTER, OWN_TABLES, OTHER_LENGTH, OTHER_LENGTH_SIZES, ONE_ROW, WIDE_TABLE, WIDE_TABLE_REFUSAL, NARROW_TABLE, ONE_SEQUENCE),
    described={
        "by-token-id": "the table indexed by token id",
        "mean": "the batch averaged",
        **{f"sequence-{b}": f"sequence {b} alone" for b in range(64)},
        "every-row": "gradient in every row",
        "modulo": "positions wrapped round",
        "clipped": "positions clipped to the last row",
        "refuses-max-len": "a length check that refuses max_len tokens too",
        "one-past": "a length check that lets one token past the table through",
        "off-by-one": "positions from 1",
        "typed-x": "an x typed in",
        "typed-grad_wpe": "a grad_wpe typed in",
        "stale-long_ids": "too_long from a copy of long_ids made before the checker changed it",
    },
)
