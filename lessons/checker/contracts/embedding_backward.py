"""embedding-backward: a token table's lookup and its scatter-add gradient, for a batch.

The rerun gives ``ids`` other values with other repeats and one sentence more, some in the table's new rows (so a batch
size or a one-hot width typed in does not follow), ``grad_out``
other values and the table three more rows and four more channels (the
starter's ``V`` and ``C``, so a table sized by numbers typed in does not fit), drawn from a seed of the checker's own (so
an ``out`` looked up in a table the script draws again from its seed is no lookup of ``wte``): the right gradient changes with them, and each mistaken one
(buffered or overwritten, one sentence only, by position, averaged per id or
divided by the batch size) gives a
table of its own; numbers typed in do not change at all. Buffered and
overwritten give the same table; the source tells which (``+=`` or ``=``).
A second rerun goes well past the starter's sizes (two sentences, six tokens, ten rows and eight channels more, two
ids used five times each), so that a cap typed in just above them does not follow either.
"""

from __future__ import annotations

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
from attnpos.lessons.checker.contracts.table_reading import (
    close,
    read_ids,
    read_shaped,
    read_table,
    tolerance,
)
from attnpos.lessons.checker.separation import Hypotheses
from attnpos.lessons.checker.values import Values, dtype_roundoff, real_array
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text

NAMES = ("wte", "ids", "grad_out", "out", "grad_wte")
BORROWS = NUMPY_ONLY
BUFFERED = Question("augments_subscript", ("grad_wte",))  # `grad[ids] += g` rather than an assignment
LITERAL = {name: Question("typed_in", (name,)) for name in ("out", "grad_wte")}  # an array of numbers written out
CHANGED = (
    "`ids` replaced by other ids (other repeats, one token longer, one sentence more, some of them in the table's new rows), "
    "a larger table (`V` and `C` three rows and four channels more, `wte` drawn from a seed of the checker's own) and `grad_out` by other gradients to match"
)
# A second rerun well past the starter's sizes: a cap typed in just above them (3 sentences, block_size = 8 tokens,
# 8 channels, 4 uses of an id, ids clipped to 15) passes the first rerun, which stays small so that its freed buffers
# of wte's size, which NumPy hands out again, can be left holding NaN (substitutes.poisoned_for).
LARGER = (
    "`ids` replaced by a larger batch (two sentences more and six tokens longer, its last sentence alternating between two of the table's new rows), "
    "a larger table (`V` and `C` ten rows and eight channels more, `wte` drawn from a seed of the checker's own) and `grad_out` by other gradients to match"
)
# The starter's sizes; its own lines set these names, and a 10, 4, 2 or 5 elsewhere is a size typed in.
SIZES = StarterSizes({10: "V", 4: "C", 2: "B", 5: "T"}, ("rng", "V", "C", "wte", "ids", "grad_out"), {"ids": ("B", "T")})
# the starter's V written as a number: one of SIZES.questions
ROWS_TYPED = Question("types_number", (next(str(n) for n, name in SIZES.sizes.items() if name == "V"), SIZES.kept))
# out or grad_wte computed from random numbers the script draws itself (a table or a gradient drawn again from the seed)
DRAWN = {name: Question("drawn_into", (name, SIZES.kept)) for name in ("out", "grad_wte")}


def scatter(ids: np.ndarray, grad_out: np.ndarray, rows: int) -> np.ndarray:
    """(rows, C) every grad_out[..., :] added into row ids[...]: the right backward pass."""
    grad = np.zeros((rows, grad_out.shape[-1]))
    np.add.at(grad, ids.reshape(-1), grad_out.reshape(-1, grad_out.shape[-1]))
    return grad


def last_write_wins(ids: np.ndarray, grad_out: np.ndarray, rows: int) -> np.ndarray:
    """(rows, C) each row holds the gradient of its id's last use: ``grad[ids] += g`` and ``grad[ids[b, t]] = g[b, t]`` alike."""
    grad = np.zeros((rows, grad_out.shape[-1]))
    for v, g in zip(ids.reshape(-1), grad_out.reshape(-1, grad_out.shape[-1]), strict=True):
        grad[v] = g
    return grad


