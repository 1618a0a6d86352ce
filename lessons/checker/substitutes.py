"""The values a rerun puts in place of a learner's inputs (see :mod:`rerun`).

This module is imported *inside the learner's process* by the rewritten
script, so it needs nothing but NumPy and the core. Each function gets the
learner's own values and returns one of the same kind (dtype, and shape
where the learner's code may rely on it).
"""

from __future__ import annotations

import dis
import functools
from collections.abc import Callable

import numpy as np

from attnpos.core.permutation import TWIN_SLOTS
from attnpos.core.sinusoidal_encoding import BASE
from attnpos.lessons.checker.learner_modules import GIVEN_PREFIX

# A power of two: scaling the value matrix by it scales every output, and so
# every gap between outputs, exactly (floating point is exact under scaling
# by powers of two, barring overflow), whatever order the learner's code
# multiplies and adds in. A typed or copied figure does not scale.
VALUE_SCALE = 2.0**20


def given(namespace: dict, name: str, value: object) -> object:
    """``value``, given to ``name``; a copy of it (of an array or a list) kept beside, under GIVEN_PREFIX, so that the
    judge sees whether the script changed it after."""
    namespace[GIVEN_PREFIX + name] = np.array(value, copy=True) if isinstance(value, (np.ndarray, list)) else value
    return value


def unchanged(value: object) -> object:
    """``value`` itself: a given input only kept (:func:`given`), on a run that replaces nothing of it."""
    return value


def scaled(W: object) -> np.ndarray:
    """The value projection times :data:`VALUE_SCALE`, in its own dtype."""
    W = np.asarray(W)
    return W * W.dtype.type(VALUE_SCALE) if W.dtype.kind == "f" else W * VALUE_SCALE


def varying_offset(pos: object, X: object) -> np.ndarray:
    """A per-slot signal in place of a constant offset: under it the shuffle gap is large.

    Shape: the learner's own when it has a token axis ((T, C), (T, 1),
    (1, T, C), (B, T, C)), otherwise (T, C), which broadcasts against X.
    """
    if X is None:
        raise NameError("the rerun replaces pos where X is not defined yet")
    X = np.asarray(X)
    T, C = X.shape[-2], X.shape[-1]
    pos = np.asarray(pos)
    shape = pos.shape if pos.ndim >= 2 and pos.shape[-2] == T else (T, C)
    t = np.arange(T, dtype=np.float64)[:, None]  # (T, 1)
    c = np.arange(shape[-1], dtype=np.float64)[None, :]  # (1, C) or (1, 1)
    signal = 0.3 * t + 0.5 * np.cos(1.3 * t + 0.7 * c)  # differs at every slot, bounded per channel
    dtype = X.dtype if X.dtype.kind == "f" else np.float64
    return np.broadcast_to(signal, shape).astype(dtype)


def twins_alike(pos: object, X: object) -> np.ndarray:
    """The learner's per-slot signal with the second twin slot given the first's offset.

    With equal tokens *and* equal offsets the two twin rows must come out equal.
    """
    pos = np.array(pos)  # a copy: the learner's own array stays as it was
    a, b = TWIN_SLOTS
    if pos.ndim < 2 or pos.shape[-2] <= b:
        raise ValueError(f"pos of shape {pos.shape} has no token axis to rewrite")
    pos[..., b, :] = pos[..., a, :]
    return pos


# The rerun's own tokens come from a seed of their own, so that they are the
# same on every check (and in the separation test) and unrelated to any seed
# a learner uses.
REDRAW_SEED = 20170612


def redrawn(X: object) -> np.ndarray:
    """Other tokens of the same shape, dtype and size (root mean square) as the learner's.

    Comparisons that pair the same tokens on the learner's X by coincidence
    (the inverse reorder and no reorder, on a cycle of the shuffle) pair
    different ones on these.
    """
    return _drawn(np.asarray(X).shape, X)


def _drawn(shape: tuple[int, ...], like: object, which: int | None = None) -> np.ndarray:
    """Standard normal numbers of ``shape``, scaled to the root mean square of ``like`` and in its dtype (``which``: a draw of its own)."""
    like = np.asarray(like)
    size = float(np.sqrt(np.mean(np.square(like.astype(np.float64))))) if like.size else 1.0
    tokens = np.random.default_rng(REDRAW_SEED if which is None else [REDRAW_SEED, which]).standard_normal(shape) * (size or 1.0)
    return tokens.astype(like.dtype if like.dtype.kind == "f" else np.float64)


def more_rows(max_len: object) -> object:
    """learned-positions: a table three rows longer (11 for 8), so a length check with the starter's 8 typed in no longer matches the table.

    Not one of the answer's names: the separation test, which substitutes on
    the names alone, gets None back for None.
    """
    return None if max_len is None else int(max_len) + 3  # type: ignore[call-overload]


def vocabulary_past_the_table(V: object, max_len: object) -> object:
    """learned-positions: more symbols than four times the position table has rows (33 for 8), so that ids drawn from
    the table's lower half (:func:`other_ids`) pass the last row of a table three rows longer: a lookup that takes ids
    modulo the position table, or a check that refuses them, meets ids it cannot serve.

    None for None, as :func:`more_rows`.
    """
    if V is None:
        return None
    return max(int(V), 4 * int(max_len) + 1) if max_len is not None else int(V) + 27  # type: ignore[call-overload]


def one_word(X: object) -> np.ndarray:
    """The learner's tokens with every slot holding the first one, same shape and dtype: a sentence no shuffle changes."""
    X = np.asarray(X)
    return np.broadcast_to(X[..., :1, :], X.shape).astype(X.dtype if X.dtype.kind == "f" else np.float64)


def other_slope(slope: object) -> float:
    """three-families: a slope 1.5 times the learner's (0.75 for 0.5; 0.5 for none), so a bias with the slope typed in no longer fits."""
    value = float(slope)  # type: ignore[arg-type]
    return 1.5 * value if value else 0.5


# three-families' first rerun makes the slope this much fainter: the bias's gap shrinks to a few ten-thousandths of the
# mask's (7e-4 beside 2.0 on the starter's arrays), far above rounding all the same, so a line drawn at a share of the
# largest gap (rather than just above rounding) calls it no tell.
SLOPE_FAINT = 2.0**-12


def faint_slope(slope: object) -> float:
    """three-families: the learner's slope times :data:`SLOPE_FAINT` (0.5 times it for none)."""
    value = float(slope)  # type: ignore[arg-type]
    return SLOPE_FAINT * (value or 0.5)


# three-families: the one-word rerun shrinks the value projection by this power of two, so every gap shrinks with it,
# exactly: a real gap falls far below 0.1 (about 2e-4 on the starter's arrays) while rounding stays rounding.
VALUE_SHRINK = 2.0**-10


def shrunk(W: object) -> np.ndarray:
    """The value projection times :data:`VALUE_SHRINK`, in its own dtype."""
    W = np.asarray(W)
    return W * W.dtype.type(VALUE_SHRINK) if W.dtype.kind == "f" else W * VALUE_SHRINK


def zeroed(W: object) -> np.ndarray:
    """A projection of zeros, in the learner's dtype (``Wq`` of zeros: every score is 0, every output row the same)."""
    W = np.asarray(W)
    return np.zeros_like(W, dtype=W.dtype if W.dtype.kind == "f" else np.float64)


def shifted(perm: object) -> np.ndarray:
    """A shuffle by one slot (slot k gets token k − 1), as indices or as a permutation matrix, like the learner's.

    On it, reordering by the inverse never pairs the tokens reordering by the
    shuffle pairs (they would wherever the learner's perm swaps two tokens or
    leaves one in place), so the two comparisons give figures of their own.
    (k − 1 rather than k + 1: on the starter's arrays it also parts a signed
    max from the max of |…|, tests/checker/test_separation.py.)
    """
    perm = np.asarray(perm)
    T = perm.shape[0]
    indices = (np.arange(T) - 1) % T
    if perm.ndim == 2:
        return np.eye(T, dtype=perm.dtype)[indices]  # P @ X puts token k − 1 at slot k
    return indices.astype(perm.dtype if perm.dtype.kind in "iu" else np.int64)


