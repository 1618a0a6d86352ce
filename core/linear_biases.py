"""ALiBi taught in full: slopes for any head count, the +m·j shortcut, the soft window.

The slopes and the published causal bias are `position.alibi_slopes` and
`position.alibi_bias`; this module adds what lesson 9 shows about them.
Float64 throughout; shapes in the docstrings. Heads are numbered from 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnpos.core.attention import causal_mask, softmax
from attnpos.core.permutation import equivariance_gap
from attnpos.core.position import alibi_bias, alibi_slopes, alibi_window, symmetric_alibi_bias


def shortcut_bias(n_heads: int, T: int, causal: bool = True) -> np.ndarray:
    """(H, T, T) the official code's +m·j, with the causal mask or (wrongly) without.

    +m·j differs from −m·(i − j) by m·i, one constant per row, which softmax
    ignores; the mask hides j > i. Without the mask later keys get the largest
    bias of all, and the shortcut is a different attention.
    """
    j = np.arange(T, dtype=np.float64)[None, None, :]  # (1, 1, T)
    bias = alibi_slopes(n_heads)[:, None, None] * np.broadcast_to(j, (1, T, T))  # (H, T, T)
    return bias + causal_mask(T) if causal else bias


def mass_beyond(slopes: np.ndarray, distance: int, T: int) -> np.ndarray:
    """(H,) the weight the last of T queries puts on keys more than ``distance`` back, scores all equal.

    With no content in the scores, row T−1's weights are softmax(−m·(T−1−j)),
    a geometric fall-off; this is the share left beyond the window.
    """
    back = np.arange(T, dtype=np.float64)  # (T,) distance of each key from the last query
    weights = softmax(-np.asarray(slopes, dtype=np.float64)[:, None] * back[None, :], axis=-1)  # (H, T)
    return weights[:, back > distance].sum(axis=1)


@dataclass(frozen=True)
class AlibiLessonResult:
    """Lesson 9's figures."""

    slopes8: np.ndarray  # (8,)
    slopes12: np.ndarray  # (12,) the official rule: the 8-head slopes, then every other of the 16-head ones
    naive12: np.ndarray  # (12,) 2^(−8h/12) for h = 1 … 12: not what the models use
    window_steep: float  # tokens back at which slope 1/2 divides a weight by 100
    window_gentle: float  # the same at 1/256
    mass_length: int  # the query is the last of this many tokens, its scores all equal but for the bias
    near: int
    mass_beyond_near: np.ndarray  # (8,) weight on keys more than `near` back, per head
    far: int
    mass_beyond_far: np.ndarray  # (8,) ... more than `far` back
    shortcut_masked_gap: float  # max|weights(−m(i−j), masked) − weights(+m·j, masked)|: rounding
    shortcut_unmasked_gap: float  # ... and with the shortcut's mask forgotten: large
    symmetric_reversal_gap: float  # −m|i − j| without the mask: blind to a reversal (rounding)
    published_reversal_gap: float  # the published form: sees it


def alibi_lesson_experiment(seed: int = 42, T: int = 6, near: int = 64, far: int = 1024, length: int = 2048) -> AlibiLessonResult:
    rng = np.random.RandomState(seed)  # lesson 1's draws
    X = rng.randn(1, T, 8)
    Wq, Wk, Wv = (rng.randn(8, 8) * 0.5 for _ in range(3))
    scores = np.random.default_rng(seed).standard_normal((8, T, T))  # (H, T, T) some content scores
    published = softmax(scores + alibi_bias(8, T))
    slopes8 = alibi_slopes(8)
    reverse = np.arange(T)[::-1]
    return AlibiLessonResult(
        slopes8=slopes8,
        slopes12=alibi_slopes(12),
        naive12=2.0 ** (-8.0 * np.arange(1, 13) / 12),
        window_steep=float(alibi_window(slopes8)[0]),
        window_gentle=float(alibi_window(slopes8)[-1]),
        mass_length=length,
        near=near,
        mass_beyond_near=mass_beyond(slopes8, near, length),
        far=far,
        mass_beyond_far=mass_beyond(slopes8, far, length),
        shortcut_masked_gap=float(np.max(np.abs(softmax(scores + shortcut_bias(8, T)) - published))),
        shortcut_unmasked_gap=float(np.max(np.abs(softmax(scores + shortcut_bias(8, T, causal=False)) - published))),
        symmetric_reversal_gap=equivariance_gap(X, Wq, Wk, Wv, reverse, bias=symmetric_alibi_bias(8, T)[0]),
        published_reversal_gap=equivariance_gap(X, Wq, Wk, Wv, reverse, bias=alibi_bias(8, T)[0]),
    )


def bias_only_weights(head: int, n_heads: int = 8, T: int = 8) -> np.ndarray:
    """(T, T) the weights of one ALiBi head when every content score is equal: the bias alone, causal."""
    return softmax(alibi_bias(n_heads, T)[head])


def unmasked_shortcut_weights(head: int, n_heads: int = 8, T: int = 8) -> np.ndarray:
    """(T, T) the same head with +m·j and the mask forgotten: every row leans on the last key."""
    return softmax(shortcut_bias(n_heads, T, causal=False)[head])