def mistaken_gradients(ids: np.ndarray, grad_out: np.ndarray, rows: int) -> dict[str, np.ndarray]:
    """What each misconception gives, by cause; a batch axis is needed for the per-sentence ones."""
    batch = ids.reshape(-1, ids.shape[-1])  # (B, T)
    g = grad_out.reshape(*batch.shape, grad_out.shape[-1])  # (B, T, C)
    positions = np.broadcast_to(np.arange(batch.shape[1]), batch.shape)
    found = {"last-write": last_write_wins(batch, g, rows)}
    if batch.shape[0] > 1:
        per_sentence = np.zeros((rows, g.shape[-1]))
        for b in range(batch.shape[0]):
            per_sentence += last_write_wins(batch[b], g[b], rows)
        found["per-sequence"] = per_sentence
        per_position = np.zeros((rows, g.shape[-1]))
        for t in range(batch.shape[1]):  # grad[ids[:, t]] += g[:, t]: buffered across the sentences at one position
            per_position += last_write_wins(batch[:, t], g[:, t], rows)
        found["per-position"] = per_position
        found["first"] = scatter(batch[0], g[0], rows)
        found["last"] = scatter(batch[-1], g[-1], rows)
    if positions.max() < rows:
        found["position"] = scatter(positions, g, rows)
    if batch.shape[0] > 1:  # with one sentence, dividing by the batch size changes nothing
        found["batch-mean"] = scatter(batch, g, rows) / batch.shape[0]
    counts = np.bincount(batch.reshape(-1), minlength=rows)[:, None]
    found["mean"] = np.divide(scatter(batch, g, rows), counts, out=np.zeros((rows, g.shape[-1])), where=counts > 0)
    return found