def other_ids(ids: object, wte: object) -> np.ndarray:
    """embedding-backward and learned-positions: other ids of the same shape and dtype, from the lower half of the table so that many repeat.

    Every sentence opens with the same id, so a scatter buffered across the
    sentences at one position (``grad[ids[:, t]] += g[:, t]``) loses a
    gradient too: the starter's ids never repeat within a column.
    """
    ids, rows = np.asarray(ids), np.asarray(wte).shape[0]
    dtype = ids.dtype if ids.dtype.kind in "iu" else np.int64
    drawn = np.random.default_rng(REDRAW_SEED).integers(0, max(2, rows // 2 + 1), size=ids.shape)
    if drawn.ndim == 2 and drawn.shape[0] > 1:
        drawn[:, 0] = drawn[0, 0]  # every sentence opens with the same id (a BOS token): a repeat across sentences at one position
    if np.array_equal(drawn, ids) and rows > 1:  # a small table can draw the learner's own ids: the rerun must change them
        drawn = (ids.astype(np.int64) + 1) % rows
    return drawn.astype(dtype)


def longer_ids(ids: object, wte: object, wpe: object = None) -> np.ndarray:
    """:func:`other_ids` one token longer (one shorter where that would pass the position table ``wpe``): a T typed in no longer fits."""
    ids = np.asarray(ids)
    if ids.ndim == 0:
        return other_ids(ids, wte)
    T = ids.shape[-1]
    longest = np.asarray(wpe).shape[0] if wpe is not None else T + 1
    length = T + 1 if T + 1 <= longest else max(1, T - 1)
    template = np.zeros((*ids.shape[:-1], length), dtype=ids.dtype)
    return other_ids(template, wte)


def other_table(wte: object) -> np.ndarray:
    """embedding-backward: a token table of the learner's shape, dtype and size (root mean square), drawn from the
    rerun's own seed: a table the script draws again from its own seed (``default_rng(5)``) is no longer wte."""
    return _drawn(np.asarray(wte).shape, wte, which=5)


def redrawn_for(grad_out: object, ids: object) -> np.ndarray:
    """:func:`redrawn` gradients, one per token of the (changed) ``ids``: shape (*ids.shape, C)."""
    grad_out = np.asarray(grad_out)
    if ids is None or grad_out.ndim == 0:
        return redrawn(grad_out)
    return _drawn((*np.asarray(ids).shape, grad_out.shape[-1]), grad_out)


# NumPy keeps up to 7 freed buffers of each size under 1,024 bytes and hands them out again, last freed first.
POISONED_BUFFERS = 8


def poisoned_for(grad_out: object, ids: object, wte: object) -> np.ndarray:
    """embedding-backward: :func:`redrawn_for`, and NumPy's store of freed small buffers left holding NaN for arrays of
    wte's shape, in float64 and float32: an ``np.empty_like(wte)`` made next gets NaN where it is not written, rather
    than whatever its memory held (often zeros, or numbers too small to see); ``np.zeros_like`` clears them."""
    gradients = redrawn_for(grad_out, ids)
    shape = np.asarray(wte).shape if wte is not None else ()
    if len(shape) == 2:
        freed = [np.full(shape, np.nan, dtype=dtype) for dtype in (np.float32, np.float64) for _ in range(POISONED_BUFFERS)]
        del freed  # back to NumPy's store, float64 ones on top
    return gradients


def table_length_ids(long_ids: object, wpe: object) -> np.ndarray:
    """learned-positions: the learner's long sequence cut to exactly as many tokens as the position table has rows.

    A length check must let these through (T == max_len is legal); one
    written with ``>=`` refuses them.
    """
    ids, rows = np.asarray(long_ids), np.asarray(wpe).shape[0]
    dtype = ids.dtype if ids.dtype.kind in "iu" else np.int64
    return np.resize(ids.reshape(-1), (*ids.shape[:-1], rows)).astype(dtype)


def shorter_table(wpe: object, ids: object) -> np.ndarray:
    """learned-positions: the position table two rows shorter (never shorter than the batch's T; two longer where it
    cannot be), so that it no longer has the script's global max_len rows: a check against max_len rather than the
    table passed in misses what it must refuse."""
    table = np.asarray(wpe)
    if table.ndim != 2:
        return table
    T = np.asarray(ids).shape[-1] if np.asarray(ids).ndim else 1
    rows = table.shape[0] - 2
    if rows >= max(T, 1):
        return table[:rows].copy()
    return np.concatenate([table, _drawn((2, table.shape[1]), table, which=2)]).astype(table.dtype)


def one_past_ids(long_ids: object, wpe: object) -> np.ndarray:
    """learned-positions: the learner's long sequence made exactly one token longer than the position table: the
    smallest sequence that must be refused (a bound of ``max_len + 1`` lets it through); a batch of at least three of
    them, so that a refusal quoting ``ids.size`` as its tokens quotes another number than T (three, not two: a
    message may quote the run's batch, and "2 past the end" typed in must stay another number than it)."""
    ids, rows = np.asarray(long_ids), np.asarray(wpe).shape[0]
    dtype = ids.dtype if ids.dtype.kind in "iu" else np.int64
    batch = (max(3, ids.shape[0]), *ids.shape[1:-1]) if ids.ndim > 1 else ()
    return np.resize(ids.reshape(-1), (*batch, rows + 1)).astype(dtype)


def one_more_sentence(ids: object, wte: object, wpe: object = None) -> np.ndarray:
    """embedding-backward and learned-positions: :func:`longer_ids` with one more sentence (a batch size typed in no longer
    fits), whose ids after its first are the table's second and third last rows in turn: on a table three rows longer
    than the learner's, rows only the new size has (a one-hot or table sized by a V typed in falls short there), and
    the last row left unused (a gradient sized by the largest id, np.bincount without minlength, falls short of it)."""
    ids = np.asarray(ids)
    if ids.ndim != 2:
        return longer_ids(ids, wte, wpe)
    batch = longer_ids(np.zeros((ids.shape[0] + 1, ids.shape[1]), dtype=ids.dtype), wte, wpe)
    return _last_sentence_in_new_rows(batch, wte)


def _last_sentence_in_new_rows(batch: np.ndarray, wte: object) -> np.ndarray:
    """``batch`` with the ids of its last sentence after the first set to the table's second and third last rows in turn."""
    rows = np.asarray(wte).shape[0]
    if rows >= 3:
        batch[-1, 1:] = rows - 2 - np.arange(batch.shape[1] - 1) % 2  # rows − 2, rows − 3, rows − 2, …
    return batch


# embedding-backward's second rerun goes this far past the learner's sizes, past the caps a script may type in just
# above the starter's (3 sentences, block_size = 8 tokens, 8 channels, ids clipped to 15): 4 sentences of 11 tokens,
# 12 channels and 20 rows for the starter's (2, 5), 4 and 10.
MORE_SENTENCES, MORE_TOKENS, MORE_CHANNELS, MORE_ROWS = 2, 6, 8, 10


def many_more_rows(V: object) -> int:
    """embedding-backward: a table :data:`MORE_ROWS` rows longer."""
    return int(V) + MORE_ROWS  # type: ignore[call-overload]


def many_more_channels(C: object) -> int:
    """embedding-backward: a table :data:`MORE_CHANNELS` channels wider."""
    return int(C) + MORE_CHANNELS  # type: ignore[call-overload]


def larger_batch(ids: object, wte: object) -> np.ndarray:
    """embedding-backward: :func:`other_ids` for :data:`MORE_SENTENCES` sentences more of :data:`MORE_TOKENS` tokens
    more, the last one's ids after its first in two of the table's new rows in turn, as :func:`one_more_sentence` has
    them: for the starter's ids, ids 17 and 18 of 20 rows, each used five times (a cap on repeats, or ids clipped to a
    number typed in, loses some)."""
    ids = np.asarray(ids)
    if ids.ndim != 2:
        return longer_ids(ids, wte)
    batch = other_ids(np.zeros((ids.shape[0] + MORE_SENTENCES, ids.shape[1] + MORE_TOKENS), dtype=ids.dtype), wte)
    return _last_sentence_in_new_rows(batch, wte)


def table_filling_batch(ids: object, wte: object, wpe: object) -> np.ndarray:
    """learned-positions' larger rerun: :func:`other_ids` for :data:`MORE_SENTENCES` sentences more, each exactly as long
    as the position table (T == max_len is legal): for the starter's, 5 sentences of 11 tokens, past a cap typed in just
    above the first rerun's 4 and 6, and a gradient that drops the table's last row loses one the tokens used."""
    ids, table = np.asarray(ids), np.asarray(wpe)
    if ids.ndim != 2 or table.ndim != 2:
        return longer_ids(ids, wte, wpe)
    return other_ids(np.zeros((ids.shape[0] + MORE_SENTENCES, table.shape[0]), dtype=ids.dtype), wte)


# learned-positions: where refusal_noted leaves what refused a sequence, in the script's own globals (a contract's probe).
REFUSAL = "__attnpos_refusal__"
# ... and what the function answered, less its own answer, when given other tables: wte's entries one larger, wpe's two.
OWN_TABLES = "__attnpos_own_tables__"
TABLE_SHIFTS = (1.0, 2.0)
# ... and what refused a sequence of the checker's own, two tokens longer than the first one the function refused (a
# note as REFUSAL's; empty when it answered), with the sizes it was asked at: the ids' shape, then the table's.
OTHER_LENGTH = "__attnpos_other_length__"
OTHER_LENGTH_SIZES = "__attnpos_other_length_sizes__"
# ... and, when the function answered the ids it first refused with the table cut to its first row, how many tokens
# those were (empty when it refused them): a refusal that is NumPy's broadcast error re-raised lets (1, C) broadcast.
ONE_ROW = "__attnpos_one_row__"
# ... and, when the function answered ids WIDE_TOKENS long with a table of WIDE_ROWS rows but more channels than
# tokens, those three sizes (empty when it refused them): a check of max(wpe.shape), not its rows, lets them through.
WIDE_TABLE = "__attnpos_wide_table__"
WIDE_ROWS, WIDE_TOKENS = 3, 5
# ... and what refused those (a note as REFUSAL's): NumPy's error, where a check of the script's own global table (one
# as long as the ids' first call's, not these 3 rows) let them through.
WIDE_TABLE_REFUSAL = "__attnpos_wide_table_refusal__"
# ... and, when NumPy's error rather than a raise of the script's own refused a sequence, whether the code it came out
# of has a `raise` of its own further on, outside any `try` (1, else empty): a check placed after the lookup never runs.
CHECK_AFTER = "__attnpos_check_after__"
# ... and, when it answered those, whether it answered them with the table one channel wide too (1, empty when it refused):
# a check of max(wpe.shape) refuses them then; one of a length fixed before the call (a default argument
# `n_rows=wpe.shape[0]`, computed from the global table when the function was defined) answers again.
NARROW_TABLE = "__attnpos_narrow_table__"
# ... and, when the function answered a batch of several sequences longer than its table, what it did with the first of
# them alone (a note as REFUSAL's; empty when it answered that too): a check that runs for some batches only shows.
ONE_SEQUENCE = "__attnpos_one_sequence__"
# The opcode of a `raise` statement: the frame that raised was at one, rather than at NumPy's addition or indexing.
_RAISE = dis.opmap["RAISE_VARARGS"]


def refusal_noted(function: object) -> object:
    """learned-positions: ``add_positions`` as written, noting what each refusal was before it goes on to the script.

    The note is an array of bytes: 1 if a ``raise`` of the script's own
    (in the function's file) raised it, else 0 (NumPy's broadcast or index
    error), then ``Type: message`` in UTF-8, at most 200 bytes.

    After its first answer the function is called once more, on the same
    ids with other tables (``wte + 1``, ``wpe + 2``, copies), and the
    difference of the two answers is noted (:data:`OWN_TABLES`): 3
    everywhere when it uses the tables it is given, 0 when it reads the
    script's own. Nothing else changes: the function returns, or raises,
    exactly what it did.

    After its first refusal it is called once more, with ids of its own:
    the refused ones two tokens longer, the same tables (:data:`OTHER_LENGTH`).
    A message that quotes the script's global ``long_ids`` rather than the
    ids it is given then quotes another length than the sequence's. And
    with the refused ids and the table cut to its first row (:data:`ONE_ROW`),
    which it must refuse too: a one-row table broadcasts over any T.
    """
    if not callable(function):
        return function  # the script's own failure to define it is the first run's to report
    home = getattr(getattr(function, "__code__", None), "co_filename", None)
    namespace = getattr(function, "__globals__", None)

    @functools.wraps(function)
    def noted(*args: object, **kwargs: object) -> object:
        try:
            answer = function(*args, **kwargs)
        except Exception as error:
            if namespace is not None:
                namespace[REFUSAL] = _refusal_note(error, home)
                namespace[CHECK_AFTER] = np.ones(1, dtype=np.uint8) if _raise_further_on(error, home) else np.zeros(0, dtype=np.uint8)
                if OTHER_LENGTH not in namespace:
                    _asked_two_longer(function, args, kwargs, namespace, home)
                    _asked_with_one_row(function, args, kwargs, namespace)
            raise
        if namespace is not None and OWN_TABLES not in namespace:
            namespace[OWN_TABLES] = _with_other_tables(function, args, kwargs, answer)
            _asked_with_a_wide_table(function, args, namespace, home)
        if namespace is not None and ONE_SEQUENCE not in namespace:
            _asked_one_sequence(function, args, kwargs, namespace, home)
        return answer

    return noted


# rope: what apply_rope answered, less x itself, when asked again to turn the same x by positions all 0 (a probe).
ROPE_AT_ZERO = "__attnpos_rope_at_zero__"
# ... and x, its first answer and what it answered for the same x turned by other positions as many (ROPE_AT_OTHER,
# stacked), with the positions it was given and those others (ROPE_OTHER_POSITIONS, stacked, flattened).
ROPE_AT_OTHER = "__attnpos_rope_at_other__"
ROPE_OTHER_POSITIONS = "__attnpos_rope_other_positions__"
# ... and what it answered, less x, for x's last row left off and one position fewer, all 0 (ROPE_AT_ZERO's ask at
# another length): right there but not at x's own length, it keeps angles by the number of positions (a cache).
ROPE_AT_FEWER_ZEROS = "__attnpos_rope_at_fewer_zeros__"


def positions_followed(function: object) -> object:
    """rope: ``apply_rope`` as written, asked once more after its first answer to turn the same x by no position at all.

    What it answers then, less x, is noted (:data:`ROPE_AT_ZERO`): 0 when
    it turns by the positions it is given, a real turn when it reads the
    script's own (or builds a range). And asked to turn the same x by as
    many other positions, those it was given reversed and one slot on, so
    that none is where it was (:data:`ROPE_AT_OTHER`): an apply_rope that
    reads the script's own positions unless it is given zeros or another
    number of them answers as it first did. Nothing else changes: the
    function returns, or raises, exactly what it did.
    """
    if not callable(function):
        return function  # the script's own failure to define it is the first run's to report
    namespace = getattr(function, "__globals__", None)

    @functools.wraps(function)
    def noted(*args: object, **kwargs: object) -> object:
        answer = function(*args, **kwargs)
        if namespace is not None and ROPE_AT_ZERO not in namespace:
            namespace[ROPE_AT_ZERO] = _turned_by_no_position(function, args, kwargs, answer)
            namespace[ROPE_AT_FEWER_ZEROS] = _turned_by_fewer_zeros(function, args, answer)
            _turned_by_other_positions(function, args, kwargs, answer, namespace)
        return answer

    return noted


# rope: an x of the checker's own, what rotate_half answered for it and the x it was given as it was after the call,
# stacked (a probe); x alone when the answer is not of x's shape.
ROTATE_HALF_ASKED = "__attnpos_rotate_half__"
# ... and set once the script itself calls rotate_half (apply_rope does, in the brief's way).
ROTATE_HALF_CALLED = "__attnpos_rotate_half_called__"


# ... and about an x with a leading axis more (a probe, as ROTATE_HALF_ASKED): the brief's halves are the last axis's.
ROTATE_HALF_ASKED_BATCHED = "__attnpos_rotate_half_batched__"


# rope: how much wider than the head the x is that rotate_half is asked about, so that a split at the script's hs / 2
# rather than the middle of x's own last axis shows.
ROTATE_HALF_WIDER = 4


# ... the rows of the x with a leading axis more, this many more than its width: no axis's middle is another's (for
# the starter's head, 2, 15, 12: 1, 7, 6), so that a width read off another axis than the last (``len(x[0])``) shows,
# and which; and axis 1 split at the last axis's middle (``x[:, half:]``) is no empty slice.
ROTATE_HALF_BATCHED_MORE_ROWS = 3


def halves_noted(function: object) -> object:
    """rope: ``rotate_half`` as written, asked to rotate (w, w) of the numbers 1 … w², w = hs + ROTATE_HALF_WIDER
    (:data:`ROTATE_HALF_ASKED`; a call of the script's: :data:`ROTATE_HALF_CALLED`), and (2, w + 3, w) of the numbers
    1 … 2w(w + 3) (:data:`ROTATE_HALF_ASKED_BATCHED`), as :func:`_asked_and_noted` asks. Square and wider than the head: a
    split at hs / 2, or of the first axis where x is square, shows; and with a leading axis more, as Hugging Face's
    (batch, heads, T, hs) tensors have, a split of axis 1 (``x[:, half:]``), the last of a (T, hs) x only, shows, as
    does a width read off axis 1 (``len(x[0])``): every axis of that x has a length of its own."""

    def x_of_width(hs: int) -> tuple[np.ndarray, ...]:
        width = hs + ROTATE_HALF_WIDER
        return (np.arange(1.0, width * width + 1).reshape(width, width),)

    def batch_of_width(hs: int) -> tuple[np.ndarray, ...]:
        width = hs + ROTATE_HALF_WIDER
        rows = width + ROTATE_HALF_BATCHED_MORE_ROWS
        return (np.arange(1.0, 2 * rows * width + 1).reshape(2, rows, width),)

    return _asked_and_noted(function, {ROTATE_HALF_ASKED: x_of_width, ROTATE_HALF_ASKED_BATCHED: batch_of_width}, ROTATE_HALF_CALLED)


# rope: where a helper asked about an x of the checker's raised, the note's name plus this: ``Type: message`` in UTF-8
# (at most 200 bytes). Set where the ask raised at the script's own first call of the helper (every name it reads set
# by then), or, before any, with another error than a NameError (a name it reads set later in the script).
RAISED = "__raised__"


def _asked_and_noted(function: object, asks: dict[str, Callable[[int], tuple[np.ndarray, ...]]], called: str) -> object:
    """``function`` as written, asked about each x of the checker's own as soon as it is defined (or, where it cannot
    be yet, before its first call), whether or not the script ever calls it.

    Each ask is ``asks[name](hs)``, (x, *more), hs the width of the
    script's ``Wq`` (8 where it has none); x is passed as a copy with
    copies of ``more``; x, the answer and that copy after the call (another
    x where the function changed its argument in place) are noted under
    the ask's name, what it raised under that name plus :data:`RAISED`,
    and a call of the script's under ``called``. Nothing else changes: the
    function returns, or raises, exactly what it did.
    """
    if not callable(function) or getattr(function, "__globals__", None) is None:
        return function  # the script's own failure to define it is the first run's to report
    namespace = function.__globals__  # type: ignore[attr-defined]

    def ask(at_a_call: bool) -> None:
        hs = int(np.shape(namespace.get("Wq"))[-1]) if np.ndim(namespace.get("Wq")) == 2 else 8
        for asked, arguments in asks.items():
            if asked in namespace:
                continue
            x, *more = arguments(hs)
            given = x.copy()
            try:
                answer = np.asarray(function(given, *(argument.copy() for argument in more)), dtype=np.float64)
            except Exception as error:
                if at_a_call or not isinstance(error, NameError):  # a NameError before any call: asked again at the first
                    namespace[asked + RAISED] = _refusal_note(error, None)[1:]
                continue
            namespace.pop(asked + RAISED, None)
            namespace[asked] = np.stack([x, answer, given]) if answer.shape == x.shape else x[None]

    ask(at_a_call=False)

    @functools.wraps(function)
    def noted(*args: object, **kwargs: object) -> object:
        ask(at_a_call=True)
        namespace[called] = np.ones(1)
        return function(*args, **kwargs)

    return noted


def _turned_by_no_position(function: object, args: tuple[object, ...], kwargs: dict[str, object], answer: object) -> np.ndarray:
    """What ``function`` answers for its x with every position 0, less that x; empty where it cannot be asked (its
    first argument is not the x it turned: another order of arguments is not taken for a wrong turn)."""
    try:
        if not args or np.shape(np.asarray(args[0])) != np.shape(np.asarray(answer)):
            return np.zeros(0)
    except Exception:  # an x or an answer with no shape (ragged, or an object of its own)
        return np.zeros(0)
    x = args[0]
    if len(args) >= 2:
        return _difference(lambda: function(x, np.zeros_like(np.asarray(args[1])), *args[2:], **kwargs), x)  # type: ignore[operator]
    if "positions" in kwargs:
        return _difference(lambda: function(x, **{**kwargs, "positions": np.zeros_like(np.asarray(kwargs["positions"]))}), x)  # type: ignore[operator]
    return np.zeros(0)


def _turned_by_fewer_zeros(function: object, args: tuple[object, ...], answer: object) -> np.ndarray:
    """What ``function`` answers for its (…, T, w) x less its last row, with T − 1 positions all 0, less that x; empty
    where it cannot be asked so (positions not one per row of x, given apart from x, or a single row) or refuses."""
    try:
        x, positions = np.array(args[0]), np.asarray(args[1])
        if x.shape != np.shape(np.asarray(answer)) or x.ndim < 2 or positions.shape != (x.shape[-2],) or x.shape[-2] < 2:
            return np.zeros(0)
    except Exception:  # fewer than two arguments, or an x with no shape
        return np.zeros(0)
    fewer = x[..., :-1, :]
    difference = _difference(lambda: function(fewer, np.zeros_like(positions[:-1]), *args[2:]), fewer)  # type: ignore[operator]
    return difference if difference.shape == fewer.shape else np.zeros(0)


def _turned_by_other_positions(function: object, args: tuple[object, ...], kwargs: dict[str, object], answer: object, namespace: dict) -> None:
    """Notes x, ``answer`` and what ``function`` answers for the same x with its positions reversed and one slot on
    (:data:`ROPE_AT_OTHER`), and those positions (:data:`ROPE_OTHER_POSITIONS`); nothing where it cannot be asked so
    (as :func:`_turned_by_no_position`) or where it refuses them."""
    try:
        x = np.asarray(args[0], dtype=np.float64)
        first = np.asarray(answer, dtype=np.float64)
        if x.shape != first.shape or (len(args) < 2 and "positions" not in kwargs):
            return
        given = np.asarray(args[1] if len(args) >= 2 else kwargs["positions"])
        other = np.flip(given) + 1  # reversed and one on: no position where it was, whatever they are
        if len(args) >= 2:
            again = function(np.array(args[0]), other, *args[2:], **kwargs)  # type: ignore[operator]  # a copy: x left alone
        else:
            again = function(np.array(args[0]), *args[1:], **{**kwargs, "positions": other})  # type: ignore[operator]
        turned = np.asarray(again, dtype=np.float64)
    except Exception:  # no x of a shape, or the function refused the other positions: the other checks tell
        return
    if turned.shape == x.shape:
        namespace[ROPE_AT_OTHER] = np.stack([x, first, turned])
        namespace[ROPE_OTHER_POSITIONS] = np.stack([given.astype(np.float64).reshape(-1), other.astype(np.float64).reshape(-1)])


def _with_other_tables(function: object, args: tuple[object, ...], kwargs: dict[str, object], answer: object) -> np.ndarray:
    """What ``function`` answers with every table entry moved (wte by 1, wpe by 2), less ``answer``; empty where it cannot be asked."""

    def moved(table: object, by: float) -> np.ndarray:
        table = np.asarray(table)
        return table + table.dtype.type(by) if table.dtype.kind == "f" else table + by

    if len(args) >= 3:
        return _difference(lambda: function(args[0], moved(args[1], TABLE_SHIFTS[0]), moved(args[2], TABLE_SHIFTS[1]), *args[3:], **kwargs), answer)  # type: ignore[operator]
    if "wte" in kwargs and "wpe" in kwargs:
        tables = {"wte": moved(kwargs["wte"], TABLE_SHIFTS[0]), "wpe": moved(kwargs["wpe"], TABLE_SHIFTS[1])}
        return _difference(lambda: function(*args, **{**kwargs, **tables}), answer)  # type: ignore[operator]
    return np.zeros(0)


def _asked_two_longer(function: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object], namespace: dict, home: str | None) -> None:
    """Notes what ``function`` does with the ids it refused made two tokens longer (their own ids repeated), the same
    tables: :data:`OTHER_LENGTH` and :data:`OTHER_LENGTH_SIZES`; nothing where it cannot be asked so."""
    try:
        ids = np.asarray(args[0] if args else kwargs["ids"])
        table = np.asarray(args[2] if len(args) >= 3 else kwargs["wpe"])
    except Exception:  # called otherwise than (ids, wte, wpe): not asked
        return
    if ids.ndim == 0 or ids.size == 0 or table.ndim != 2:
        return
    longer = np.resize(ids.reshape(-1), (*ids.shape[:-1], ids.shape[-1] + 2)).astype(ids.dtype)
    namespace[OTHER_LENGTH_SIZES] = np.array([*longer.shape, *table.shape], dtype=np.int64)
    try:
        if args:
            function(longer, *args[1:], **kwargs)
        else:
            function(**{**kwargs, "ids": longer})
    except Exception as error:
        namespace[OTHER_LENGTH] = _refusal_note(error, home)
        return
    namespace[OTHER_LENGTH] = np.zeros(0, dtype=np.uint8)


def _asked_with_a_wide_table(function: Callable[..., object], args: tuple[object, ...], namespace: dict, home: str | None) -> None:
    """Notes whether ``function`` answers WIDE_TOKENS of the ids it answered with a table of WIDE_ROWS rows and more
    channels than tokens, the token table widened to match (:data:`WIDE_TABLE`), and what refused them where it did
    not (:data:`WIDE_TABLE_REFUSAL`); where it answered them, whether it answers them one channel wide too
    (:data:`NARROW_TABLE`); nothing where it cannot be asked so."""
    if len(args) < 3:
        return  # called otherwise than (ids, wte, wpe): not asked
    try:
        ids, wte, wpe = (np.asarray(argument) for argument in args[:3])
        if ids.ndim == 0 or ids.size == 0 or wte.ndim != 2 or wpe.ndim != 2 or wpe.shape[0] < 1:
            return
        width = max(WIDE_TOKENS + 1, wte.shape[1])  # more channels than tokens, so more than rows too
        columns = np.arange(width) % wte.shape[1]
        wide_ids = np.resize(ids.reshape(-1), (1, WIDE_TOKENS)).astype(ids.dtype)
        wide_wte, wide_wpe = wte[:, columns].copy(), np.resize(wpe[:, columns], (WIDE_ROWS, width)).astype(wpe.dtype)
    except Exception:  # tables that are no arrays of numbers: not asked
        return
    try:
        function(wide_ids, wide_wte, wide_wpe, *args[3:])
    except Exception as error:
        namespace[WIDE_TABLE] = np.zeros(0, dtype=np.int64)
        namespace[WIDE_TABLE_REFUSAL] = _refusal_note(error, home)
        return
    namespace[WIDE_TABLE] = np.array([WIDE_TOKENS, WIDE_ROWS, width], dtype=np.int64)
    try:
        function(wide_ids, wide_wte[:, :1].copy(), wide_wpe[:, :1].copy(), *args[3:])
    except Exception:
        namespace[NARROW_TABLE] = np.zeros(0, dtype=np.int64)
        return
    namespace[NARROW_TABLE] = np.ones(1, dtype=np.int64)


def _asked_one_sequence(function: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object], namespace: dict, home: str | None) -> None:
    """Notes what ``function``, having answered a batch of sequences longer than its table, does with the first of them
    alone (:data:`ONE_SEQUENCE`); nothing where it answered no such batch or cannot be asked so."""
    try:
        ids = np.asarray(args[0] if args else kwargs["ids"])
        table = np.asarray(args[2] if len(args) >= 3 else kwargs["wpe"])
    except Exception:  # called otherwise than (ids, wte, wpe): not asked
        return
    if ids.ndim < 2 or ids.shape[0] < 2 or table.ndim != 2 or ids.shape[-1] <= table.shape[0]:
        return  # one sequence, or one the table has rows for: nothing to ask
    try:
        if args:
            function(ids[:1], *args[1:], **kwargs)
        else:
            function(**{**kwargs, "ids": ids[:1]})
    except Exception as error:
        namespace[ONE_SEQUENCE] = _refusal_note(error, home)
        return
    namespace[ONE_SEQUENCE] = np.zeros(0, dtype=np.uint8)


