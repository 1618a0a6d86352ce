"""Rotary position embedding (RoPE) taught in full: the rotation, its two layouts, its frequencies.

The rotation itself is `position.rope_rotate` (and `position.rope_inv_freq`);
this module adds what lesson 8 shows about it, in the names learners meet
next: Hugging Face's ``rotate_half``, ``inv_freq`` and ``rope_theta``, GPT-J's
partial rotary. Float64 throughout; shapes in the docstrings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from attnpos.core.attention import attend, attention_output
from attnpos.core.permutation import permute_tokens
from attnpos.core.position import rope_channel_pairs, rope_inv_freq, rope_rotate
from attnpos.core.words import SENTENCE_A, SENTENCE_SEED, SENTENCE_WIDTH, head_weights, sentence_matrix

if TYPE_CHECKING:  # annotations only: numpy.typing's import builds its docstrings
    import numpy.typing as npt


def rotate_half(x: np.ndarray) -> np.ndarray:
    """(..., d) → (..., d): Hugging Face's ``rotate_half``, (x1, x2) ↦ (−x2, x1) on the two halves.

    With cos and sin repeated over both halves, ``x·cos + rotate_half(x)·sin``
    is the half-split rotation: channel i turns with channel i + d/2.
    """
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rope_score(q: np.ndarray, k: np.ndarray, m: float, n: float, base: float = 10000.0, pairing: str = "half") -> float:
    """⟨R_m q, R_n k⟩ for one query (d,) at position m and one key (d,) at position n."""
    qm = rope_rotate(np.asarray(q, dtype=np.float64)[None, :], [m], base=base, pairing=pairing)  # (1, d)
    kn = rope_rotate(np.asarray(k, dtype=np.float64)[None, :], [n], base=base, pairing=pairing)  # (1, d)
    return float((qm @ kn.T).item())


def rope_wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    """(d/2,) positions per full turn of each pair, 2π/θ_i: from 2π up to 2π·base^((d−2)/d)."""
    return 2 * np.pi / rope_inv_freq(d, base)


def pairs_longer_than(length: float, d: int, base: float = 10000.0) -> int:
    """How many of the d/2 pairs take more than ``length`` positions to turn once."""
    return int(np.sum(rope_wavelengths(d, base) > length))


def partial_rope(x: np.ndarray, positions: npt.ArrayLike | None, rotary_dims: int, base: float = 10000.0, pairing: str = "interleaved") -> np.ndarray:
    """(..., T, d): rotate the first ``rotary_dims`` channels only, pass the rest through (GPT-J, GPT-NeoX's rotary_pct).

    The frequencies are those of a rotary_dims-wide RoPE (GPT-J: 64 of a
    256-wide head), so the untouched channels see no position at all.
    """
    x = np.asarray(x, dtype=np.float64)
    turned = rope_rotate(x[..., :rotary_dims], positions, base=base, pairing=pairing)
    return np.concatenate([turned, x[..., rotary_dims:]], axis=-1)


def half_to_interleaved(d: int) -> np.ndarray:
    """(d,) channel order that lists the half-split pairs as neighbours: (0, d/2, 1, d/2+1, …).

    ``rope_rotate(x, pairing="half")[..., order]`` equals ``rope_rotate(x[..., order])``:
    the two layouts are one rotation up to this fixed permutation.
    """
    first, second = rope_channel_pairs(d, "half")
    return np.stack([first, second], axis=1).reshape(-1)


def rope_decay_bound(offsets: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    """(K,) RoFormer's long-term decay (Su et al., §3.4.3): (2/d)·Σ_j |S_j| with S_j = Σ_{i<j} e^{i·k·θ_i}.

    By Abel summation a score Σ_i h_i e^{ikθ_i} is at most
    max_i|h_{i+1} − h_i| · Σ_j |S_j|; this is that sum, averaged over the
    pairs, as a function of the offset k. It falls as k grows, with wobbles:
    a bound on the score, not the score.
    """
    k = np.asarray(offsets, dtype=np.float64)  # (K,)
    phases = np.exp(1j * k[:, None] * rope_inv_freq(d, base)[None, :])  # (K, d/2)
    partial_sums = np.cumsum(phases, axis=1)  # (K, d/2): S_1 … S_{d/2}
    return np.abs(partial_sums).mean(axis=1)


def rope_attention(
    X: np.ndarray,
    Wq: np.ndarray,
    Wk: np.ndarray,
    Wv: np.ndarray,
    positions: npt.ArrayLike | None = None,
    pairing: str = "half",
    causal: bool = False,
) -> np.ndarray:
    """(..., T, hv) one head with q and k rotated (never v): X (..., T, C), Wq/Wk (C, hs), Wv (C, hv)."""
    X = np.asarray(X, dtype=np.float64)
    q = rope_rotate(X @ Wq, positions, pairing=pairing)  # (..., T, hs)
    k = rope_rotate(X @ Wk, positions, pairing=pairing)  # (..., T, hs)
    return attend(q, k, X @ Wv, causal=causal).out


OFFSET = 7
START_POSITIONS = (0, 100, 5000, 123456)
SPECTRUM_WIDTH = 128  # d_head of LLaMA-sized models
SPECTRUM_LENGTH = 4096
LLAMA3_THETA = 500_000.0
GPTJ_HEAD, GPTJ_ROTARY = 256, 64


@dataclass(frozen=True)
class RopeLessonResult:
    """Lesson 8's figures: the relative property at huge positions, reversal, layouts, frequencies."""

    offset: int
    starts: tuple[int, ...]
    scores: tuple[float, ...]  # ⟨R_m q, R_{m+7} k⟩ at each start m
    score_spread: float  # their largest difference from the first: rounding, ~1e-12
    reversal_gap: float  # seed-42 tokens reversed, RoPE on q and k: large
    reversal_gap_without: float  # the same, no position: rounding noise
    interleaved_score: float  # one q, k at (3, 11) under each layout
    half_score: float
    mixed_relative_error: float  # a layout mixed up still passes a relative test: rounding
    long_pairs_10k: int  # pairs of 64 with wavelength > 4096 at base 10000
    long_pairs_500k: int  # ... at Llama 3's base 500,000
    longest_10k: float  # the longest wavelength at each base
    longest_500k: float
    gptj_unrotated: int  # channels of GPT-J's 256 that RoPE leaves alone
    gptj_shift_error: float  # those channels' largest change when every position moves: exactly 0
    v_rotated_shift_gap: float  # a head that rotates v too: its outputs change when every position moves by 10
    decay_near: float  # RoFormer's bound at offset 1 …
    decay_far: float  # … and at offset 1,000 (d = 128)
    wavelengths_10k: np.ndarray = field(repr=False)  # (64,)
    wavelengths_500k: np.ndarray = field(repr=False)  # (64,)


def rope_lesson_experiment(seed: int = 42) -> RopeLessonResult:
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 8))  # (d,) each
    scores = tuple(rope_score(q, k, m, m + OFFSET) for m in START_POSITIONS)

    setup = np.random.RandomState(seed)  # lesson 1's draws: X first, then Wq, Wk, Wv × 0.5
    X = setup.randn(1, 6, 8)  # (B, T, C)
    Wq, Wk, Wv = (setup.randn(8, 8) * 0.5 for _ in range(3))
    reverse = np.arange(6)[::-1]
    reversed_run = rope_attention(permute_tokens(X, reverse), Wq, Wk, Wv)
    relisted = permute_tokens(rope_attention(X, Wq, Wk, Wv), reverse)
    plain = attention_output(permute_tokens(X, reverse), Wq, Wk, Wv) - permute_tokens(attention_output(X, Wq, Wk, Wv), reverse)

    # A checkpoint trained half-split but run interleaved: every score changes, yet the scores stay relative.
    pairs = [(m, n) for m in (0, 9, 500) for n in (0, 4, 31)]
    mixed = [abs(rope_score(q, k, m, n, pairing="interleaved") - rope_score(q, k, m + 77, n + 77, pairing="interleaved")) for m, n in pairs]

    head = rng.standard_normal((5, GPTJ_HEAD))  # (T, 256)
    moved = partial_rope(head, np.arange(5) + 1000, GPTJ_ROTARY) - partial_rope(head, np.arange(5), GPTJ_ROTARY)

    xv = rng.standard_normal((6, 8))  # (T, C) a head that rotates v as well
    v_rotated = [_v_rotated_head(xv, Wq[:, :8], Wk[:, :8], Wv[:, :8], np.arange(6) + shift) for shift in (0, 10)]
    wave10k, wave500k = rope_wavelengths(SPECTRUM_WIDTH), rope_wavelengths(SPECTRUM_WIDTH, LLAMA3_THETA)
    decay = rope_decay_bound([1, 1000], SPECTRUM_WIDTH)
    return RopeLessonResult(
        offset=OFFSET,
        starts=START_POSITIONS,
        scores=scores,
        score_spread=float(max(abs(s - scores[0]) for s in scores)),
        reversal_gap=float(np.max(np.abs(reversed_run - relisted))),
        reversal_gap_without=float(np.max(np.abs(plain))),
        interleaved_score=rope_score(q, k, 3, 11, pairing="interleaved"),
        half_score=rope_score(q, k, 3, 11, pairing="half"),
        mixed_relative_error=float(max(mixed)),
        long_pairs_10k=pairs_longer_than(SPECTRUM_LENGTH, SPECTRUM_WIDTH),
        long_pairs_500k=pairs_longer_than(SPECTRUM_LENGTH, SPECTRUM_WIDTH, LLAMA3_THETA),
        longest_10k=float(wave10k.max()),
        longest_500k=float(wave500k.max()),
        gptj_unrotated=GPTJ_HEAD - GPTJ_ROTARY,
        gptj_shift_error=float(np.max(np.abs(moved[:, GPTJ_ROTARY:]))),
        v_rotated_shift_gap=float(np.max(np.abs(v_rotated[1] - v_rotated[0]))),
        decay_near=float(decay[0]),
        decay_far=float(decay[1]),
        wavelengths_10k=wave10k,
        wavelengths_500k=wave500k,
    )


