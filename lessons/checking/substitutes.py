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


# The rope exercise's rerun moves every position this far on: a RoPE head's
# scores and outputs stay the same, its q and k do not.
POSITION_SHIFT = 1000


def shifted_positions(positions: object) -> np.ndarray:
    """The learner's positions moved POSITION_SHIFT slots on, in their own dtype."""
    positions = np.asarray(positions)
    return positions + positions.dtype.type(POSITION_SHIFT) if positions.dtype.kind in "iuf" else positions + POSITION_SHIFT


def other_head_count(n_heads: object) -> int:
    """Another head count for the alibi exercise's rerun: 20 (not a power of two), or 6 if the learner already has 20."""
    return 6 if int(np.asarray(n_heads).reshape(-1)[0]) == 20 else 20


def other_factor(factor: object) -> float:
    """Another context factor for the context-extension rerun: 8, or 2 if the learner already has 8."""
    return 2.0 if float(np.asarray(factor).reshape(-1)[0]) == 8.0 else 8.0
