"""The values a rerun puts in place of a learner's inputs (see :mod:`rerun`).

This module is imported *inside the learner's process* by the rewritten
script, so it needs nothing but NumPy and the core. Each function gets the
learner's own values and returns one of the same kind (dtype, and shape
where the learner's code may rely on it).
"""

from __future__ import annotations

import numpy as np

from attnpos.core.experiments import TWIN_SLOTS

# A power of two: scaling the value matrix by it scales every output, and so
# every gap between outputs, exactly (floating point is exact under scaling
# by powers of two, barring overflow), whatever order the learner's code
# multiplies and adds in. A typed or copied figure does not scale.
VALUE_SCALE = 2.0 ** 20


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


def _ids_like(ids: object, shape: tuple[int, ...], rows: int, seed: int) -> np.ndarray:
    """Ids of ``shape`` in the learner's integer dtype, drawn from the lower half of ``rows`` so that many repeat."""
    dtype = np.asarray(ids).dtype if np.asarray(ids).dtype.kind in "iu" else np.int64
    return np.random.default_rng(seed).integers(0, max(2, rows // 2 + 1), size=shape).astype(dtype)


def other_ids(ids: object, wte: object) -> np.ndarray:
    """embedding-backward: one more sentence, one more token, other ids with repeats (and unused rows)."""
    ids, rows = np.asarray(ids), np.asarray(wte).shape[0]
    shape = (ids.shape[0] + 1, ids.shape[1] + 1) if ids.ndim == 2 else (ids.shape[-1] + 1,)
    return _ids_like(ids, shape, rows, seed=24)


def wider(C: object) -> int:
    """sinusoidal-table: four more channels (two more pairs)."""
    return int(C) + 4  # type: ignore[call-overload]


def farther(k: object, T: object) -> int:
    """sinusoidal-table: a shift two positions longer, still inside the table."""
    shift, length = int(k), int(T)  # type: ignore[call-overload]
    return shift + 2 if shift + 2 < length else max(1, shift - 1)


def other_batch(ids: object, wte: object) -> np.ndarray:
    """learned-positions: one more sequence, one token shorter (at least 2), other ids."""
    ids, rows = np.asarray(ids), np.asarray(wte).shape[0]
    B, T = (ids.shape[0], ids.shape[1]) if ids.ndim == 2 else (1, ids.shape[-1])
    dtype = ids.dtype if ids.dtype.kind in "iu" else np.int64
    return np.random.default_rng(25).integers(0, rows, size=(B + 1, max(2, T - 1))).astype(dtype)