def _asked_with_one_row(function: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object], namespace: dict) -> None:
    """Notes whether ``function`` answers the ids it refused with only the first row of their table (:data:`ONE_ROW`);
    nothing where it cannot be asked so."""
    try:
        ids = np.asarray(args[0] if args else kwargs["ids"])
        table = np.asarray(args[2] if len(args) >= 3 else kwargs["wpe"])
    except Exception:  # called otherwise than (ids, wte, wpe): not asked
        return
    if ids.ndim == 0 or table.ndim != 2 or table.shape[0] < 2:
        return
    one_row = table[:1].copy()
    try:
        if len(args) >= 3:
            function(*args[:2], one_row, *args[3:], **kwargs)
        else:
            function(*args, **{**kwargs, "wpe": one_row})
    except Exception:
        namespace[ONE_ROW] = np.zeros(0, dtype=np.int64)
        return
    namespace[ONE_ROW] = np.array([ids.shape[-1]], dtype=np.int64)


def _difference(again: Callable[[], object], than: object) -> np.ndarray:
    """What ``again()`` answers less ``than``, in float64; empty where it raises (the function refused the other
    inputs) or answers something no difference can be taken of."""
    try:
        difference = np.asarray(again(), dtype=np.float64) - np.asarray(than, dtype=np.float64)
    except Exception:
        return np.zeros(0)
    return difference if difference.ndim else np.zeros(0)


