"""Past the training length: stretching a RoPE model's frequencies, and what one small head does beyond L.

The rules are written as Hugging Face's ``rope_scaling`` types compute
``inv_freq`` (linear = position interpolation, dynamic NTK, yarn, llama3),
from the papers: Chen et al. 2023 (position interpolation), bloc97's
NTK-aware rule, Peng et al. 2023 (YaRN), Meta's Llama 3.1 ``apply_scaling``.
Float64 throughout; shapes in the docstrings. d is the head width (an even
number), so every frequency array has d/2 entries, one per channel pair.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from attnpos.core.attention import attention_output, softmax
from attnpos.core.position import rope_inv_freq, sinusoidal

# --- the rules ---------------------------------------------------------------------


def pi_inv_freq(inv_freq: np.ndarray, factor: float) -> np.ndarray:
    """(d/2,) position interpolation: positions m·L/L′, the same as every frequency divided by s = L′/L."""
    return np.asarray(inv_freq, dtype=np.float64) / factor


def ntk_base(base: float, factor: float, d: int) -> float:
    """NTK-aware base′ = base·s^(d/(d−2)): the highest frequency (pair 0) is kept, the lowest divided by exactly s."""
    return base * factor ** (d / (d - 2))


def ntk_inv_freq(d: int, base: float, factor: float) -> np.ndarray:
    """(d/2,) the frequencies at the NTK-aware base."""
    return rope_inv_freq(d, ntk_base(base, factor, d))


def dynamic_ntk_base(base: float, factor: float, d: int, seq_len: int, original_length: int) -> float:
    """Dynamic NTK (Hugging Face's ``dynamic``): the base grows only once the input runs past the trained length."""
    if seq_len <= original_length:
        return base
    return base * ((factor * seq_len / original_length) - (factor - 1)) ** (d / (d - 2))


def yarn_correction_pair(rotations: float, d: int, base: float, original_length: int) -> float:
    """The (fractional) pair index whose wavelength fits ``rotations`` turns into the trained length."""
    return d * math.log(original_length / (rotations * 2 * math.pi)) / (2 * math.log(base))


def yarn_inv_freq(
    d: int, base: float, factor: float, original_length: int, beta_fast: float = 32.0, beta_slow: float = 1.0
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """YaRN (Peng et al. 2023): (d/2,) frequencies, the attention factor 0.1·ln s + 1, and the ramp's pairs.

    Pairs that turn more than beta_fast times within the trained length are
    kept; pairs that turn less than beta_slow times are interpolated (÷s);
    between them a linear ramp over the pair index blends the two: the
    reference code's form, which Hugging Face copies (the paper's equation 18
    ramps in turns instead: `yarn_paper_inv_freq`).
    """
    low = max(math.floor(yarn_correction_pair(beta_fast, d, base, original_length)), 0)
    high = min(math.ceil(yarn_correction_pair(beta_slow, d, base, original_length)), d - 1)  # as the reference code clamps it
    span = high - low if high > low else 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / span, 0.0, 1.0)  # (d/2,) 0 = keep, 1 = interpolate
    original = rope_inv_freq(d, base)
    inv_freq = original * (1 - ramp) + (original / factor) * ramp
    return inv_freq, 0.1 * math.log(factor) + 1.0, (low, high)


def yarn_paper_inv_freq(d: int, base: float, factor: float, original_length: int, alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    """(d/2,) YaRN's "NTK-by-parts" as the paper's equation 18 writes it: the ramp is linear in turns, not pair index.

    r = L/λ is how many turns a pair makes within the trained length L;
    γ(r) = (r − α)/(β − α), clipped to [0, 1]; the new frequency is
    (1 − γ)·θ/s + γ·θ. Llama 3.1's ``apply_scaling`` is this rule with
    α = 1, β = 4 (and no temperature).
    """
    inv_freq = rope_inv_freq(d, base)
    turns = original_length * inv_freq / (2 * math.pi)  # (d/2,) r = L/λ
    gamma = np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)  # (d/2,) 1 = keep, 0 = interpolate
    return (1 - gamma) * inv_freq / factor + gamma * inv_freq


def llama3_inv_freq(
    d: int = 128,
    base: float = 500_000.0,
    factor: float = 8.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
    original_length: int = 8192,
) -> np.ndarray:
    """(d/2,) Llama 3.1's ``apply_scaling``: short wavelengths kept, long ones ÷ factor, the band between blended."""
    inv_freq = rope_inv_freq(d, base)
    wavelength = 2 * math.pi / inv_freq  # (d/2,)
    low_wavelength = original_length / low_freq_factor  # above this: divided by factor
    high_wavelength = original_length / high_freq_factor  # below this: kept
    smooth = (original_length / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)  # (d/2,)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelength < high_wavelength, inv_freq, np.where(wavelength > low_wavelength, inv_freq / factor, blended))


@dataclass(frozen=True)
class ScalingRulesResult:
    """Which pairs each rule changes (d = 128)."""

    d: int
    factor: float
    ntk_bases: tuple[float, float, float]  # base′ for s = 2, 4, 8 at base 10,000
    ntk_first_ratio: float  # pair 0's frequency after ÷ before: 1
    ntk_last_ratio: float  # the last pair's: exactly 1/s
    yarn_ramp: tuple[int, int]  # YaRN's ramp pairs at base 10,000, trained length 4,096
    yarn_attention_factor: float  # √(1/t) = 0.1·ln s + 1, applied to cos and sin
    yarn_logit_factor: float  # 1/t: q and k both carry the factor, so every logit carries its square
    llama3_kept: int  # pairs Llama 3.1 keeps (wavelength < 2,048)
    llama3_divided: int  # pairs divided by 8 (wavelength > 8,192)
    llama3_blended: int
    pi_ratio: np.ndarray = field(repr=False)  # (64,) every pair ÷ s
    ntk_ratio: np.ndarray = field(repr=False)  # (64,) from 1 down to 1/s
    yarn_ratio: np.ndarray = field(repr=False)  # (64,) the reference code's ramp, over the pair index
    yarn_paper_ratio: np.ndarray = field(repr=False)  # (64,) the paper's equation 18, linear in turns
    llama3_ratio: np.ndarray = field(repr=False)  # (64,) at base 500,000, factor 8


def scaling_rules_experiment(d: int = 128, factor: float = 4.0, base: float = 10000.0, original_length: int = 4096) -> ScalingRulesResult:
    original = rope_inv_freq(d, base)
    ntk = ntk_inv_freq(d, base, factor)
    yarn, attention_factor, ramp = yarn_inv_freq(d, base, factor, original_length)
    llama = llama3_inv_freq(d)
    llama_ratio = llama / rope_inv_freq(d, 500_000.0)
    return ScalingRulesResult(
        d=d,
        factor=factor,
        ntk_bases=tuple(ntk_base(base, s, d) for s in (2.0, 4.0, 8.0)),  # type: ignore[arg-type]
        ntk_first_ratio=float(ntk[0] / original[0]),
        ntk_last_ratio=float(ntk[-1] / original[-1]),
        yarn_ramp=ramp,
        yarn_attention_factor=attention_factor,
        yarn_logit_factor=attention_factor**2,
        llama3_kept=int(np.sum(llama_ratio == 1.0)),
        llama3_divided=int(np.sum(np.isclose(llama_ratio, 1 / 8, rtol=0, atol=1e-15))),
        llama3_blended=int(np.sum((llama_ratio != 1.0) & ~np.isclose(llama_ratio, 1 / 8, rtol=0, atol=1e-15))),
        pi_ratio=pi_inv_freq(original, factor) / original,
        ntk_ratio=ntk / original,
        yarn_ratio=yarn / original,
        yarn_paper_ratio=yarn_paper_inv_freq(d, base, factor, original_length) / original,
        llama3_ratio=llama_ratio,
    )


# --- Chen et al.'s argument, small ---------------------------------------------------


def rope_score_features(positions: np.ndarray, inv_freq: np.ndarray) -> np.ndarray:
    """(N, d) the RoPE score as a function of the offset s: [cos(s·θ_i) …, sin(s·θ_i) …].

    Any score ⟨R_m q, R_{m+s} k⟩ is a weighted sum of these columns.
    """
    angle = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]  # (N, d/2)
    return np.concatenate([np.cos(angle), np.sin(angle)], axis=1)