def _judge_run(values: Values, runs: Runs, first: Values | None = None) -> Passed:
    wte = read_table(values, "wte")
    V, C = wte.shape
    ids = read_ids(values, "ids", V, ndim=(1, 2))
    given = values["grad_out"].shape
    if ids.ndim == 1 and len(given) == 3 and given[-1] == C and given[0] * given[1] == ids.size:  # (B, T) flattened to (B·T,)
        raise Mistake("bad-shape", "ids-flattened", name="ids", shape=shape_text(ids.shape), grad_shape=shape_text(given), bt=shape_text(given[:2]))
    grad_out = read_shaped(values, "grad_out", (*ids.shape, C))
    roundoff = dtype_roundoff(values, NAMES)
    size = float(np.max(np.abs(grad_out), initial=0.0))
    out = real_array(values, "out")
    expected_out = wte[ids]
    T = ids.shape[-1]
    right_out = out.shape == expected_out.shape and close(out, expected_out, tolerance(roundoff, 1, float(np.max(np.abs(wte)))))
    if not right_out and T <= V and out.shape in ((T, C), expected_out.shape):  # row t of wte at slot t
        by_position = np.broadcast_to(wte[:T], expected_out.shape)
        if not close(by_position, expected_out, 0.0) and close(np.broadcast_to(out, expected_out.shape), by_position, tolerance(roundoff, 1, size)):
            raise Mistake("by-position", name="out")
    out = read_shaped(values, "out", expected_out.shape)
    if not close(out, expected_out, tolerance(roundoff, 1, float(np.max(np.abs(wte))))):
        _own_table(values, first, out, expected_out, ids, tolerance(roundoff, 1, float(np.max(np.abs(out)))))
        _unfollowed(values, first, "out", expected_out)
        raise Mistake("mismatch", name="out", **worst_entry("out", out, expected_out))

    _unset_rows(values, wte, ids, grad_out, roundoff, in_ids="your ids" if first is None else "the ids of the checker's rerun ({changed})")
    grad = real_array(values, "grad_wte")
    if grad.shape == (C, V) and V != C:
        raise Mistake("transposed", name="grad_wte", shape=shape_text(grad.shape))
    # which ids the figures below count: the learner's own, or the rerun's (said, since the learner never saw them)
    in_ids = "your ids" if first is None else "the ids of the checker's rerun ({changed})"
    top = int(ids.max())
    if grad.shape == (top + 1, C) and top + 1 < V:  # np.bincount without minlength: rows only up to the largest id used
        raise Mistake("bad-shape", "bincount-short", name="grad_wte", shape=shape_text(grad.shape), top=top, rows=V, in_ids=in_ids)
    if grad.shape == (ids.size, C) and ids.size != V:  # np.zeros((ids.size, C)): one row per token, not per table row
        tokens = " × ".join(str(n) for n in ids.shape)
        raise Mistake("bad-shape", "row-per-token", name="grad_wte", shape=shape_text(grad.shape), tokens=ids.size, bt=tokens, rows=V, in_ids=in_ids)
    grad = read_shaped(values, "grad_wte", (V, C))
    right = scatter(ids, grad_out, V)
    counts = np.bincount(ids.reshape(-1), minlength=V)
    tol = tolerance(roundoff, int(counts.max()), size)
    if close(grad, right, tol):
        return Passed()
    cause = next((c for c, table in mistaken_gradients(ids, grad_out, V).items() if close(grad, table, tol)), None)
    repeated = int(np.argmax(counts))
    row, count = repeated, int(counts[repeated])
    if cause == "last-write":
        raise Mistake("buffered-add" if runs.says(BUFFERED) else "overwritten", name="grad_wte", row=row, count=count, in_ids=in_ids)
    if cause == "per-sequence":
        raise Mistake("buffered-add", "per-sequence", name="grad_wte", row=row, count=count, in_ids=in_ids)
    if cause == "per-position":
        batch = ids.reshape(-1, ids.shape[-1])
        t = next(t for t in range(batch.shape[1]) if len(set(batch[:, t].tolist())) < batch.shape[0])  # a column with a repeat
        column = batch[:, t]
        shared = int(next(v for v in column if np.count_nonzero(column == v) > 1))
        raise Mistake("buffered-add", "per-position", name="grad_wte", row=shared, count=int(np.count_nonzero(column == shared)), position=t, in_ids=in_ids)
    if cause in ("first", "last"):
        raise Mistake("first-sequence-only", cause, name="grad_wte", sentence=0 if cause == "first" else ids.shape[0] - 1)
    if cause == "position":
        raise Mistake("by-position", name="grad_wte")
    if cause == "mean":
        raise Mistake("mismatch", "mean", name="grad_wte")
    if cause == "batch-mean":
        raise Mistake("batch-not-summed", "mean", name="grad_wte")
    run = "your run" if first is None else "the checker's rerun ({changed})"
    _partial_gradient(wte, ids, grad_out, grad, roundoff, in_ids, run, rows_typed=runs.says(ROWS_TYPED))
    _unfollowed(values, first, "grad_wte", right)
    raise Mistake("mismatch", name="grad_wte", **worst_entry("grad_wte", grad, right))