def _raise_further_on(error: BaseException, home: str | None) -> bool:
    """Whether ``error``, not raised by a `raise` of the script's own, came out of code of the script's (the deepest
    frame in ``home``) that holds a `raise` with an exception after the instruction that failed, where no `try` covers
    that instruction (so no handler's raise is counted): a check the failure stopped short of."""
    frame = None
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == home:
            frame = trace
        trace = trace.tb_next
    if frame is None:
        return False
    code, failed = frame.tb_frame.f_code, frame.tb_lasti
    tries = getattr(dis.Bytecode(code), "exception_entries", None)  # Python 3.11's exception table (typeshed lists it not)
    if tries is None or code.co_code[failed] == _RAISE or any(entry.start <= failed < entry.end for entry in tries):
        return False  # (before 3.11 there is no table to tell a handler's raise by: nothing is claimed)
    return any(step.opcode == _RAISE and step.arg and step.offset > failed for step in dis.get_instructions(code))


def _refusal_note(error: BaseException, home: str | None) -> np.ndarray:
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next  # the deepest frame: where the error was raised
    own = trace is not None and trace.tb_frame.f_code.co_filename == home and trace.tb_frame.f_code.co_code[trace.tb_lasti] == _RAISE
    try:
        said = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    except Exception:  # a learner's __str__ may raise
        said = type(error).__name__
    return np.frombuffer(bytes([int(own)]) + said.encode("utf-8", "replace")[:200], dtype=np.uint8).copy()