@dataclass(frozen=True)
class InterpolationBoundResult:
    """Fit a RoPE score function on [0, L] with a small ridge; look at it on [L, 2L], extrapolated and interpolated.

    The plain least-squares fit is numerically singular (its size past L is set
    by rounding, so it changes with the BLAS); a ridge penalty makes every
    figure here independent of rounding, as Chen et al.'s own script does.
    """

    d: int
    length: int
    penalty: float  # λ of the main fit
    inside: float  # max|fit| on [0, L]
    extrapolated: float  # max|fit| on [L, 2L]: far larger
    interpolated: float  # max|fit| at positions m/2 for m in [L, 2L]: within the inside range
    slowest_angle: float  # radians the slowest pair turns over [0, L]: its cos and sin are nearly straight lines there
    ridge: tuple[tuple[float, float, float], ...]  # (λ, max|fit| on [0, L], max|fit| on [L, 2L]) for other penalties
    curve: np.ndarray = field(repr=False)  # (2L+1,) the main fit, extrapolated past L


def ridge_fit(features: np.ndarray, target: np.ndarray, penalty: float) -> np.ndarray:
    """(d,) coefficients c minimising |F c − y|² + λ|c|², from F (N, d) and y (N,).

    Solved as the least-squares problem [F; √λ I] c ≈ [y; 0] by QR: its
    condition number is at most ‖F‖/√λ, so the answer does not depend on rounding.
    """
    d = features.shape[1]
    stacked = np.concatenate([features, math.sqrt(penalty) * np.eye(d)])  # (N+d, d)
    padded = np.concatenate([target, np.zeros(d)])  # (N+d,)
    Q, R = np.linalg.qr(stacked)  # (N+d, d), (d, d)
    return np.linalg.solve(R, Q.T @ padded)