def _partial_gradient(
    wte: np.ndarray, ids: np.ndarray, grad_out: np.ndarray, grad: np.ndarray, roundoff: float, in_ids: str, run: str, rows_typed: bool
) -> None:
    """A (V, C) grad_wte wrong in a way its figures name (none of them told on the starter's ids, where each is right or
    a mistake of its own, so they are no hypotheses): a copy of wte added into; each id's first few uses only (a fixed
    number of passes); positions where two sentences share an id left out; the first V tokens only (a loop over the
    table's rows, V = B·T = 10 in the starter); the first few channels only (a channel count typed in or capped).
    The first rerun's new-row ids sit in its last tokens, so the first V tokens there are also the rows below 10: a
    source that writes the starter's 10 (`range(10)`, `ids < 10`) is told as before, a row count typed in."""
    V, C = wte.shape
    right = scatter(ids, grad_out, V)
    counts = np.bincount(ids.reshape(-1), minlength=V)
    size = float(np.max(np.abs(grad_out), initial=0.0))
    tol = tolerance(roundoff, int(counts.max()), size)
    unused = np.flatnonzero(counts == 0)
    if unused.size and close(grad, wte + right, tolerance(roundoff, int(counts.max()) + 1, max(size, float(np.max(np.abs(wte)))))):
        raise Mistake("mismatch", "started-from-wte", name="grad_wte", rows=", ".join(str(int(r)) for r in unused), in_ids=in_ids)
    flat, g = ids.reshape(-1), grad_out.reshape(-1, C)
    use = np.array([np.count_nonzero(flat[:i] == v) for i, v in enumerate(flat)], dtype=np.int64)  # which use of its id each token is
    for cap in range(1, int(counts.max())):
        if close(grad, scatter(flat[use < cap], g[use < cap], V), tol):
            row = int(np.argmax(counts))
            first_uses = "the gradient of its first use" if cap == 1 else f"the gradients of its first {cap} uses"
            raise Mistake(
                "mismatch",
                "uses-capped",
                name="grad_wte",
                cap="once" if cap == 1 else f"{cap} times",
                first=first_uses,
                row=row,
                count=int(counts[row]),
                in_ids=in_ids,
            )
    batch = ids.reshape(-1, ids.shape[-1])
    shared = [t for t in range(batch.shape[1]) if np.unique(batch[:, t]).size < batch.shape[0]]  # columns with a repeat
    if shared and len(shared) < batch.shape[1]:
        kept = [t for t in range(batch.shape[1]) if t not in shared]
        g_batch = grad_out.reshape(*batch.shape, C)
        if close(grad, scatter(batch[:, kept], g_batch[:, kept], V), tol):
            t = shared[0]
            column = batch[:, t]
            v = int(next(v for v in column if np.count_nonzero(column == v) > 1))
            positions = f"position {shared[0]}" if len(shared) == 1 else "positions " + ", ".join(str(s) for s in shared[:-1]) + f" and {shared[-1]}"
            raise Mistake(
                "mismatch",
                "shared-positions-skipped",
                name="grad_wte",
                id=v,
                position=t,
                count=int(np.count_nonzero(column == v)),
                positions=positions,
                in_ids=in_ids,
            )
    first_rows = [rows for rows in range(1, V) if np.all(grad[rows:] == 0) and close(grad[:rows], right[:rows], tol)]
    if V < flat.size and close(grad, scatter(flat[:V], g[:V], V), tol) and not (first_rows and rows_typed):
        raise Mistake(
            "mismatch", "tokens-up-to-V", name="grad_wte", rows=V, tokens=flat.size, bt=" × ".join(str(n) for n in ids.shape), rest=flat.size - V, in_ids=in_ids
        )
    for channels in range(1, C):
        if np.all(grad[:, channels:] == 0) and np.any(right[:, channels:] != 0) and close(grad[:, :channels], right[:, :channels], tol):
            zero = f"channel {channels} of your grad_wte is 0" if channels == C - 1 else f"channels {channels} … {C - 1} of your grad_wte are 0"
            filled = "channel 0 is right" if channels == 1 else f"channels 0 … {channels - 1} are right"
            raise Mistake("mismatch", "channels-capped", name="grad_wte", channels=channels, zero=zero, kept=filled, width=C, run=run)