def _v_rotated_head(X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """(T, hv) the mistake of rotating v too: outputs then carry absolute position."""
    q, k, v = (rope_rotate(X @ W, positions, pairing="half") for W in (Wq, Wk, Wv))
    return attend(q, k, v).out


SHIFTED_START = 1000


@dataclass(frozen=True)
class RopeSentenceResult:
    """Lesson 3's sentence through a RoPE head (half-split), at slots 0 … 5 and again at 1000 … 1005."""

    weights: np.ndarray  # (T, T)
    shifted_weights: np.ndarray  # (T, T) the same tokens 1,000 slots on: the same matrix
    shift_gap: float  # max|difference|: rounding


def rope_sentence_experiment() -> RopeSentenceResult:
    X = sentence_matrix(list(SENTENCE_A), SENTENCE_WIDTH, SENTENCE_SEED)  # (T, C)
    Wq, Wk, _ = head_weights(SENTENCE_WIDTH, SENTENCE_WIDTH, SENTENCE_SEED)
    T = X.shape[0]

    def weights(start: int) -> np.ndarray:
        positions = np.arange(T) + start
        q, k = rope_rotate(X @ Wq, positions, pairing="half"), rope_rotate(X @ Wk, positions, pairing="half")
        return attend(q, k, q).weights  # the values do not enter the weights

    first, shifted = weights(0), weights(SHIFTED_START)
    return RopeSentenceResult(first, shifted, float(np.max(np.abs(first - shifted))))


def rope_spectrum(d: int = 16, positions: int = 48, base: float = 10000.0) -> np.ndarray:
    """(d/2, P) cos(p·θ_i): row i is pair i's turning over positions 0 … P−1, fast at the top, slow below."""
    return np.cos(np.arange(positions, dtype=np.float64)[None, :] * rope_inv_freq(d, base)[:, None])


# --- the relative property in the precision models compute in ---------------------------

PRECISIONS = ("float64", "float32", "bfloat16")


def round_to_bfloat16(x: npt.ArrayLike) -> np.ndarray:
    """(...) → (...) float64 values of finite x (normal in float32) rounded to bfloat16 (8 significant bits), to nearest, ties to even.

    bfloat16 is float32 with the low 16 bits of the mantissa dropped, so the
    rounding is done on float32's bits; NumPy has no bfloat16 of its own.
    """
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)  # (...) widened: the sum below must not wrap
    tie_to_even = (bits >> 16) & 1
    rounded = ((bits + 0x7FFF + tie_to_even) & 0xFFFF0000).astype(np.uint32)
    return rounded.view(np.float32).astype(np.float64)