PI_FIT_PENALTY = 1e-6


def interpolation_bound_experiment(d: int = 32, length: int = 512, seed: int = 0) -> InterpolationBoundResult:
    """Chen et al. 2023, figure 2, small (they used d = 128, L = 2048): a fit tame inside [0, L] is wild past it."""
    inv_freq = rope_inv_freq(d)  # (d/2,)
    inside_positions = np.arange(length + 1, dtype=np.float64)  # (L+1,)
    outside_positions = np.arange(length, 2 * length + 1, dtype=np.float64)  # (L+1,)
    target = np.random.default_rng(seed).uniform(-0.5, 0.5, size=length + 1)  # (L+1,) a score pattern to fit
    F = rope_score_features(inside_positions, inv_freq)  # (L+1, d)
    outside = rope_score_features(outside_positions, inv_freq)  # (L+1, d)
    coef = ridge_fit(F, target, PI_FIT_PENALTY)  # (d,)
    ridge = []
    for lam in (1e-3, 1e-1):
        c = ridge_fit(F, target, lam)  # (d,)
        ridge.append((lam, float(np.max(np.abs(F @ c))), float(np.max(np.abs(outside @ c)))))
    all_positions = np.arange(2 * length + 1, dtype=np.float64)
    return InterpolationBoundResult(
        d=d,
        length=length,
        penalty=PI_FIT_PENALTY,
        inside=float(np.max(np.abs(F @ coef))),
        extrapolated=float(np.max(np.abs(outside @ coef))),
        interpolated=float(np.max(np.abs(rope_score_features(outside_positions / 2, inv_freq) @ coef))),
        slowest_angle=float(inv_freq[-1] * length),
        ridge=tuple(ridge),
        curve=rope_score_features(all_positions, inv_freq) @ coef,
    )