def _unset_rows(values: Values, wte: np.ndarray, ids: np.ndarray, grad_out: np.ndarray, roundoff: float, in_ids: str) -> None:
    """Every used row right and an unused one not exactly 0 (NaN, or numbers too small to matter): a buffer never
    cleared, as np.empty leaves it, or filled with one number (np.full_like(wte, 1e-5)) and cleared only where used.
    A right gradient's unused rows are exactly 0 however it is added up (np.add.at into zeros, np.bincount, a one-hot
    product: sums of nothing, or of 0 · g)."""
    grad, (V, C) = values["grad_wte"], wte.shape
    if grad.shape != (V, C) or grad.dtype.kind != "f":
        return
    grad = grad.astype(np.float64)
    counts = np.bincount(ids.reshape(-1), minlength=V)
    unused = counts == 0
    if not np.any(grad[unused] != 0) and not np.any(np.isnan(grad[unused])):
        return
    right = scatter(ids, grad_out, V)
    used = grad[~unused]
    size = float(np.max(np.abs(grad_out), initial=0.0))
    if not (np.all(np.isfinite(used)) and close(used, right[~unused], tolerance(roundoff, int(counts.max()), size))):
        return  # wrong in the used rows too: judged as a gradient
    rows = np.flatnonzero(np.any((grad != 0) | np.isnan(grad), axis=1) & unused)
    shown_rows = ", ".join(str(int(r)) for r in rows)
    used_rows = np.flatnonzero(~unused)
    # each set row the gradient of a used one, copied there on purpose (a tie of rows), rather than left uncleared
    copied = [used_rows[np.all(np.abs(grad[used_rows] - grad[r]) <= tolerance(roundoff, int(counts.max()), size), axis=1)] for r in rows]
    if all(np.all(np.isfinite(grad[r])) and found.size for r, found in zip(rows, copied, strict=True)):
        sources = ", ".join(str(int(found[0])) for found in copied)
        raise Mistake("mismatch", "unused-copied", name="grad_wte", rows=shown_rows, sources=sources, in_ids=in_ids)
    if close(grad[unused], wte[unused], tolerance(roundoff, 1, float(np.max(np.abs(wte))))):  # a copy of the table, its used rows cleared
        raise Mistake("mismatch", "unused-from-wte", name="grad_wte", rows=shown_rows, in_ids=in_ids)
    held = grad[rows]
    if np.all(np.isfinite(held)) and np.all(held == held.flat[0]):  # one number in every entry: filled so, not left over
        raise Mistake("mismatch", "filled-rows", name="grad_wte", rows=shown_rows, held=f"{float(held.flat[0]):.3g}", in_ids=in_ids)
    numbers = held[np.isfinite(held) & (held != 0)]  # left over from before, or NaN the rerun left there
    shown = f"values such as {float(numbers[0]):.3g}" if numbers.size else "NaN"
    raise Mistake("mismatch", "unset-rows", name="grad_wte", rows=shown_rows, held=shown, in_ids=in_ids)


def _own_table(values: Values, first: Values | None, out: np.ndarray, expected: np.ndarray, ids: np.ndarray, tol: float) -> None:
    """On the rerun, whose wte is not what the starter's seed draws: ``out`` a lookup all the same (each id gives one
    row wherever it appears), but not of wte's rows: of a table the script made itself (drawn again from its seed);
    or of wte's rows, but some of them another id's (ids clipped, or taken modulo a size typed in)."""
    if first is None or np.array_equal(values["out"], first["out"]):
        return  # the first run's out is judged as it is; one that did not change was typed in
    flat_ids, rows = ids.reshape(-1), out.reshape(-1, out.shape[-1])
    table = np.zeros((int(flat_ids.max()) + 1, rows.shape[-1]))
    table[flat_ids] = rows  # each id's row, as the last place it appears has it
    if not close(rows, table[flat_ids], tol):
        return
    wte = read_table(values, "wte")
    # for each place, the rows of wte that its out row is (within tol), if any
    matches = np.all(np.abs(rows[:, None, :] - wte[None, :, :]) <= tol, axis=-1)  # (B·T, V)
    if matches.any(axis=1).all():
        place = next(i for i in range(flat_ids.size) if not matches[i, flat_ids[i]])
        row = int(np.flatnonzero(matches[place])[0])
        raise Mistake("mismatch", "other-rows", name="out", id=int(flat_ids[place]), row=row, in_ids="the ids of the checker's rerun ({changed})")
    raise Mistake("mismatch", "own-table", name="out", **worst_entry("out", out, expected, THAT_RUN))