def _round_to(x: np.ndarray, precision: str) -> np.ndarray:
    if precision == "float64":
        return np.asarray(x, dtype=np.float64)
    if precision == "float32":
        return np.asarray(x, dtype=np.float32).astype(np.float64)
    if precision == "bfloat16":
        return round_to_bfloat16(x)
    raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")


def rope_angles(positions: npt.ArrayLike, inv_freq: npt.ArrayLike, precision: str = "float64") -> np.ndarray:
    """(T, d/2) the angles position·θ_i as a model computing in ``precision`` gets them, returned as float64.

    positions (T,) and inv_freq (d/2,) are first stored in that precision,
    then their product is rounded to it: one rounding per multiplication, as
    IEEE arithmetic (and PyTorch's bfloat16) does it.
    """
    p = _round_to(np.asarray(positions, dtype=np.float64), precision)  # (T,)
    f = _round_to(np.asarray(inv_freq, dtype=np.float64), precision)  # (d/2,)
    return _round_to(p[:, None] * f[None, :], precision)  # float32·float32 and bf16·bf16 are exact in float64


def rope_score_at_precision(q: np.ndarray, k: np.ndarray, m: float, n: float, precision: str, base: float = 10000.0) -> float:
    """⟨R_m q, R_n k⟩, half-split as Hugging Face, with the angles computed in ``precision``; q, k (d,).

    Only the angles are rounded; the rotation and the dot product are float64,
    so what moves the score is the angle precision alone.
    """
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    angle = rope_angles([m, n], rope_inv_freq(q.shape[-1], base), precision)  # (2, d/2)
    cos, sin = np.cos(np.concatenate([angle, angle], axis=1)), np.sin(np.concatenate([angle, angle], axis=1))  # (2, d)
    qm = q * cos[0] + rotate_half(q) * sin[0]
    kn = k * cos[1] + rotate_half(k) * sin[1]
    return float(qm @ kn)