def wider(C: object) -> int:
    """sinusoidal-table: four more channels (two more pairs)."""
    return int(C) + 4  # type: ignore[call-overload]


def longer(T: object) -> int:
    """sinusoidal-table and alibi: two positions more (two fewer past 64, within the checker's bounds), so a length typed in no longer fits."""
    length = int(T)  # type: ignore[call-overload]
    return length + 2 if length <= 64 else length - 2


def narrower(hs: object) -> int:
    """context-extension: a head a quarter as wide (32 for 128, below a width held to at least 64, ``max(hs, 64)``), or
    twice as wide below 16: a width typed in no longer fits."""
    width = int(hs)  # type: ignore[call-overload]
    return width // 4 if width >= 16 and width % 8 == 0 else width * 2


# context-extension's second rerun: a head of 392 channels, wider than the starter's 128 and than a width held to at most
# 256 (a buffer or a width typed for either no longer fits) and no power of two, where 2i/hs is no binary fraction
# (exponents rounded to float16 show) and a float step, np.arange(0, 1, 2 / 392), counts 197 pairs rather than 196.
UNEVEN_WIDTH = 392


def uneven_width(hs: object) -> int:
    """context-extension's second rerun: UNEVEN_WIDTH, or half of it (196, where a float step counts one pair too many as
    well) where the learner's head already has that width."""
    return UNEVEN_WIDTH // 2 if int(hs) == UNEVEN_WIDTH else UNEVEN_WIDTH  # type: ignore[call-overload]


# context-extension's second rerun: a factor of 40.625 (4096 tokens stretched to 166400), far above the starter's 4 and
# the 8, 16 or 32 of real configurations (a factor capped at any of them no longer fits), whose third decimal a factor
# rounded to one or two decimals loses, and which is neither whole nor a power of two.
FINER_FACTOR = 40.625


def finer_factor(factor: object) -> float:
    """context-extension's second rerun: FINER_FACTOR; 20.375 where the learner's factor is FINER_FACTOR."""
    return 20.375 if float(np.asarray(factor).reshape(-1)[0]) == FINER_FACTOR else FINER_FACTOR


# context-extension's second rerun: a base below the starter's 10000 (the first rerun's is above it), so a base held to
# at least 10000 (``max(rope_theta, 10000)``) no longer fits.
LOWER_THETA = 1000.0


def lower_theta(rope_theta: object) -> float:
    """context-extension's second rerun: LOWER_THETA, or a tenth of the learner's base where theirs is that low already."""
    theta = float(np.asarray(rope_theta).reshape(-1)[0])
    return theta / 10 if theta <= LOWER_THETA else LOWER_THETA


def farther(k: object, T: object) -> int:
    """sinusoidal-table: a shift two positions longer, still inside the table."""
    shift, length = int(k), int(T)  # type: ignore[call-overload]
    return shift + 2 if shift + 2 < length else max(1, shift - 1)


# The rope exercise's rerun moves every position this far on: a RoPE head's
# scores and outputs stay the same, its q and k do not.
POSITION_SHIFT = 1000


def shifted_positions(positions: object) -> np.ndarray:
    """The learner's positions moved POSITION_SHIFT slots on, in their own dtype."""
    positions = np.asarray(positions)
    return positions + positions.dtype.type(POSITION_SHIFT) if positions.dtype.kind in "iuf" else positions + POSITION_SHIFT


# Llama 3's RoPE base: another base for rope, so a rope_theta typed in (the starter's 10000) no longer fits.
OTHER_THETA = 500000.0


def other_theta(rope_theta: object) -> float:
    """rope: Llama 3's base, 500000 (10000 where the learner already has 500000)."""
    return 10000.0 if float(np.asarray(rope_theta).reshape(-1)[0]) == OTHER_THETA else OTHER_THETA


# context-extension's first rerun: Code Llama's and Qwen's base, above Llama 3's 500000, so a base held to at most a
# value between the two (``min(rope_theta, 6e5)``) no longer fits, nor one typed in.
HIGHER_THETA = 1e6


def higher_theta(rope_theta: object) -> float:
    """context-extension: HIGHER_THETA (10000 where the learner already has it)."""
    return 10000.0 if float(np.asarray(rope_theta).reshape(-1)[0]) == HIGHER_THETA else HIGHER_THETA


def other_head_count(n_heads: object) -> int:
    """Another head count for the alibi exercise's rerun, on the other branch of the slopes' rule.

    A power of two where the learner's is none (64, or 8 above 16 heads), so
    that both branches of get_slopes run, past the 8 … 15 heads that one typed
    8- and 16-head list fits, and past a power-of-two test written out as
    (1, 2, 4, 8, 16) or (1, …, 32) (brief-only round 12); else 20, or 6 for 16
    heads or more (the rerun's arrays stay no larger).
    """
    heads = int(np.asarray(n_heads).reshape(-1)[0])
    if heads < 1 or heads & (heads - 1):
        return 64 if heads < 16 else 8
    return 6 if heads >= 16 else 20


def uneven_head_count(n_heads: object) -> int:
    """A head count that is no power of two, for the alibi exercise's second rerun, whose power of two below differs
    from the learner's and from :func:`other_head_count`'s: 6 (4 below it, its extra slopes from 8 heads: a count under
    8, where the power-of-two formula for small counts shows), else 12 (8 below, from 16), else 40 (32 below, from 64).
    So extra slopes taken from a list of a fixed size (the 16 heads that suit the starter's 12), a power-of-two test or a
    table typed for the counts the checker used to try do not follow; a power below capped at 16 or 32, a table typed
    for some counts and a BLOOM-like count's extra slopes meet :data:`MANY_HEADS`."""
    heads = int(np.asarray(n_heads).reshape(-1)[0])
    taken = {_power_below(heads), _power_below(other_head_count(heads))}
    return next(uneven for uneven in UNEVEN_HEAD_COUNTS if _power_below(uneven) not in taken)


# Each has another power of two below it: some one of them has a power below that neither of two other counts has.
# Smallest first: the rerun's (H, T, T) arrays grow with the count, and a loop answer's time with them.
UNEVEN_HEAD_COUNTS = (6, 12, 40)


def _power_below(heads: int) -> int:
    return 2 ** int(np.floor(np.log2(heads))) if heads >= 1 else 1


# alibi's second rerun runs past 128 positions: an int8 position wraps there, and a distance clipped anywhere short of
# it stops growing. (H, T, T) at 6 heads and 130 tokens is 101,400 entries.
FAR_LENGTH = 130


def far_longer(T: object) -> int:
    """alibi: FAR_LENGTH tokens (one more where the learner already has that many)."""
    return FAR_LENGTH + 1 if int(np.asarray(T).reshape(-1)[0]) == FAR_LENGTH else FAR_LENGTH


# alibi's fourth rerun: more heads than a table typed for 1 … 64 (or of powers of two up to 1024) holds, past a
# power-of-two formula kept for counts above 200, no power of two though a multiple of 512 (7 · 512: a power-of-two
# test written as n % 8 == 0 calls it one), and so many above the power below (3584 − 2048 = 1536) that every other
# slope of that power's first half alone, get_slopes(4096)[0:2048:2], gives too few extra slopes (1024). Few tokens, so
# that the (H, T, T) arrays stay small: 89,600 entries.
MANY_HEADS = 3584
FEW_TOKENS = 5


def many_head_count(n_heads: object) -> int:
    """alibi: MANY_HEADS (whatever the learner's count: the judge takes 64 at most from a script as written)."""
    return MANY_HEADS


def few_tokens(T: object) -> int:
    """alibi: FEW_TOKENS, for the rerun of MANY_HEADS heads."""
    return FEW_TOKENS