# --- "attend k back": one causal head, position only ----------------------------------

TRAIN_LENGTH = 32  # L: queries at t < L in training
TEST_FACTOR = 4  # tested at L ≤ t < 4L
BACK = 3  # the task: put the weight on the key k = 3 back
HEAD_WIDTH = 16
STEPS = 250  # enough for every head that can learn the task to reach 1.00 on training positions
LEARNING_RATE = 0.05


@dataclass(frozen=True)
class BackHead:
    """One position-only head: features of (query t, key s), and how test positions are encoded."""

    name: str
    features: Callable[[np.ndarray, np.ndarray], np.ndarray]  # (t (N,), s (N,)) → (N, P) training encoding
    test_features: Callable[[np.ndarray, np.ndarray], np.ndarray]  # the same at test time (a rule may change it)


def _rope_features(inv_freq: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Position-only RoPE: ⟨R_t a, R_s b⟩ = Σ α_i cos((t−s)θ_i) + β_i sin((t−s)θ_i), any (α, β) reachable."""
    return lambda t, s: rope_score_features(t - s, inv_freq)


def _sinusoidal_features(base: float, limit: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """PE(t)ᵀ·M·PE(s) with M = Wq·Wkᵀ trained: every product of a query channel and a key channel."""
    pe = sinusoidal(limit, HEAD_WIDTH, base)  # (limit, C)
    return lambda t, s: (pe[t][:, :, None] * pe[s][:, None, :]).reshape(len(t), -1)


def _table_features(limit: int, trained: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A learned table: one score per (t, s) pair, the most a table can express; rows ≥ L were never trained."""

    def one_hot(t: np.ndarray, s: np.ndarray) -> np.ndarray:
        out = np.zeros((len(t), trained * trained))
        seen = (t < trained) & (s < trained)
        out[np.flatnonzero(seen), (t * trained + s)[seen]] = 1.0
        return out

    del limit
    return one_hot


def back_heads(length: int = TRAIN_LENGTH, factor: int = TEST_FACTOR) -> tuple[BackHead, ...]:
    """The heads compared, each trained on t < L and tested at L ≤ t < factor·L."""
    limit = factor * length
    theta = rope_inv_freq(HEAD_WIDTH)
    yarn, _, _ = yarn_inv_freq(HEAD_WIDTH, 10000.0, factor, length)
    rope = _rope_features(theta)
    return (
        BackHead("learned table", _table_features(limit, length), _table_features(limit, length)),
        BackHead("sinusoidal, base 10000", _sinusoidal_features(10000.0, limit), _sinusoidal_features(10000.0, limit)),
        BackHead("sinusoidal, base 100", _sinusoidal_features(100.0, limit), _sinusoidal_features(100.0, limit)),
        BackHead("RoPE", rope, rope),
        BackHead("RoPE + PI at test", rope, _rope_features(pi_inv_freq(theta, factor))),
        BackHead("RoPE + NTK at test", rope, _rope_features(ntk_inv_freq(HEAD_WIDTH, 10000.0, factor))),
        BackHead("RoPE + YaRN at test", rope, _rope_features(yarn)),
        BackHead("ALiBi, slope trained", _alibi_features, _alibi_features),
        BackHead("NoPE, causal mask", _no_features, _no_features),
    )


def _alibi_features(t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(N, 1) −(t − s): a position-only ALiBi head can only tilt its row towards near or far keys."""
    return -(t - s).astype(np.float64)[:, None]


def _no_features(t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(N, 1) zeros: with no signal every visible key scores the same."""
    return np.zeros((len(t), 1))


def _grid(queries: np.ndarray, keys: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (t, s) for the given queries and keys 0 … keys−1, flattened (R·keys,), and the causal mask (R, keys)."""
    t = np.repeat(queries, keys)
    s = np.tile(np.arange(keys), len(queries))
    return t, s, (s <= t).reshape(len(queries), keys)


def _accuracy(scores: np.ndarray, visible: np.ndarray, target: np.ndarray) -> float:
    """Share of rows whose largest visible score, strictly above every other, is the target key's.

    scores, visible, target: (R, keys); a tie (an untrained row: every score 0) is a miss.
    """
    target_score = np.where(target, scores, -np.inf).max(axis=1)  # (R,)
    others = np.where(visible & ~target, scores, -np.inf).max(axis=1)  # (R,)
    return float(np.mean(target_score > others))


def train_back_head(head: BackHead, length: int = TRAIN_LENGTH, factor: int = TEST_FACTOR, back: int = BACK, steps: int = STEPS) -> tuple[float, float]:
    """(train accuracy, test accuracy) after Adam on the cross-entropy of "attend ``back`` back".

    The score is linear in the head's parameters, so the loss is convex and
    the fit starts from zero: no seed decides it.
    """
    queries = np.arange(back, length)
    t, s, visible = _grid(queries, length)
    F = head.features(t, s).reshape(len(queries), length, -1)  # (R, L, P)
    target = (s == t - back).reshape(visible.shape)  # (R, L)
    w, m, v = np.zeros(F.shape[2]), np.zeros(F.shape[2]), np.zeros(F.shape[2])
    for step in range(1, steps + 1):
        weights = softmax(np.where(visible, F @ w, -np.inf), axis=-1)  # (R, L)
        grad = np.einsum("rl,rlp->p", weights - target, F) / len(queries)  # (P,)
        m, v = 0.9 * m + 0.1 * grad, 0.999 * v + 0.001 * grad**2
        w -= LEARNING_RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    train = _accuracy(F @ w, visible, target)
    test_queries = np.arange(length, factor * length)
    test_t, test_s, test_visible = _grid(test_queries, factor * length)
    test_scores = np.concatenate(
        [head.test_features(test_t[rows], test_s[rows]) @ w for rows in np.array_split(np.arange(len(test_t)), len(test_queries))]
    ).reshape(test_visible.shape)  # (R', 4L), a row at a time to keep the features small
    test_target = (test_s == test_t - back).reshape(test_visible.shape)
    return train, _accuracy(test_scores, test_visible, test_target)


@dataclass(frozen=True)
class AttendBackResult:
    """Each head's accuracy at "attend k back", on training positions and past them."""

    length: int
    factor: int
    back: int
    names: tuple[str, ...]
    train: tuple[float, ...]
    test: tuple[float, ...]


def attend_back_experiment(progress: Callable[[str, float, float], None] | None = None) -> AttendBackResult:
    """Train every head of :func:`back_heads` in turn; ``progress(name, train, test)`` after each."""
    names, train, test = [], [], []
    for head in back_heads():
        fit, beyond = train_back_head(head)
        names.append(head.name)
        train.append(fit)
        test.append(beyond)
        if progress is not None:
            progress(head.name, fit, beyond)
    return AttendBackResult(TRAIN_LENGTH, TEST_FACTOR, BACK, tuple(names), tuple(train), tuple(test))


# --- NoPE: a causal head can count ------------------------------------------------------


def nope_first_token_share(T: int, C: int = 8, seed: int = 0) -> np.ndarray:
    """(T,) with no position signal, a causal mask and equal scores, the first token's share of slot t: 1/(t+1).

    Channel 0 marks the first token; every slot reads all it can see evenly,
    so its output in channel 0 says how many tokens came before it.
    """
    X = np.random.default_rng(seed).standard_normal((T, C))  # (T, C)
    X[:, 0] = 0.0
    X[0, 0] = 1.0
    identity = np.eye(C)
    return attention_output(X, identity, identity, identity, causal=True, scale=0.0)[:, 0]


def nope_weights(T: int = 8) -> np.ndarray:
    """(T, T) a causal head with no signal and equal scores: row t gives each of its t + 1 visible keys 1/(t+1)."""
    return softmax(np.where(np.tril(np.ones((T, T), dtype=bool)), 0.0, -np.inf), axis=-1)