@dataclass(frozen=True)
class RopePrecisionResult:
    """One query and key, offset fixed, the query moved far along: the score in float64, float32 and bfloat16 angles."""

    offset: int
    starts: tuple[int, ...]  # query positions
    exact: float  # ⟨q, R_offset k⟩: the score at position 0 in float64
    scores: dict[str, np.ndarray] = field(repr=False)  # precision → (len(starts),) scores
    largest_moves: dict[str, float] = field(repr=False)  # precision → max |score − exact| over the starts
    bfloat16_step: float  # the gap between neighbouring bfloat16 numbers at starts[2]: positions closer than that merge


def rope_precision_experiment(seed: int = 42, offset: int = 7, starts: tuple[int, ...] = (0, 100, 5_000, 123_456, 1_000_000)) -> RopePrecisionResult:
    """Lesson 8's relative property (d = 8, base 10,000) in the precisions models compute in."""
    q, k = np.random.default_rng(seed).standard_normal((2, 8))
    exact = rope_score(q, k, 0, offset)
    scores = {p: np.array([rope_score_at_precision(q, k, m, m + offset, p) for m in starts]) for p in PRECISIONS}
    return RopePrecisionResult(
        offset=offset,
        starts=starts,
        exact=exact,
        scores=scores,
        largest_moves={p: float(np.max(np.abs(s - exact))) for p, s in scores.items()},
        bfloat16_step=float(2.0 ** (np.floor(np.log2(starts[2])) - 7)),  # 8 significant bits: 2^(e−7) apart in [2^e, 2^(e+1))
    )