def _unfollowed(values: Values, first: Values | None, name: str, expected: np.ndarray) -> None:
    """On the rerun: a value that did not change with the ids was typed in; one that changed otherwise, computed from something else."""
    if first is None:
        return
    if values[name].shape == first[name].shape and np.array_equal(values[name], first[name]):
        raise Mistake("mismatch", "typed", name=name)
    raise Mistake("mismatch", "unrelated", name=name, **worst_entry(name, values[name], expected, THAT_RUN))


def _first_sentences_only(first: Values, rerun: Values | None) -> bool:
    """On the rerun (one sentence more), out or grad_wte right for the first run's number of sentences and the rest
    left out: a batch size kept from the first run (typed in, or copied)."""
    if rerun is None or first["ids"].ndim != 2 or rerun["ids"].ndim != 2 or rerun["ids"].shape[0] <= first["ids"].shape[0]:
        return False
    B = first["ids"].shape[0]
    wte, ids, grad_out = (np.asarray(rerun[name], dtype=np.float64) for name in ("wte", "ids", "grad_out"))
    ids = ids.astype(np.int64)
    out, grad = np.asarray(rerun["out"], dtype=np.float64), np.asarray(rerun["grad_wte"], dtype=np.float64)
    tol = tolerance(dtype_roundoff(rerun, NAMES), int(np.bincount(ids.reshape(-1)).max()), float(np.max(np.abs(grad_out), initial=0.0)))
    out_kept = out.shape == (*ids.shape, wte.shape[1]) and close(out[:B], wte[ids[:B]], tol) and not close(out, wte[ids], tol)
    grad_kept = grad.shape == wte.shape and close(grad, scatter(ids[:B], grad_out[:B], wte.shape[0]), tol)
    return out_kept or grad_kept


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, BORROWS, "grad_wte")
    _judge_run(runs.first, runs)
    for changed in runs.changed:  # CHANGED, then LARGER
        _judge_rerun(runs, changed)
    return Passed()


def _judge_rerun(runs: Runs, changed: str) -> None:
    """The rerun that made ``changed``, judged against the first run; a mistake found there quotes that rerun's changes."""
    try:
        rerun = runs.second(changed)
        sized_for_the_first_run(lambda: _judge_run(rerun, runs, runs.first), changed)
    except Mistake as mistake:  # an array written out as numbers: the typing, not a size, is what did not follow
        mistake.fields.setdefault("changed", changed)  # the figures quoted are this rerun's
        name = str(mistake.fields.get("name", ""))
        index = runs.changed.index(changed)
        rerun_values = runs.reruns[index]
        _drawn_again(runs, mistake, index)
        # the same numbers on the rerun: written out (np.zeros((10, 4)) filled in place is a size typed in, not numbers)
        kept = rerun_values is not None and name in LITERAL and np.array_equal(rerun_values[name], runs.first[name])
        if mistake.cause in ("unrelated-shape", "typed") and kept and runs.says(LITERAL[name]):
            raise Mistake("mismatch", "literal", name=name, changed=changed) from None
        # a batch size typed in (`range(2)`) leaves the rerun's third sentence out: wrong figures, not a wrong shape
        # (or a copy of the starter's ids written out, which no rerun changes)
        typed_batch = (mistake.diagnosis, mistake.cause) == ("mismatch", "unrelated") and (
            _first_sentences_only(runs.first, rerun_values) or bool(SIZES.copied(runs))
        )
        if mistake.diagnosis == "rerun-failed" or (mistake.diagnosis, mistake.cause) == ("mismatch", "unrelated-shape") or typed_batch:
            sized_for_the_starter(runs, SIZES, mistake, changed)  # a size typed in is named, with the numbers the script wrote
        raise


