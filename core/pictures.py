"""The pictures of the position-signals screen: each signal as a small matrix to look at.

Every picture is float64 and small enough to draw in an 80×24 terminal; shapes
are in the docstrings. T is sequence length, C the width of a position vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnpos.core.learned_training import train_position_table
from attnpos.core.position import alibi_bias, alibi_slopes, learned_positions, learned_table, rope_rotate, sinusoidal

WIDTH = 16  # C: sixteen 2-character columns fit beside the row labels in 80 columns


def sinusoidal_matrix(T: int = 32, C: int = WIDTH) -> np.ndarray:
    """(T, C) the sinusoidal encoding itself: row t is the vector added at position t."""
    return sinusoidal(T, C)


@dataclass(frozen=True)
class DistanceProducts:
    """PE[p] · PE[p + k] for a few reference positions p and offsets k = 0, 1, …"""

    positions: np.ndarray  # (P,) reference positions p, as integers
    offsets: np.ndarray  # (K,) distances k, as integers
    products: np.ndarray  # (P, K) products[i, j] = PE[positions[i]] · PE[positions[i] + offsets[j]]


def sinusoidal_distance_products(positions: Sequence[int] = (0, 5, 10, 20), offsets: int = 24, C: int = WIDTH) -> DistanceProducts:
    """How alike two sinusoidal vectors k apart are, seen from several starting positions.

    Each channel pair contributes sin·sin + cos·cos = cos(k·ω), so every row is
    the same curve in k: C/2 at k = 0, falling with wobbles as k grows.
    """
    p = np.asarray(positions, dtype=int)  # (P,)
    k = np.arange(offsets)  # (K,)
    pe = sinusoidal(int(p.max()) + offsets, C)  # (p_max + K, C)
    products = np.einsum("pc,pkc->pk", pe[p], pe[p[:, None] + k[None, :]])  # (P, K)
    return DistanceProducts(positions=p, offsets=k, products=products)


@dataclass(frozen=True)
class LearnedLookup:
    """Looking up T positions in a learned table that only has max_len rows."""

    max_len: int
    values: np.ndarray  # (T, C): the table's rows; NaN where there is no trained row
    has_row: np.ndarray  # (T,) bool: False from position max_len on
    error: str | None  # what learned_positions raised for the full T, or None if it fit


def learned_lookup(T: int = 16, max_len: int = 12, C: int = WIDTH, seed: int = 0) -> LearnedLookup:
    """Ask a seeded learned table (`learned_table`) for T positions, T possibly past its end.

    The rows that exist are returned; positions ≥ max_len get NaN and
    has_row False, because `learned_positions` has nothing to give there.
    """
    table = learned_table(max_len, C, seed=seed)  # (max_len, C)
    values = np.full((T, C), np.nan)
    try:
        values[:] = learned_positions(table, T)
        error = None
    except IndexError as exc:
        # Keep what the table does have; the rest stays NaN.
        values[:max_len] = learned_positions(table, max_len)
        error = str(exc)
    return LearnedLookup(max_len=max_len, values=values, has_row=np.arange(T) < max_len, error=error)


def trained_lookup(T: int = 16, max_len: int = 12) -> LearnedLookup:
    """Lesson 7's training (`train_position_table`, sequences of 2 to 8) on a table of max_len rows, asked for T positions.

    Rows 0–7 hold what training made them, rows 8 … max_len−1 their
    untouched random start, and positions from max_len on have no row at all
    (NaN, has_row False). The same seed draws the same first rows as lesson
    7's 16-row table, so the rows shown are lesson 7's.
    """
    table = train_position_table(max_len=max_len).after  # (max_len, C)
    max_len = table.shape[0]
    values = np.full((T, table.shape[1]), np.nan)
    error = None
    try:
        values[:] = learned_positions(table, T)
    except IndexError as exc:
        values[:max_len] = learned_positions(table, max_len)
        error = str(exc)
    return LearnedLookup(max_len=max_len, values=values, has_row=np.arange(T) < max_len, error=error)


@dataclass(frozen=True)
class RopeScores:
    """RoPE scores q·k with q rotated to position m and k to position m + k."""

    starts: np.ndarray  # (M,) query positions m, as integers
    offsets: np.ndarray  # (K,) offsets k, as integers
    scores: np.ndarray  # (M, K) scores[i, j] = rope(q, starts[i]) · rope(k, starts[i] + offsets[j])


def rope_scores(starts: Sequence[int] = (0, 1, 2, 5, 10, 20, 50, 100), offsets: int = 16, d: int = WIDTH, seed: int = 0) -> RopeScores:
    """One fixed (seeded) query and key, scored at many absolute positions.

    Each column holds one offset k: it is the same for every m, because
    rotating both by m turns them together and the dot product sees only k.
    """
    q, k = np.random.default_rng(seed).standard_normal((2, d))  # (d,) each
    m = np.asarray(starts, dtype=int)  # (M,)
    offset = np.arange(offsets)  # (K,)
    key_positions = (m[:, None] + offset[None, :]).reshape(-1)  # (M·K,)
    rotated_q = rope_rotate(np.tile(q, (len(m), 1)), positions=m)  # (M, d)
    rotated_k = rope_rotate(np.tile(k, (len(key_positions), 1)), positions=key_positions)  # (M·K, d)
    rotated_k = rotated_k.reshape(len(m), offsets, d)  # (M, K, d)
    scores = np.einsum("md,mkd->mk", rotated_q, rotated_k)  # (M, K)
    return RopeScores(starts=m, offsets=offset, scores=scores)


@dataclass(frozen=True)
class AlibiPicture:
    """ALiBi's per-head slopes and the bias each head adds to its scores."""

    slopes: np.ndarray  # (H,)
    bias: np.ndarray  # (H, T, T) bias[h, i, j] = −slopes[h]·(i − j) for j ≤ i; NaN where the mask hides key j > i


def alibi_picture(n_heads: int = 8, T: int = 8) -> AlibiPicture:
    """The slopes (`alibi_slopes`) and the published, causal bias (`alibi_bias`) together.

    The masked cells (−inf in the bias) are NaN here, so a picture draws them
    as "no value" instead of as the far end of its colour scale.
    """
    bias = alibi_bias(n_heads, T)  # (H, T, T)
    return AlibiPicture(slopes=alibi_slopes(n_heads), bias=np.where(np.isfinite(bias), bias, np.nan))