# alibi's third rerun: scores far from 0 and far apart. Every one is SCORE_OFFSET or more, and e^1000 overflows float64
# (past e^709.8), so a softmax that takes np.exp of the scores as they are gives inf / inf = NaN. Odd-numbered heads, and
# odd-numbered query rows, are SCORE_STEP higher, so a softmax that subtracts one number for a whole head or the whole
# array leaves some row 900 or more below it, all e^−900 = 0 there, 0 / 0 = NaN; and each head's last score (its last
# query row's last key, which that query sees) is SCORE_PEAK above the rest of its row, more than 709 above the row's
# mean for any T, so a softmax that subtracts each row's mean overflows there. One that subtracts each row's largest (the
# course's) is unchanged. And each head's first query row's last key, a key that query must not see, is SCORE_AHEAD above
# the rest of that row: a mask of M leaves it e^(M + SCORE_AHEAD), 0 in float64 only below e^−745, so the brief's −1e4
# (e^−800) and anything lower hide it, and a mask weaker than about −9,945 (−1000 or −5000, say) lets it through.
SCORE_OFFSET = 1000.0
SCORE_STEP = 900.0
SCORE_PEAK = 1500.0
SCORE_AHEAD = 9200.0


def redrawn_large(scores: object) -> np.ndarray:
    """alibi: :func:`redrawn` scores plus SCORE_OFFSET, SCORE_STEP more in odd-numbered heads and again in odd-numbered
    query rows, SCORE_PEAK more on each head's last score and SCORE_AHEAD more on its first row's last key, in their dtype."""
    drawn = redrawn(scores)
    raised = np.full(drawn.shape, SCORE_OFFSET)
    if drawn.ndim >= 2 and drawn.size:
        raised += SCORE_STEP * (np.arange(drawn.shape[-2]) % 2)[:, None]
        raised[..., -1, -1] += SCORE_PEAK
        if drawn.shape[-2] >= 2 and drawn.shape[-1] >= 2:
            raised[..., 0, -1] += SCORE_AHEAD
    if drawn.ndim >= 3:
        raised += SCORE_STEP * (np.arange(drawn.shape[0]) % 2).reshape(-1, *[1] * (drawn.ndim - 1))
    return (drawn + raised).astype(drawn.dtype)


# alibi's fifth rerun: one head and past 512 tokens, where a window of 256 or 512 keys, a distance clipped at 512 and
# uint8 positions (which wrap at 256) show. (1, 600, 600) is 360,000 entries.
LONG_LENGTH = 600


def one_head(n_heads: object) -> int:
    """alibi: a single head, so that LONG_LENGTH tokens stay cheap."""
    return 1


def long_length(T: object) -> int:
    """alibi: LONG_LENGTH tokens."""
    return LONG_LENGTH


def other_factor(factor: object) -> float:
    """Another context factor for the context-extension rerun: 1.5, neither whole nor a power of two, so a factor cut to
    a whole number (``int(factor)``, ``L_new // L``) or to whole doublings (``2 ** int(log2(factor))``) no longer fits,
    and below 2, so a factor held to at least 2 (``max(factor, 2)``) does not either; 2.5 where the learner's factor is
    1 or more and below 2 (where 1.5 would be theirs, or cut to theirs)."""
    return 2.5 if 1.0 <= float(np.asarray(factor).reshape(-1)[0]) < 2.0 else 1.5


def factor_of_2048ths(factor: object) -> float:
    """context-extension's rerun of the factor alone: 4778/2048 (2.3330078125, a context of 4,778 tokens for 2,048), no
    multiple of an eighth and of more digits than three decimals or float16 keep, so a factor rounded on the way shows;
    a new length taken as ``int(L * factor)`` for a trained L of 1,024 tokens or more keeps it whole, as the brief's
    ``m * L / L'`` reads. 4782/2048 where the learner's is already 4778/2048."""
    return 4782 / 2048 if float(np.asarray(factor).reshape(-1)[0]) == 4778 / 2048 else 4778 / 2048


def llama3_theta(rope_theta: object) -> float:
    """context-extension's rerun of the base alone: Llama 3's 500,000, no power of ten (a base snapped to one no longer
    fits); 10,000 where the learner already has it."""
    return 10000.0 if float(np.asarray(rope_theta).reshape(-1)[0]) == 500000.0 else 500000.0


def width_of_no_eighth(hs: object) -> int:
    """context-extension's rerun of the width alone: 100 channels (50 pairs), no multiple of 8, so a width rounded to
    one on the way no longer fits; 76 where the learner's is already 100."""
    return 76 if int(hs) == 100 else 100  # type: ignore[call-overload]


def other_bucket_count(num_buckets: object) -> int:
    """t5-buckets: 16 buckets, or 32 if the learner already has 16 or fewer."""
    return 32 if int(np.asarray(num_buckets).reshape(-1)[0]) <= 16 else 16


def other_max_distance(max_distance: object) -> int:
    """t5-buckets: max_distance 90, or 110 if the learner already has 90.

    Neither is a multiple of any bucket count's exact range (4, 8, 16), so
    ``log(max_distance // exact)`` parts from ``log(max_distance / exact)``.
    """
    return 110 if int(np.asarray(max_distance).reshape(-1)[0]) == 90 else 90


# t5-buckets' second rerun: sizes where a log taken in float16 lands some offsets in the neighbouring bucket, in both
# directions, while float32 (what PyTorch's T5 computes in) and float64 agree at every offset: no offset's log ratio
# lies within 128 float32 roundoffs (relative) of a bucket's edge. Every pairing of the two counts and two distances does both (searched, and held
# by tests/checker/test_rerun_only_mistakes.py); neither distance is a multiple of any exact range (16, 32, 64).
PRECISION_BUCKETS = (128, 64)
PRECISION_DISTANCES = (1597, 1588)
# Past either distance, and past the starter's 200: a lookup table or a range sized from the starter's offsets falls short.
FAR_REACH = (1700, 1800)


def _other_of(value: object, choices: tuple[int, int]) -> int:
    """The first choice, or the second if the learner already has the first."""
    return choices[1] if int(np.asarray(value).reshape(-1)[0]) == choices[0] else choices[0]


def precision_bucket_count(num_buckets: object) -> int:
    """t5-buckets: 128 buckets, or 64 if the learner already has 128."""
    return _other_of(num_buckets, PRECISION_BUCKETS)


def precision_max_distance(max_distance: object) -> int:
    """t5-buckets: max_distance 1597, or 1588 if the learner already has 1597."""
    return _other_of(max_distance, PRECISION_DISTANCES)


def far_offsets(offsets: object) -> np.ndarray:
    """t5-buckets: every offset from −1700 to 1700 (−1800 to 1800 if the learner's already reach 1700), int64."""
    reach = _other_of(np.max(np.abs(np.asarray(offsets))), FAR_REACH)
    return np.arange(-reach, reach + 1)


def other_token_count(T: object) -> int:
    """t5-buckets: three more tokens for the biases (three fewer past 200), so a size typed in does not follow."""
    tokens = int(np.asarray(T).reshape(-1)[0])
    return tokens - 3 if tokens > 200 else tokens + 3


def more_heads(n_heads: object) -> int:
    """t5-buckets: two more heads (two fewer past 60), so a head count typed in does not follow."""
    heads = int(np.asarray(n_heads).reshape(-1)[0])
    return heads - 2 if heads > 60 else heads + 2


# permutation-matrix's first rerun changes every size an answer could type: four more tokens, a head two channels
# wider and its values three (so T, T − 1, the head's width and the values' are four sizes, none X's width). The
# starter's √(T − 1) is its head width, and its values are as wide as its queries: sizes that change alike would let
# a scale read from either pass (brief-only round 10, issue 35).
PERMUTATION_MAX_SIZE = 64  # the contract's largest T and head width


def _resized(size: int) -> int:
    """Two more (two fewer at the contract's largest sizes)."""
    return size + 2 if size + 2 <= PERMUTATION_MAX_SIZE else size - 2


def _more_tokens(count: int) -> int:
    """permutation-matrix's token count: four more (four fewer at the contract's largest sizes)."""
    return count + 4 if count + 4 <= PERMUTATION_MAX_SIZE else count - 4


def more_tokens(X: object) -> np.ndarray:
    """permutation-matrix: other tokens, four more of them, of the learner's width, dtype and size (root mean square).

    A function of X's shape, dtype and size alone, so an answer that later
    rebinds X to its shuffled tokens (the same size) is judged on the very
    tokens this gave it.
    """
    X = np.asarray(X)
    return _drawn((_more_tokens(X.shape[0]), X.shape[1]), X)


def _wider(W: object, which: int, more: int = 0) -> np.ndarray:
    """A projection of the learner's rows, dtype and size, two columns wider (and ``more``), its own draw for each of q, k, v."""
    W = np.asarray(W)
    return _drawn((W.shape[0], _resized(W.shape[1]) + more), W, which)


def wider_query(Wq: object) -> np.ndarray:
    return _wider(Wq, 1)


def wider_key(Wk: object) -> np.ndarray:
    return _wider(Wk, 2)


def wider_value(Wv: object) -> np.ndarray:
    return _wider(Wv, 3, more=1)


def longer_shift(perm: object) -> np.ndarray:
    """permutation-matrix: a shuffle by one slot (slot k gets token k − 1) of the rerun's token count, in the learner's dtype."""
    perm = np.asarray(perm)
    T = _more_tokens(perm.shape[0])
    return ((np.arange(T) - 1) % T).astype(perm.dtype if perm.dtype.kind in "iu" else np.int64)