def _drawn_again(runs: Runs, mistake: Mistake, index: int) -> None:
    """On a rerun, a table or a gradient the script draws itself in place of the given one (right on the first run,
    where it was drawn from the starter's seed as wte and grad_out were): named as such, rather than as a size typed in
    (its seed is no size) or as ids not followed (the ids were)."""
    fields, partial = mistake.fields, runs.partial[index] if runs.partial else {}
    if mistake.diagnosis == "rerun-failed" and not mistake.cause and "out" not in partial and runs.says(DRAWN["out"]):
        raise Mistake("rerun-failed", "own-table", name="out", changed=fields["changed"], failure=fields["failure"]) from None
    if (mistake.diagnosis, mistake.cause, fields.get("name")) == ("mismatch", "unrelated", "grad_wte") and runs.says(DRAWN["grad_wte"]):
        raised = runs.raised[index] if runs.raised else ""
        stopped = f" That run stopped at {raised}, after every name was set: your grad_wte is what it held then." if raised else ""
        raise Mistake(
            "mismatch", "own-gradient", name="grad_wte", changed=fields["changed"], worst=fields["worst"], got=fields["got"], raised=stopped
        ) from None


def hypotheses(values: Values) -> Hypotheses:
    """What out and grad_wte are on one run's inputs, right and under each mistake the judge names."""
    wte = read_table(values, "wte")
    V, C = wte.shape
    ids = read_ids(values, "ids", V, ndim=(1, 2))
    grad_out = read_shaped(values, "grad_out", (*ids.shape, C))
    roundoff = dtype_roundoff(values, NAMES)
    counts = np.bincount(ids.reshape(-1), minlength=V)
    tolerances = {
        "out": tolerance(roundoff, 1, float(np.max(np.abs(wte)))),
        "grad_wte": tolerance(roundoff, int(counts.max()), float(np.max(np.abs(grad_out), initial=0.0))),
    }
    right = {"out": wte[ids], "grad_wte": scatter(ids, grad_out, V)}
    wrong: dict[str, dict] = {cause: {"grad_wte": table} for cause, table in mistaken_gradients(ids, grad_out, V).items()}
    if "position" in wrong:
        wrong["position"]["out"] = np.broadcast_to(wte[: ids.shape[-1]], right["out"].shape)
    return Hypotheses.of(right, wrong, tolerances)


EMBEDDING_BACKWARD = Contract(
    names=NAMES,
    reruns=(
        Rerun(
            {
                "V": "more_rows(V)",
                "C": "wider(C)",
                "wte": "other_table(wte)",
                "ids": "one_more_sentence(ids, wte)",
                "grad_out": "poisoned_for(grad_out, ids, wte)",
            },
            CHANGED,
        ),
        Rerun(
            {
                "V": "many_more_rows(V)",
                "C": "many_more_channels(C)",
                "wte": "other_table(wte)",
                "ids": "larger_batch(ids, wte)",
                "grad_out": "redrawn_for(grad_out, ids)",
            },
            LARGER,
        ),
    ),
    judge=judge,
    diagnoses=("by-position", "transposed", "buffered-add", "overwritten", "first-sequence-only", "batch-not-summed", "mismatch", "changed-input"),
    given=("wte", "ids", "grad_out"),
    kept=("wte",),
    hypotheses=hypotheses,
    typed=("out", "grad_wte"),
    questions=(BORROWS, BUFFERED, IMPORTS_BY_NAME, *LITERAL.values(), *SIZES.questions, *DRAWN.values()),
    described={
        "last-write": "a buffered or overwriting scatter (one gradient per id)",
        "per-sequence": "a scatter buffered within each sentence",
        "per-position": "a scatter buffered across the sentences at each position",
        "first": "the first sentence only",
        "last": "the last sentence only",
        "position": "rows looked up by position",
        "mean": "gradients averaged instead of added",
        "batch-mean": "the gradient divided by the batch size",
        "typed-out": "an out typed in",
        "typed-grad_wte": "a grad_wte typed in",
    },
)
