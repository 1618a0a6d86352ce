"""The values a rerun puts in place of a learner's inputs (see :mod:`rerun`).

This module is imported *inside the learner's process* by the rewritten
script, so it needs nothing but NumPy and the core. Each function gets the
learner's own values and returns one of the same kind (dtype, and shape
where the learner's code may rely on it).
"""

from __future__ import annotations

import numpy as np

from attnpos.core.permutation import TWIN_SLOTS

# A power of two: scaling the value matrix by it scales every output, and so
# every gap between outputs, exactly (floating point is exact under scaling
# by powers of two, barring overflow), whatever order the learner's code
# multiplies and adds in. A typed or copied figure does not scale.
VALUE_SCALE = 2.0**20


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
    X = np.asarray(X)
    size = float(np.sqrt(np.mean(np.square(X.astype(np.float64))))) or 1.0
    tokens = np.random.default_rng(REDRAW_SEED).standard_normal(X.shape) * size
    return tokens.astype(X.dtype if X.dtype.kind == "f" else np.float64)


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
    """embedding-backward and learned-positions: other ids of the same shape and dtype, from the lower half of the table so that many repeat."""
    ids, rows = np.asarray(ids), np.asarray(wte).shape[0]
    dtype = ids.dtype if ids.dtype.kind in "iu" else np.int64
    drawn = np.random.default_rng(REDRAW_SEED).integers(0, max(2, rows // 2 + 1), size=ids.shape)
    if np.array_equal(drawn, ids) and rows > 1:  # a small table can draw the learner's own ids: the rerun must change them
        drawn = (ids.astype(np.int64) + 1) % rows
    return drawn.astype(dtype)


def table_length_ids(long_ids: object, wpe: object) -> np.ndarray:
    """learned-positions: the learner's long sequence cut to exactly as many tokens as the position table has rows.

    A length check must let these through (T == max_len is legal); one
    written with ``>=`` refuses them.
    """
    ids, rows = np.asarray(long_ids), np.asarray(wpe).shape[0]
    dtype = ids.dtype if ids.dtype.kind in "iu" else np.int64
    return np.resize(ids.reshape(-1), (*ids.shape[:-1], rows)).astype(dtype)


def wider(C: object) -> int:
    """sinusoidal-table: four more channels (two more pairs)."""
    return int(C) + 4  # type: ignore[call-overload]


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


def other_head_count(n_heads: object) -> int:
    """Another head count for the alibi exercise's rerun: 20 (not a power of two), or 6 for 16 heads or more (the rerun's arrays stay no larger)."""
    return 6 if int(np.asarray(n_heads).reshape(-1)[0]) >= 16 else 20


def other_factor(factor: object) -> float:
    """Another context factor for the context-extension rerun: 8, or 2 if the learner already has 8."""
    return 2.0 if float(np.asarray(factor).reshape(-1)[0]) == 8.0 else 8.0


def other_bucket_count(num_buckets: object) -> int:
    """t5-buckets: 16 buckets, or 32 if the learner already has 16 or fewer."""
    return 32 if int(np.asarray(num_buckets).reshape(-1)[0]) <= 16 else 16


def other_max_distance(max_distance: object) -> int:
    """t5-buckets: max_distance 64, or 128 if the learner already has 64 or less."""
    return 128 if int(np.asarray(max_distance).reshape(-1)[0]) <= 64 else 64