def no_shuffle(perm: object) -> np.ndarray:
    """permutation-matrix: the learner's first ⌈T/2⌉ slots, repeated to fill T: some tokens twice, the others never.

    No shuffle, so softmax(P S Pᵀ) and P softmax(S) Pᵀ differ, and so do
    the head on P @ X and P @ out: each side must be computed by its own
    formula to come out right, and a copy of the other side does not. Half
    the tokens stay distinct, so the arrays still tell the judge's other
    hypotheses apart.
    """
    perm = np.asarray(perm)
    T = perm.shape[0]
    kept = perm[np.arange(T) % ((T + 1) // 2)]
    return kept.astype(perm.dtype if perm.dtype.kind in "iu" else np.int64)


# three-families' first rerun changes the sentence's sizes too: two more tokens, four more channels.
def _widened(size: int) -> int:
    """Four more channels (four fewer at the contract's largest widths), an even number staying even."""
    return size + 4 if size + 4 <= PERMUTATION_MAX_SIZE else size - 4


def resized_sentence(X: object) -> np.ndarray:
    """three-families: other tokens, two more of them and four channels wider, of the learner's dtype and size (root mean square)."""
    X = np.asarray(X)
    return _drawn((_resized(X.shape[-2]), _widened(X.shape[-1])), X)


def _more_rows(W: object, which: int) -> np.ndarray:
    """A projection of the learner's columns, dtype and size for the wider sentence: four more rows, its own draw."""
    W = np.asarray(W)
    return _drawn((_widened(W.shape[0]), W.shape[1]), W, which)


def zeroed_wider(Wq: object) -> np.ndarray:
    """three-families: a query projection of zeros for the wider sentence."""
    return np.zeros_like(_more_rows(Wq, 1))


def wider_key_rows(Wk: object) -> np.ndarray:
    return _more_rows(Wk, 2)


def wider_value_rows(Wv: object) -> np.ndarray:
    return _more_rows(Wv, 3)


def shifted_longer(perm: object) -> np.ndarray:
    """three-families: a shuffle by one slot of two more tokens, as indices or as a permutation matrix, like the learner's."""
    perm = np.asarray(perm)
    return shifted(np.zeros((_resized(perm.shape[0]),) * perm.ndim, dtype=perm.dtype))


# rope's second rerun: a head four channels wider (two more pairs), and positions with gaps between them.
def wider_rope_query(Wq: object) -> np.ndarray:
    return _wider_by_four(Wq, 1)


def wider_rope_key(Wk: object) -> np.ndarray:
    return _wider_by_four(Wk, 2)


def wider_rope_value(Wv: object) -> np.ndarray:
    """The values as wide as the queries and keys: the brief's every projection is (C, hs), and an `out` sized from hs is right."""
    return _wider_by_four(Wv, 3)


def _wider_by_four(W: object, which: int) -> np.ndarray:
    """A projection of the learner's rows, dtype and size, four columns wider (four narrower past 60), its own draw."""
    W = np.asarray(W)
    return _drawn((W.shape[0], _widened(W.shape[1])), W, which)


def gapped_positions(positions: object) -> np.ndarray:
    """The learner's positions with gaps opened between them, one more slot, two more, none, in turn (0 … 5 becomes 0, 2, 5, 6, 8, 11)."""
    positions = np.asarray(positions)
    gaps = np.cumsum(np.arange(positions.shape[-1]) % 3)
    return positions + gaps.astype(positions.dtype if positions.dtype.kind in "iuf" else np.int64)


# rope's second rerun also has more tokens: X's and positions' substitutes both count from the learner's token
# count, as the first of them to run saw it (the other may see X already longer, or positions built from that X).
_ROPE_TOKENS: dict[str, int] = {}
# Three more: with the head four channels wider, no straight line through the starter's (T, hs) = (6, 8) that a script
# might take hs from passes through the rerun's (9, 12) (two more would keep hs = 2·(T − 2)).
ROPE_MORE_TOKENS = 3


def more_rope_tokens(X: object) -> np.ndarray:
    """rope: other tokens, :data:`ROPE_MORE_TOKENS` more of them, of the learner's width, dtype and size (root mean square)."""
    X = np.asarray(X)
    if X.ndim < 2:
        return X  # no tokens to add: the judge reports X's shape
    tokens = _ROPE_TOKENS.setdefault("T", X.shape[-2]) + ROPE_MORE_TOKENS
    return _drawn((*X.shape[:-2], tokens, X.shape[-1]), X, which=4)


def gapped_longer_positions(positions: object) -> np.ndarray:
    """rope: :func:`gapped_positions` for :data:`ROPE_MORE_TOKENS` more tokens: the learner's positions continued one slot at a time after
    the last (unless they were built from the longer X already), then gaps opened between them."""
    positions = np.asarray(positions)
    if positions.ndim != 1 or positions.shape[0] == 0:
        return gapped_positions(positions)
    tokens = _ROPE_TOKENS.setdefault("T", positions.shape[0]) + ROPE_MORE_TOKENS
    if positions.shape[0] < tokens:
        more = positions[-1] + np.arange(1, tokens - positions.shape[0] + 1)
        positions = np.concatenate([positions, more.astype(positions.dtype if positions.dtype.kind in "iuf" else np.int64)])
    return gapped_positions(positions)


# rope: an x of the checker's own, what apply_rope answered for it at ROPE_ASKED_POSITIONS and the x it was given as it
# was after the call, stacked (a probe); x alone when the answer is not of x's shape. And set once the script itself
# calls apply_rope. The positions do not increase, so that an apply_rope that sorts them shows.
APPLY_ROPE_ASKED = "__attnpos_apply_rope_asked__"
APPLY_ROPE_CALLED = "__attnpos_apply_rope_called__"
ROPE_ASKED_POSITIONS = (0, 5, 1)
# ... and the same x turned by positions far past any the script's runs use (:data:`APPLY_ROPE_FAR`): a cap on the
# positions (``np.minimum(positions, 4095)``), or a branch for large ones, shows.
APPLY_ROPE_FAR = "__attnpos_apply_rope_far__"
ROPE_FAR_POSITIONS = (10000, 5000, 7001)
# ... and an x of two such, stacked (:data:`APPLY_ROPE_BATCHED`), turned by :data:`ROPE_ASKED_POSITIONS`: the brief's
# turn is of the last axis, whatever axes come before (Hugging Face's tensors are (batch, heads, T, hs)).
APPLY_ROPE_BATCHED = "__attnpos_apply_rope_batched__"


def rope_asked(function: object) -> object:
    """rope: ``apply_rope`` as written, asked to turn (3, hs) of the numbers 1 … 3·hs over 3·hs by
    :data:`ROPE_ASKED_POSITIONS` (:data:`APPLY_ROPE_ASKED`; a call of the script's: :data:`APPLY_ROPE_CALLED`), and
    by :data:`ROPE_FAR_POSITIONS` (:data:`APPLY_ROPE_FAR`), and two such x stacked (:data:`APPLY_ROPE_BATCHED`), as
    :func:`_asked_and_noted` asks."""

    def x_of_width(width: int) -> np.ndarray:
        return np.arange(1.0, 3 * width + 1).reshape(3, width) / (3 * width)

    asks: dict[str, Callable[[int], tuple[np.ndarray, ...]]] = {
        APPLY_ROPE_ASKED: lambda width: (x_of_width(width), np.array(ROPE_ASKED_POSITIONS)),
        APPLY_ROPE_FAR: lambda width: (x_of_width(width), np.array(ROPE_FAR_POSITIONS)),
        APPLY_ROPE_BATCHED: lambda width: (np.stack([x_of_width(width), -x_of_width(width)]), np.array(ROPE_ASKED_POSITIONS)),
    }
    return _asked_and_noted(function, asks, APPLY_ROPE_CALLED)


# sinusoidal-table's rerun bends the learner's table once it is built: row t shrinks by BEND · (t / T)², so that
# pe[t + k] = M @ pe[t] no longer holds and an honest shift_error measured on it is clearly more than rounding. It
# shrinks, so that the largest difference is a negative one (the slowest pair's cosine, near 1, shrunk most): a signed
# maximum, no |·|, falls short of it.
BEND = 2.0**-6


def bent_table(pe: object) -> np.ndarray:
    """The learner's table with row t scaled by 1 − BEND · (t / T)², in its own dtype (a float64 copy of a whole-number table)."""
    pe = np.asarray(pe)
    if pe.ndim < 2 or pe.shape[-2] == 0:
        return pe  # no rows to bend: the judge reports the table's shape
    rows = pe.shape[-2]
    scale = 1 - BEND * (np.arange(rows, dtype=np.float64) / rows) ** 2  # (T,)
    return _in_place(pe, (pe * scale[:, None]).astype(pe.dtype if pe.dtype.kind == "f" else np.float64))


def _in_place(pe: np.ndarray, bent: np.ndarray) -> np.ndarray:
    """``bent`` written into the learner's own array where it can hold it (a writable float array of that shape), so
    that every name bound to that same array (``pe = table``) sees the bend; else ``bent`` itself. A copy made before
    the bend does not see it."""
    if pe.flags.writeable and pe.shape == bent.shape and pe.dtype == bent.dtype:
        pe[...] = bent
        return pe
    return bent


# ... and its second rerun bends the other way, more strongly, so that the first rows' errors are apart by more than
# float32's rounding of the figure (2·BEND_FIRST·k/T² from one row to the next).
BEND_FIRST = 2.0**-2


def bent_first(pe: object) -> np.ndarray:
    """sinusoidal-table's second bend: row t scaled by 1 + BEND_FIRST · (1 − t / T)², largest at the first row, in the
    learner's dtype. Its shift error is largest at t = 0 where :func:`bent_table`'s is largest at the last t, so a maximum taken
    over some rows only (the first left out, or the last) falls short on one bend or the other."""
    pe = np.asarray(pe)
    if pe.ndim < 2 or pe.shape[-2] == 0:
        return pe  # no rows to bend: the judge reports the table's shape
    rows = pe.shape[-2]
    scale = 1 + BEND_FIRST * (1 - np.arange(rows, dtype=np.float64) / rows) ** 2  # (T,)
    return _in_place(pe, (pe * scale[:, None]).astype(pe.dtype if pe.dtype.kind == "f" else np.float64))


def five_longer(T: object) -> int:
    """sinusoidal-table's third rerun: five positions more, so that with a shift two longer T − k grows by three and a
    T − k typed in no longer fits (the other reruns grow T and k alike)."""
    return int(T) + 5  # type: ignore[call-overload]


# sinusoidal-table's fourth rerun goes far past the starter's sizes, and in another proportion: T this many positions
# longer, C this many channels wider (48 and 98 for the starter's 12 and 8), and k 1 (2 where the script's is 1). No
# relation among T, C and k that holds at the starter's sizes and on the other reruns (k = C/2 − 1, T − k = C + 1)
# holds there; caps typed in at 16 or 32 rows or 8 pairs fall short; a float step, np.arange(0, 1, 2 / 98), counts 50
# pairs where there are 49 (white-box round 24); and the slowest pairs turn about 1e-4 radians a step, so a block taken
# for the identity below some angle, or M's small entries zeroed, shows. Small still: (48, 98).
FAR_POSITIONS, FAR_CHANNELS = 36, 90


def far_more_positions(T: object) -> int:
    """sinusoidal-table's fourth rerun: :data:`FAR_POSITIONS` positions more."""
    return int(T) + FAR_POSITIONS  # type: ignore[call-overload]


def far_more_channels(C: object) -> int:
    """sinusoidal-table's fourth rerun: :data:`FAR_CHANNELS` channels more."""
    return int(C) + FAR_CHANNELS  # type: ignore[call-overload]


def shortest_shift(k: object) -> int:
    """sinusoidal-table's fourth rerun: a shift of one position (two where the script's is one, so that it changes)."""
    return 2 if int(k) == 1 else 1  # type: ignore[call-overload]


# sinusoidal-table's third rerun bends the learner's table in a few cells only, each one channel pair of one row, by
# these shares of the entries' size: each lands on one difference row t of pe[t + k] − M @ pe[t] alone, and they
# halve from the largest down, so that the largest |difference| over any one part of the rows or pairs is a figure of
# its own (an entry of a pair is between 1/√2 and 1 of the pair's length, less than the factor 2 between two bumps).
BUMPS = {"largest": 2.0**-2, "last pair": 2.0**-3, "even row": 2.0**-4, "last row": 2.0**-5, "second row": 2.0**-6}


def bumped_cells(rows: int, pairs: int, k: int) -> list[tuple[int, int, float]]:
    """Where :func:`bent_in_places` bends a table of ``rows`` rows and ``pairs`` channel pairs for a shift ``k``: (table
    row, pair, share), in the order of :data:`BUMPS`.

    With n = rows − k difference rows: the largest at the odd row of n − 3 and n − 2 (inside, and past a T − k
    three smaller), in pair 1; the same row's last pair; the even one of those rows, pair 1; the last row, n − 1; and
    row 1. A difference row t ≥ n − k is bent through the table's row t + k, which no pe[t] reads; one below k
    through row t, which no pe[t + k] reads.
    """
    n = rows - k
    if n < 5 or pairs < 3:
        return []  # too few rows or pairs for each bump to sit apart: the judge finds no part of them left out
    odd, even = (n - 3, n - 2) if (n - 3) % 2 else (n - 2, n - 3)
    places = [(odd, 1), (odd, pairs - 1), (even, 1), (n - 1, 1), (1, 1)]
    return [(t + k if t >= min(k, n - k) else t, pair, share) for (t, pair), share in zip(places, BUMPS.values(), strict=True)]


def bent_in_places(pe: object, k: object) -> np.ndarray:
    """sinusoidal-table's third bend: the cells of :func:`bumped_cells` pushed away from 0 by their share of the
    entry's size (x + share·|x|), so that every difference they make is positive and no signed maximum falls short; in
    the learner's dtype."""
    pe = np.asarray(pe)
    if pe.ndim < 2 or pe.shape[-1] < 2:
        return pe  # no pairs to bend: the judge reports the table's shape
    bent = pe.astype(np.float64)
    for row, pair, share in bumped_cells(pe.shape[-2], pe.shape[-1] // 2, int(k)):  # type: ignore[call-overload]
        cell = bent[..., row, 2 * pair : 2 * pair + 2]
        cell += share * np.abs(cell)
    return _in_place(pe, bent.astype(pe.dtype if pe.dtype.kind == "f" else np.float64))


# sinusoidal-table's fourth rerun bends single channels at the middle difference row n // 2 (where a loop in two chunks
# skips its seam), by these amounts, each in one channel of one difference row alone: the largest in pair 0's sine, so
# that a maximum leaving out pair 0, the sines or that row falls short, and the next ones in pair 0's cosine, pair 1's
# sine and, one row up, pair 1's sine again, so that each of those three gives a figure of its own.
SEAM_BUMPS = {"pair 0 sine": (0, 0, 2.0**-2), "pair 0 cosine": (0, 1, 2.0**-3), "pair 1 sine": (0, 2, 2.0**-4), "row before": (-1, 2, 2.0**-5)}


def seam_cells(rows: int, channels: int, k: int) -> list[tuple[int, int, float]]:
    """Where :func:`bent_at_seam` bends: (difference row, channel, amount), in the order of :data:`SEAM_BUMPS`."""
    n = rows - k
    if n < 3 or channels < 4:
        return []  # too few rows or pairs for the bumps to sit apart
    return [(n // 2 + row, channel, amount) for row, channel, amount in SEAM_BUMPS.values()]


def bent_at_seam(pe: object, k: object, given_k: object = None) -> np.ndarray:
    """sinusoidal-table's fourth bend: each cell of :func:`seam_cells` raised in pe[t + k] by its amount, and the rows
    k, 2k, … further on raised by that amount turned on by M each time, so that every later difference row cancels
    and the bump shows in its own difference row and channel alone; in the learner's dtype.

    The bend needs the rerun's k. In the script it may run before the rerun's k is set (pe read before k is): then
    ``given_k`` (the rerun's k, as given) is still unset and ``k`` is the script's own, moved here as the rerun moves
    it, by :func:`shortest_shift`. The judge calls it with the rerun's k as both."""
    pe = np.asarray(pe)
    if pe.ndim != 2 or pe.shape[-1] < 4:
        return pe  # not a table: the judge reports the table's shape
    shift = int(given_k) if given_k is not None else shortest_shift(k)  # type: ignore[call-overload]
    return _raised(pe, seam_cells(pe.shape[0], pe.shape[1], shift), shift)


def _raised(pe: np.ndarray, cells: list[tuple[int, int, float]], shift: int) -> np.ndarray:
    """``pe`` with each (difference row t, channel, amount) of ``cells`` raised in pe[t + shift], and the rows shift,
    2·shift, … further on by that amount turned on by M each time, so that only difference row t shows it."""
    rows, channels = pe.shape
    bent = pe.astype(np.float64)
    for t, channel, amount in cells:
        pair = channel // 2
        angle = shift * BASE ** (-2 * pair / channels)
        turn = np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]])  # M's block for the pair
        bump = np.zeros(2)
        bump[channel % 2] = amount
        row = t + shift
        while row < rows:
            bent[row, 2 * pair : 2 * pair + 2] += bump
            bump = turn @ bump
            row += shift
    return _in_place(pe, bent.astype(pe.dtype if pe.dtype.kind == "f" else np.float64))


# sinusoidal-table's covering reruns, one per placement j, with the script's own sizes: the difference at t = j mod
# (T − k), channel j mod C raised the most, so that a maximum leaving out that row or that channel falls short there,
# and every row and channel is the largest in one of them (while T − k and C are at most COVERING_PLACEMENTS: the
# starter's 9 rows and 8 channels). Beside it, smaller, the same row two
# channels on (another pair) and the same channel one row on: left out, the row gives the second, the channel (or its
# pair, or only that entry) the first, so that the figure says which.
COVERING_PLACEMENTS = 9
# (3/32, not 1/16: no square of another amount, so that a maximum of squared differences matches none of them)
COVER_BUMPS = {"cell": 2.0**-2, "same row": 2.0**-3, "same channel": 3 * 2.0**-5}


def covered_cells(rows: int, channels: int, k: int, placement: int) -> list[tuple[int, int, float]]:
    """Where :func:`bent_in_one_cell` bends for ``placement``: (difference row, channel, amount), in the order of
    :data:`COVER_BUMPS`."""
    n = rows - k
    if n < 2 or channels < 4:
        return []  # too few rows or pairs for the bumps to sit apart
    t, channel = placement % n, placement % channels
    cell, same_row, same_channel = COVER_BUMPS.values()
    return [(t, channel, cell), (t, (channel + 2) % channels, same_row), ((t + 1) % n, channel, same_channel)]


def bent_in_one_cell(pe: object, k: object, given_k: object = None, placement: object = 0) -> np.ndarray:
    """sinusoidal-table's covering bend number ``placement``: the cells of :func:`covered_cells` raised as
    :func:`bent_at_seam` raises its own; in the learner's dtype. These reruns keep the script's sizes: its k as given,
    or its own where pe is read before k is set."""
    pe = np.asarray(pe)
    if pe.ndim != 2 or pe.shape[-1] < 4:
        return pe  # not a table: the judge reports the table's shape
    shift = int(given_k if given_k is not None else k)  # type: ignore[call-overload]
    return _raised(pe, covered_cells(pe.shape[0], pe.shape[1], shift, int(placement)), shift)  # type: ignore[call-overload]
