"""The sinusoidal encoding of Vaswani et al. (2017), taken apart.

PE[t, 2i] = sin(t·ω_i) and PE[t, 2i+1] = cos(t·ω_i) with ω_i = base^(−2i/C):
pair i is a point turning round the unit circle at ω_i radians a step. The
table itself is ``attnpos.core.sinusoidal``; this module holds the pieces the
lesson looks at. Channels are interleaved, (sin, cos) of pair i at 2i and
2i+1, as in the paper. Every function returns float64 arrays.
"""

from __future__ import annotations

import numpy as np

BASE = 10000.0


def pair_frequencies(C: int, base: float = BASE) -> np.ndarray:
    """(C/2,) ω_i = base^(−2i/C): pair i turns ω_i radians per position (Hugging Face's inv_freq)."""
    return base ** (-np.arange(0, C, 2, dtype=np.float64) / C)


def wavelengths(C: int, base: float = BASE) -> np.ndarray:
    """(C/2,) positions per full turn of each pair, 2π/ω_i: from 2π up to 2π·base^((C−2)/C)."""
    return 2 * np.pi / pair_frequencies(C, base)


def shift_blocks(k: float, C: int, base: float = BASE) -> np.ndarray:
    """(C/2, 2, 2) the diagonal blocks of M_k: pair i's is [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]].

    From sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = cos a cos b −
    sin a sin b, with (sin, cos) in the pair's two channels.
    """
    angle = k * pair_frequencies(C, base)  # (C/2,)
    c, s = np.cos(angle), np.sin(angle)
    return np.stack([np.stack([c, s], axis=-1), np.stack([-s, c], axis=-1)], axis=-2)


def shift_matrix(k: float, C: int, base: float = BASE) -> np.ndarray:
    """(C, C) M_k with PE[t + k] = M_k·PE[t] for every t: one 2×2 rotation per pair, zeros elsewhere.

    It depends on k alone, not on t.
    """
    M = np.zeros((C, C))
    for i, block in enumerate(shift_blocks(k, C, base)):
        M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = block
    return M


def shifted_by_blocks(pe: np.ndarray, k: float, base: float = BASE) -> np.ndarray:
    """(T, C) M_k·PE[t] for every row, pair by pair: the same as pe @ M_kᵀ without the (C, C) matrix."""
    T, C = pe.shape
    pairs = pe.reshape(T, C // 2, 2)  # (T, C/2, 2)
    return (shift_blocks(k, C, base)[None] * pairs[:, :, None, :]).sum(axis=-1).reshape(T, C)  # (T, C/2, 2) → (T, C)


def shift_error(pe: np.ndarray, M: np.ndarray, k: int) -> float:
    """max over t of |PE[t + k] − M·PE[t]| for a (T, C) table and a (C, C) matrix."""
    return float(np.max(np.abs(pe[k:] - pe[: len(pe) - k] @ M.T)))


def offset_products(C: int, offsets: np.ndarray, base: float = BASE) -> np.ndarray:
    """(K,) PE[t]·PE[t + k] = Σ_i cos(k·ω_i) for each offset k: the same at every t.

    sin a sin b + cos a cos b = cos(a − b), pair by pair.
    """
    k = np.asarray(offsets, dtype=np.float64)[:, None]  # (K, 1)
    return np.cos(k * pair_frequencies(C, base)[None, :]).sum(axis=1)


def to_halves(pe: np.ndarray) -> np.ndarray:
    """(T, C) the same table in concatenated halves: every sine first, then every cosine (tensor2tensor's layout)."""
    return np.concatenate([pe[:, 0::2], pe[:, 1::2]], axis=1)


def halves_order(C: int) -> np.ndarray:
    """(C,) the channel permutation from interleaved to halves: halves = interleaved[:, halves_order(C)]."""
    return np.concatenate([np.arange(0, C, 2), np.arange(1, C, 2)])


def binary_counter(T: int, bits: int) -> np.ndarray:
    """(T, bits) the bits of t = 0 … T−1, lowest bit first: the fastest-changing digit in column 0."""
    t = np.arange(T)[:, None]
    return ((t >> np.arange(bits)[None, :]) & 1).astype(np.float64)


def attention_terms(x_t: np.ndarray, p_t: np.ndarray, x_s: np.ndarray, p_s: np.ndarray, Wq: np.ndarray, Wk: np.ndarray) -> dict[str, float]:
    """The four parts of the score (x_t + p_t)·Wq·Wkᵀ·(x_s + p_s)ᵀ: content and position, each side.

    x_t, p_t, x_s, p_s: (C,); Wq, Wk: (C, hs). Unscaled; the four parts sum to the score.
    """
    A = Wq @ Wk.T  # (C, C)
    return {
        "content-content": float(x_t @ A @ x_s),
        "content-position": float(x_t @ A @ p_s),
        "position-content": float(p_t @ A @ x_s),
        "position-position": float(p_t @ A @ p_s),
    }
