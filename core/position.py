"""Position signals: what gets added to (or folded into) attention so it can see order.

Every function returns float64 arrays; shapes are in the docstrings.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # annotations only: numpy.typing's import builds its docstrings, on the fork server's start
    import numpy.typing as npt

TOY_OFFSET = 0.6
"""The course's toy signal: the constant offset (the same at every slot) and the ramp's step (slot t holds 0.6·(t+1))."""


def constant_offset(T: int, C: int, value: float = TOY_OFFSET) -> np.ndarray:
    """(T, C) filled with one value: the same at every slot, so it carries no order."""
    return np.full((T, C), float(value))


def slot_ramp(T: int, C: int, step: float = TOY_OFFSET) -> np.ndarray:
    """(T, C) toy signal: every channel of slot t holds step·(t+1).

    Distinct per slot, which is all the first lesson needs, and its step is
    the same everywhere, so "three apart" is the same difference at any slot.
    What it lacks is a bound (row t has norm step·(t+1)·√C, soon far above a
    token's) and dot products that depend on the offset alone:
    ramp[s]·ramp[t] = step²·C·(s+1)(t+1) depends on both slots.
    """
    return np.repeat(step * (np.arange(T, dtype=np.float64) + 1.0)[:, None], C, axis=1)


def sinusoidal(T: int, C: int, base: float = 10000.0) -> np.ndarray:
    """(T, C) fixed encoding of Vaswani et al. (2017).

    PE[t, 2i] = sin(t / base^(2i/C)) and PE[t, 2i+1] = cos(t / base^(2i/C)):
    each channel pair turns at its own frequency, from one radian per slot
    down to one turn per ~2π·base slots. Values stay in [-1, 1] for any t.
    """
    t = np.arange(T, dtype=np.float64)[:, None]  # (T, 1)
    pair = np.arange(0, C, 2, dtype=np.float64)[None, :]  # (1, ceil(C/2))
    angle = t / base ** (pair / C)  # (T, ceil(C/2))
    pe = np.zeros((T, C))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : C // 2])
    return pe


def learned_table(max_len: int, C: int, seed: int = 0, scale: float = 0.02) -> np.ndarray:
    """(max_len, C) position table as BERT and GPT-2 keep it, here seeded random.

    In a real model it is trained like the token table; rows past the longest
    training sequence were never trained, and here do not exist at all.
    """
    return np.random.default_rng(seed).normal(0.0, scale, size=(max_len, C))


def learned_positions(table: np.ndarray, T: int) -> np.ndarray:
    """(T, C): the first T rows of a learned table.

    Raises IndexError past the table's end: a learned table has nothing to
    say about a position it never saw.
    """
    if T > table.shape[0]:
        raise IndexError(f"the table has {table.shape[0]} positions; a sequence of {T} runs past its end")
    return table[:T]


def embed(table: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Token embedding forward pass: row lookup. table (V, C), ids (B, T) -> (B, T, C)."""
    return table[np.asarray(ids)]


def embed_backward(grad_out: np.ndarray, ids: np.ndarray, vocab_size: int) -> np.ndarray:
    """Token embedding backward pass: scatter-add of grad_out (B, T, C) into a (V, C) gradient.

    A token id used at several positions collects the sum of their gradients;
    rows of ids never used stay zero.
    """
    grad = np.zeros((vocab_size, grad_out.shape[-1]))
    np.add.at(grad, np.asarray(ids).reshape(-1), grad_out.reshape(-1, grad_out.shape[-1]))
    return grad


ROPE_PAIRINGS = ("interleaved", "half")


def rope_channel_pairs(d: int, pairing: str = "interleaved") -> tuple[np.ndarray, np.ndarray]:
    """(d/2,) first and second channel of each rotated pair, pair i turning at base^(-2i/d).

    "interleaved" pairs channels (2i, 2i+1), as in the RoFormer paper and this
    course; "half" pairs (i, i + d/2), as LLaMA and GPT-NeoX do. The two are
    the same rotation up to a fixed permutation of the channels.
    """
    if pairing not in ROPE_PAIRINGS:
        raise ValueError(f"unknown RoPE pairing {pairing!r}; one of {', '.join(ROPE_PAIRINGS)}")
    i = np.arange(d // 2)
    if pairing == "interleaved":
        return 2 * i, 2 * i + 1
    return i, i + d // 2


def rope_inv_freq(d: int, base: float = 10000.0) -> np.ndarray:
    """(d/2,) the turn of each channel pair per position, θ_i = base^(−2i/d): Hugging Face's ``inv_freq``."""
    return 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)


def rope_rotate(
    x: np.ndarray,
    positions: npt.ArrayLike | None = None,
    base: float = 10000.0,
    pairing: str = "interleaved",
    inv_freq: npt.ArrayLike | None = None,
) -> np.ndarray:
    """Rotary position embedding (Su et al., RoFormer) applied to queries or keys.

    x: (..., T, d) with d even; positions: (T,) defaulting to 0 … T-1.
    Channel pair r (see `rope_channel_pairs`) of the row at slot i is
    turned by the angle i·base^(-2r/d); ``base`` is the rotation base
    (Hugging Face's rope_theta). Writing R_i for that rotation,
    ⟨R_i q, R_j k⟩ = ⟨q, R_(j−i) k⟩: the score depends on q, k and the
    offset j − i only, and nothing is added to X. ``inv_freq`` (d/2,)
    replaces base^(-2r/d) when given (a context-extension rule's frequencies).
    """
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape[-2], x.shape[-1]
    if d % 2:
        raise ValueError(f"RoPE needs an even width, got {d}")
    p = np.arange(T, dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    freq = rope_inv_freq(d, base) if inv_freq is None else np.asarray(inv_freq, dtype=np.float64)  # (d/2,)
    angle = p[:, None] * freq[None, :]  # (T, d/2)
    cos, sin = np.cos(angle), np.sin(angle)
    first, second = rope_channel_pairs(d, pairing)
    a, b = x[..., first], x[..., second]  # (..., T, d/2) each
    rotated = np.empty_like(x)
    rotated[..., first] = a * cos - b * sin
    rotated[..., second] = a * sin + b * cos
    return rotated


def alibi_slopes(n_heads: int) -> np.ndarray:
    """(H,) head slopes of ALiBi (Press et al. 2022).

    For a power of two H the slopes are the geometric sequence 2^(-8/H),
    2^(-16/H), … ending at 2^-8. Otherwise take the slopes for the power of
    two just below H and fill the rest with every other slope of twice that.
    """
    if n_heads < 1:
        raise ValueError("ALiBi needs at least one head")

    def power_of_two(n: int) -> list[float]:
        first = 2.0 ** (-8.0 / n)
        return [first ** (k + 1) for k in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(power_of_two(n_heads))
    lower = 2 ** math.floor(math.log2(n_heads))
    extra = alibi_slopes(2 * lower)[0::2][: n_heads - lower]
    return np.concatenate([power_of_two(lower), extra])


def alibi_bias(n_heads: int, T: int) -> np.ndarray:
    """(H, T, T) ALiBi as published (Press et al. 2022), causal mask included.

    bias[h, i, j] = −slope_h·(i − j) for a key j at or before the query i,
    and −inf for a later key: the further back a key, the lower its score.
    Add it to the scores; no separate mask is needed.
    """
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    ahead = (j - i).astype(np.float64)  # (T, T) −(i − j), written so the diagonal is +0.0, not −0.0
    bias = alibi_slopes(n_heads)[:, None, None] * ahead[None, :, :]  # (H, T, T)
    return np.where(j <= i, bias, -np.inf)


def symmetric_alibi_bias(n_heads: int, T: int) -> np.ndarray:
    """(H, T, T) −slope·|i − j| with no mask: NOT the published ALiBi.

    It sees how far apart two tokens are but not which comes first, so it
    cannot tell a sequence from its reverse (|i − j| is unchanged when both
    slots are mirrored). Kept to show why the published form is causal.
    """
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    closeness = np.minimum(i - j, j - i).astype(np.float64)  # (T, T) −|i − j|, +0.0 on the diagonal
    return alibi_slopes(n_heads)[:, None, None] * closeness[None, :, :]


def alibi_window(slopes: np.ndarray, factor: float = 100.0) -> np.ndarray:
    """(H,) how many slots back ALiBi alone divides a key's weight by ``factor``.

    The bias lowers a score by slope·d at distance d, so the weight is
    multiplied by exp(−slope·d); it has fallen ``factor``-fold at
    d = ln(factor)/slope. A soft window: far keys are not cut off, they fade.
    """
    return np.log(factor) / np.asarray(slopes, dtype=np.float64)
