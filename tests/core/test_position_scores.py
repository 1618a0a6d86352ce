"""Lessons 8–10's core: RoPE, ALiBi and context extension against independent implementations, and their figures."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnpos.core import alibi_bias, alibi_slopes, rope_inv_freq, rope_rotate, softmax
from attnpos.core.extension import (
    attend_back_experiment,
    dynamic_ntk_base,
    interpolation_bound_experiment,
    llama3_inv_freq,
    nope_first_token_share,
    nope_weights,
    ntk_base,
    ntk_inv_freq,
    pi_inv_freq,
    scaling_rules_experiment,
    yarn_inv_freq,
    yarn_paper_inv_freq,
)
from attnpos.core.linear_biases import alibi_lesson_experiment, mass_beyond, shortcut_bias
from attnpos.core.rotary import (
    half_to_interleaved,
    pairs_longer_than,
    partial_rope,
    rope_decay_bound,
    rope_lesson_experiment,
    rope_precision_experiment,
    rope_score,
    rope_score_at_precision,
    rope_sentence_experiment,
    rope_wavelengths,
    rotate_half,
    round_to_bfloat16,
)

# --- independent implementations, written the way the reference code writes them ---


def hf_apply_rotary(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Hugging Face's LLaMA: emb = cat(freqs, freqs); x·cos + rotate_half(x)·sin, rotate_half written out here."""
    d = x.shape[-1]
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
    freqs = np.outer(positions, inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    half = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return x * np.cos(emb) + half * np.sin(emb)


def meta_apply_rotary(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Meta's precompute_freqs_cis: neighbouring channels as one complex number, times e^(i·m·θ)."""
    d = x.shape[-1]
    freqs_cis = np.exp(1j * np.outer(positions, 1.0 / base ** (np.arange(0, d, 2) / d)))
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * freqs_cis
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)


def official_get_slopes(n: int) -> list[float]:
    """ALiBi's repository, transcribed."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest) + official_get_slopes(2 * closest)[0::2][: n - closest]


def meta_apply_scaling(freqs: np.ndarray) -> np.ndarray:
    """Llama 3.1's apply_scaling, a loop as Meta wrote it."""
    scale_factor, low_freq_factor, high_freq_factor, old_context_len = 8, 1, 4, 8192
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    new = []
    for freq in freqs:
        wavelen = 2 * math.pi / freq
        if wavelen < high_freq_wavelen:
            new.append(freq)
        elif wavelen > low_freq_wavelen:
            new.append(freq / scale_factor)
        else:
            smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new.append((1 - smooth) * freq / scale_factor + smooth * freq)
    return np.array(new)


def yarn_reference(d: int, base: float, s: float, L: int) -> np.ndarray:
    """YaRN's scaled_rope code: find_correction_range, linear_ramp_mask, blend."""

    def correction_dim(rotations):
        return (d * math.log(L / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = max(math.floor(correction_dim(32)), 0), min(math.ceil(correction_dim(1)), d - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0, 1)
    mask = 1 - ramp
    extrapolation = 1.0 / base ** (np.arange(0, d, 2) / d)
    return (extrapolation / s) * (1 - mask) + extrapolation * mask


# --- RoPE -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(T=st.integers(1, 9), half=st.integers(1, 8), seed=st.integers(0, 2**16), start=st.integers(-500, 50_000))
def test_rope_matches_hugging_face_and_meta(T, half, seed, start):
    x = np.random.default_rng(seed).standard_normal((T, 2 * half))
    positions = np.arange(T) + start
    np.testing.assert_allclose(rope_rotate(x, positions, pairing="half"), hf_apply_rotary(x, positions), rtol=0, atol=1e-9)
    np.testing.assert_allclose(rope_rotate(x, positions), meta_apply_rotary(x, positions), rtol=0, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    half=st.integers(1, 16),
    seed=st.integers(0, 2**16),
    m=st.integers(-2000, 2000),
    n=st.integers(-2000, 2000),
    pairing=st.sampled_from(["half", "interleaved"]),
)
def test_rope_scores_see_the_offset_only(half, seed, m, n, pairing):
    q, k = np.random.default_rng(seed).standard_normal((2, 2 * half))
    shifted = rope_score(q, k, m + 777, n + 777, pairing=pairing)
    assert abs(rope_score(q, k, m, n, pairing=pairing) - shifted) < 1e-9 * (1 + np.abs(q) @ np.abs(k))


@settings(max_examples=30, deadline=None)
@given(half=st.integers(1, 16), seed=st.integers(0, 2**16))
def test_layouts_are_one_rotation_up_to_a_permutation_and_norms_are_kept(half, seed):
    d = 2 * half
    x = np.random.default_rng(seed).standard_normal((5, d))
    order = half_to_interleaved(d)
    np.testing.assert_allclose(rope_rotate(x, pairing="half")[:, order], rope_rotate(x[:, order]), rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(rope_rotate(x, pairing="half"), axis=1), np.linalg.norm(x, axis=1), rtol=1e-12)
    np.testing.assert_array_equal(rotate_half(rotate_half(x)), -x)


def test_inv_freq_and_wavelengths():
    np.testing.assert_allclose(rope_inv_freq(8), [1.0, 0.1, 0.01, 0.001], rtol=1e-15)
    assert rope_wavelengths(128)[-1] == pytest.approx(2 * math.pi * 10000 ** (126 / 128), rel=1e-12)
    waves = 2 * math.pi * 10000 ** (np.arange(0, 128, 2) / 128)
    assert pairs_longer_than(4096, 128) == int(np.sum(waves > 4096)) == 18
    assert pairs_longer_than(4096, 128, 500_000.0) == 32


def test_partial_rotary_leaves_the_other_channels_alone():
    x = np.random.default_rng(0).standard_normal((4, 256))
    out = partial_rope(x, np.arange(4) + 99, 64)
    np.testing.assert_array_equal(out[:, 64:], x[:, 64:])
    np.testing.assert_allclose(out[:, :64], meta_apply_rotary(x[:, :64], np.arange(4) + 99), atol=1e-12)


def test_decay_bound_against_a_loop():
    d, offsets = 16, [0, 1, 5, 40]
    theta = rope_inv_freq(d)
    expected = [np.mean([abs(sum(np.exp(1j * k * theta[i]) for i in range(j + 1))) for j in range(d // 2)]) for k in offsets]
    np.testing.assert_allclose(rope_decay_bound(offsets, d), expected, rtol=1e-12)
    assert rope_decay_bound([0], 128)[0] == pytest.approx(np.mean(np.arange(1, 65)))


def test_rope_lesson_figures():
    r = rope_lesson_experiment()
    assert r.score_spread < 1e-10  # the same score at m = 0 … 123,456
    assert r.reversal_gap > 0.1 and r.reversal_gap_without < 1e-14
    assert abs(r.interleaved_score - r.half_score) > 0.5  # the layouts give other scores …
    assert r.mixed_relative_error < 1e-12  # … yet each passes a relative test
    assert (r.long_pairs_10k, r.long_pairs_500k) == (18, 32)
    assert round(r.longest_10k) == 54410 and round(r.longest_500k) == 2559196
    assert r.gptj_unrotated == 192 and r.gptj_shift_error == 0.0
    assert r.v_rotated_shift_gap > 0.1
    assert r.decay_near > r.decay_far
    assert rope_sentence_experiment().shift_gap < 1e-12


# --- ALiBi -----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 8, 12, 16, 20, 24, 40, 64])
def test_slopes_are_the_official_ones(n):
    np.testing.assert_allclose(alibi_slopes(n), official_get_slopes(n), rtol=1e-14)


def test_twelve_heads():
    np.testing.assert_allclose(alibi_slopes(12)[8:], [2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5], rtol=1e-14)
    assert alibi_slopes(12)[7] == 2**-8


@settings(max_examples=30, deadline=None)
@given(H=st.integers(1, 16), T=st.integers(2, 12), seed=st.integers(0, 2**16))
def test_the_shortcut_is_alibi_with_the_mask_and_not_without(H, T, seed):
    scores = np.random.default_rng(seed).standard_normal((H, T, T)) * 3
    published = softmax(scores + alibi_bias(H, T))
    np.testing.assert_allclose(softmax(scores + shortcut_bias(H, T)), published, rtol=0, atol=1e-12)
    # Without the mask every later key keeps some weight, where ALiBi gives it none. (How much can be tiny:
    # with T = 2 a key scored far below the first, H=1, T=2, seed=1406, moves the row by 5e-5 only.)
    later = np.triu(np.ones((T, T), dtype=bool), 1)
    assert np.all(softmax(scores + shortcut_bias(H, T, causal=False))[:, later] > 0) and np.all(published[:, later] == 0)


def test_mass_beyond_is_the_geometric_tail():
    slopes = np.array([0.5, 1 / 256])
    weights = [np.exp(-m * np.arange(100)) / np.exp(-m * np.arange(100)).sum() for m in slopes]
    np.testing.assert_allclose(mass_beyond(slopes, 10, 100), [w[11:].sum() for w in weights], rtol=1e-10)


def test_alibi_lesson_figures():
    r = alibi_lesson_experiment()
    assert r.mass_beyond_near[0] < 1e-13 and 0.7 < r.mass_beyond_near[-1] < 0.8
    assert 0.017 < r.mass_beyond_far[-1] < 0.019
    assert r.shortcut_masked_gap < 1e-14 and r.shortcut_unmasked_gap > 0.5
    assert r.symmetric_reversal_gap < 1e-14 and r.published_reversal_gap > 0.1
    assert round(r.window_steep, 1) == 9.2 and round(r.window_gentle) == 1179


# --- past the training length ------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(half=st.integers(2, 128), s=st.floats(1.01, 64), base=st.floats(100, 1e6))
def test_ntk_keeps_pair_0_and_divides_the_last_by_s(half, s, base):
    d = 2 * half
    ratio = ntk_inv_freq(d, base, s) / rope_inv_freq(d, base)
    assert ratio[0] == 1.0
    assert ratio[-1] == pytest.approx(1 / s, rel=1e-9)
    assert np.all(np.diff(ratio) < 0)
    np.testing.assert_allclose(pi_inv_freq(rope_inv_freq(d, base), s) * s, rope_inv_freq(d, base), rtol=1e-15)


def test_ntk_bases_and_dynamic_ntk():
    assert [round(ntk_base(10000, s, 128)) for s in (2, 4, 8)] == [20221, 40890, 82685]
    assert dynamic_ntk_base(10000, 4, 128, 2048, 4096) == 10000
    assert dynamic_ntk_base(10000, 4, 128, 4096 * 4, 4096) == pytest.approx(ntk_base(10000, 13, 128))


@pytest.mark.parametrize("d, base, s, L", [(128, 10000.0, 4.0, 4096), (64, 10000.0, 16.0, 2048), (16, 10000.0, 4.0, 32)])
def test_yarn_against_its_reference_code(d, base, s, L):
    inv_freq, factor, _ = yarn_inv_freq(d, base, s, L)
    np.testing.assert_allclose(inv_freq, yarn_reference(d, base, s, L), rtol=1e-14)
    assert factor == pytest.approx(0.1 * math.log(s) + 1)


def test_yarn_paper_ramp_is_llama3s_rule_and_its_own_equation():
    # Llama 3.1's apply_scaling is equation 18 with α = 1, β = 4: two codes, one rule.
    np.testing.assert_allclose(yarn_paper_inv_freq(128, 500_000.0, 8.0, 8192, alpha=1.0, beta=4.0), llama3_inv_freq(), rtol=1e-14)
    d, base, s, L = 128, 10000.0, 4.0, 4096
    theta = [base ** (-2 * i / d) for i in range(d // 2)]
    expected = []
    for t in theta:  # equation 18, pair by pair, in wavelengths
        r = L / (2 * math.pi / t)
        gamma = 0.0 if r < 1 else 1.0 if r > 32 else (r - 1) / 31
        expected.append((1 - gamma) * t / s + gamma * t)
    np.testing.assert_allclose(yarn_paper_inv_freq(d, base, s, L), expected, rtol=1e-13)
    r = scaling_rules_experiment()
    assert r.yarn_paper_ratio[30] == pytest.approx(0.436, abs=5e-4) and r.yarn_ratio[30] == pytest.approx(0.712, abs=5e-4)


def test_llama3_against_meta():
    np.testing.assert_allclose(llama3_inv_freq(), meta_apply_scaling(rope_inv_freq(128, 500_000.0)), rtol=1e-14)
    r = scaling_rules_experiment()
    assert (r.llama3_kept, r.llama3_divided, r.llama3_blended) == (29, 29, 6)
    assert r.yarn_ramp == (20, 46)


def ridge_by_svd(F: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge written another way: c = V diag(σ/(σ² + λ)) Uᵀ y."""
    U, sigma, Vt = np.linalg.svd(F, full_matrices=False)
    return Vt.T @ ((sigma / (sigma**2 + lam)) * (U.T @ y))


def test_pi_fit_against_ridge_by_svd():
    d, L = 32, 512
    inv_freq = 10000.0 ** (-np.arange(0, d, 2) / d)
    y = np.random.default_rng(0).uniform(-0.5, 0.5, size=L + 1)

    def features(m):
        return np.hstack([np.cos(np.outer(m, inv_freq)), np.sin(np.outer(m, inv_freq))])

    inside, outside = features(np.arange(L + 1.0)), features(np.arange(L, 2 * L + 1.0))
    r = interpolation_bound_experiment()
    c = ridge_by_svd(inside, y, r.penalty)
    assert r.inside == pytest.approx(np.abs(inside @ c).max(), rel=1e-6)
    assert r.extrapolated == pytest.approx(np.abs(outside @ c).max(), rel=1e-6)
    assert r.interpolated == pytest.approx(np.abs(features(np.arange(L, 2 * L + 1.0) / 2) @ c).max(), rel=1e-6)
    for lam, inside_max, outside_max in r.ridge:
        c = ridge_by_svd(inside, y, lam)
        assert (inside_max, outside_max) == pytest.approx((np.abs(inside @ c).max(), np.abs(outside @ c).max()), rel=1e-6)
    assert r.slowest_angle == pytest.approx(L * 10000.0 ** (-(d - 2) / d), rel=1e-14)


def test_extrapolated_fit_blows_up_and_interpolated_stays():
    r = interpolation_bound_experiment()
    assert r.inside < 1 and r.interpolated <= r.inside
    assert r.extrapolated > 100 * r.inside
    assert [outside for _, _, outside in r.ridge] == sorted((outside for _, _, outside in r.ridge), reverse=True)
    assert r.ridge[0][2] < r.extrapolated


def test_yarn_logit_factor_is_what_scaled_cos_and_sin_do_to_a_score():
    # As the reference code does: cos_cached = cos·mscale, sin_cached = sin·mscale, for q and k alike.
    d, s, m, n = 16, 4.0, 5, 12
    inv_freq, mscale, _ = yarn_inv_freq(d, 10000.0, s, 32)
    q, k = np.random.default_rng(1).normal(size=(2, d))

    def rotate(x, position, scale):
        angle = np.concatenate([position * inv_freq, position * inv_freq])
        return x * np.cos(angle) * scale + rotate_half(x) * np.sin(angle) * scale

    ratio = (rotate(q, m, mscale) @ rotate(k, n, mscale)) / (rotate(q, m, 1.0) @ rotate(k, n, 1.0))
    assert scaling_rules_experiment().yarn_logit_factor == pytest.approx(ratio, rel=1e-12)
    assert ratio == pytest.approx(1.296, abs=5e-4)


def test_nope_counts():
    np.testing.assert_allclose(nope_first_token_share(9), 1 / (np.arange(9) + 1), rtol=1e-14)
    weights = nope_weights(6)
    np.testing.assert_allclose(weights[:, 0], 1 / (np.arange(6) + 1), rtol=1e-14)
    assert np.all(np.triu(weights, 1) == 0)


def test_attend_back_gives_what_lesson_10_says():
    seen = []
    r = attend_back_experiment(progress=lambda name, train, test: seen.append(name))
    assert list(r.names) == seen
    acc = dict(zip(r.names, zip(r.train, r.test, strict=True), strict=True))
    assert acc["learned table"] == (1.0, 0.0)
    assert acc["RoPE"] == (1.0, 1.0)
    assert acc["RoPE + PI at test"][1] == 0.0
    assert acc["RoPE + NTK at test"][1] == acc["RoPE + YaRN at test"][1] == 1.0
    assert acc["ALiBi, slope trained"] == acc["NoPE, causal mask"] == (0.0, 0.0)
    sinusoidal = [test for name, (_, test) in acc.items() if name.startswith("sinusoidal")]
    assert all(0.0 < test < 1.0 for test in sinusoidal)  # "in between"


# --- the relative property in float32 and bfloat16 (lesson 8) ---


def bfloat16_by_frexp(x: np.ndarray) -> np.ndarray:
    """bfloat16 written another way: keep 8 significant bits of the mantissa, round half to even."""
    mantissa, exponent = np.frexp(np.asarray(x, dtype=np.float64))
    return np.ldexp(np.round(mantissa * 2.0**8), exponent - 8)


@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False, allow_infinity=False).filter(lambda x: x == 0 or abs(x) > 1e-37))
@settings(max_examples=300, deadline=None)
def test_bfloat16_rounding_against_frexp(x):
    # normal numbers only: frexp knows no subnormal range, and positions and frequencies are never that small
    x32 = float(np.float32(x))  # both start from the float32 value, as a bfloat16 cast does
    assert round_to_bfloat16(x32) == bfloat16_by_frexp(x32)


def test_bfloat16_rounding_ties_to_even():
    # 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to even is 1; 1 + 3·2^-8 halfway up to 1 + 2^-6.
    assert round_to_bfloat16(np.array([1 + 2**-8, 1 + 3 * 2**-8])).tolist() == [1.0, 1 + 2**-6]


def score_with_angles_another_way(q, k, m, n, precision):
    """Interleaved layout, complex numbers as Meta's code; angles rounded by float32 scalars or by frexp."""
    d = q.shape[0]
    freq = 10000.0 ** (-np.arange(0, d, 2) / d)

    def angle(position):
        if precision == "float32":
            return (np.float32(position) * freq.astype(np.float32)).astype(np.float64)
        return bfloat16_by_frexp(bfloat16_by_frexp(position) * bfloat16_by_frexp(freq))

    permutation = half_to_interleaved(d)  # the same channels in RoFormer's order
    qc = q[permutation][0::2] + 1j * q[permutation][1::2]
    kc = k[permutation][0::2] + 1j * k[permutation][1::2]
    return float(np.real(np.sum((qc * np.exp(1j * angle(m))) * np.conj(kc * np.exp(1j * angle(n))))))


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
def test_precision_scores_against_another_computation(precision):
    r = rope_precision_experiment()
    q, k = np.random.default_rng(42).standard_normal((2, 8))
    expected = [score_with_angles_another_way(q, k, m, m + r.offset, precision) for m in r.starts]
    np.testing.assert_allclose(r.scores[precision], expected, rtol=1e-12)


def test_precision_experiment_says_what_lesson_8_says():
    r = rope_precision_experiment()
    q, k = np.random.default_rng(42).standard_normal((2, 8))
    assert r.largest_moves["float64"] < 1e-10
    assert 1e-4 < abs(r.scores["float32"][3] - r.exact) < abs(r.scores["float32"][4] - r.exact) < 1e-1
    # near 5,000 bfloat16 numbers are 32 apart: 5,000 and 5,007 merge, the offset is 0, the score is ⟨q, k⟩
    assert r.bfloat16_step == 32.0 and round_to_bfloat16(5000.0) == round_to_bfloat16(5007.0)
    assert r.scores["bfloat16"][2] == pytest.approx(q @ k, rel=1e-12)
    with pytest.raises(ValueError, match="precision must be one of"):
        rope_score_at_precision(q, k, 0, 1, "float16")
