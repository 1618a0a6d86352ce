"""Lesson 11's core: T5's buckets against a scalar port of the published rule, properties with hypothesis, and each bias against a loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnpos.core.attention import softmax
from attnpos.core.position import alibi_slopes, symmetric_alibi_bias
from attnpos.core.relative import (
    FireMLP,
    fire_bias,
    fire_input,
    kerple_bias,
    offsets_sharing_last_bucket,
    relative_attend_back_experiment,
    relative_position_bucket,
    relative_sinusoid,
    shaw_attention,
    shaw_clipped_index,
    t5_relative_bias,
    transformer_xl_terms,
)

CONFIGS = [(32, 128), (16, 64)]
OFFSETS = range(-300, 301)


def published_bucket(offset: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """One offset at a time, as Mesh TensorFlow's rule reads in Hugging Face's T5: halve, fold the sign, exact or log, cap."""
    bucket = 0
    n = num_buckets
    if bidirectional:
        n //= 2
        if offset > 0:
            bucket += n
        offset = abs(offset)
    else:
        offset = -min(offset, 0)
    max_exact = n // 2
    if offset < max_exact:
        return bucket + offset
    large = max_exact + int(math.log(offset / max_exact) / math.log(max_distance / max_exact) * (n - max_exact))
    return bucket + min(large, n - 1)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), CONFIGS)
def test_bucket_matches_the_published_rule_at_every_offset(bidirectional, num_buckets, max_distance):
    offsets = np.arange(-300, 301)
    ours = relative_position_bucket(offsets, bidirectional, num_buckets, max_distance)
    assert ours.dtype == np.int64
    assert ours.tolist() == [published_bucket(int(o), bidirectional, num_buckets, max_distance) for o in OFFSETS]


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), CONFIGS)
def test_float32_log_as_torch_computes_it_gives_the_same_buckets(bidirectional, num_buckets, max_distance):
    """Hugging Face takes the log in float32; no distance up to 300 sits close enough to a bucket edge for that to move it."""
    n = num_buckets // 2 if bidirectional else num_buckets
    max_exact = n // 2
    distance = np.arange(max_exact, 301)
    growth32 = np.log(distance.astype(np.float32) / np.float32(max_exact)) / np.float32(math.log(max_distance / max_exact)) * np.float32(n - max_exact)
    growth64 = np.log(distance / max_exact) / math.log(max_distance / max_exact) * (n - max_exact)
    assert growth32.dtype == np.float32
    assert np.array_equal(growth32.astype(np.int64), growth64.astype(np.int64))


def test_bucket_keeps_any_shape_and_rejects_floats():
    offsets = np.arange(-12, 12).reshape(2, 3, 4)
    assert relative_position_bucket(offsets).shape == (2, 3, 4)
    with pytest.raises(TypeError, match="integers"):
        relative_position_bucket(np.array([1.5]))


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.sampled_from(CONFIGS), st.integers(0, 500), st.integers(0, 500))
def test_bucket_is_monotone_in_distance_within_a_direction(bidirectional, config, a, b):
    near, far = sorted((a, b))
    for sign in (-1, 1) if bidirectional else (-1,):
        low, high = relative_position_bucket(np.array([sign * near, sign * far]), bidirectional, *config)
        assert low <= high


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.sampled_from(CONFIGS), st.integers(-500, 500))
def test_bucket_is_the_distance_below_max_exact_and_shared_past_max_distance(bidirectional, config, offset):
    num_buckets, max_distance = config
    n = num_buckets // 2 if bidirectional else num_buckets
    bucket = int(relative_position_bucket(np.array(offset), bidirectional, num_buckets, max_distance))
    behind = offset <= 0 or not bidirectional
    distance = abs(offset) if bidirectional else max(-offset, 0)
    if distance < n // 2:
        assert bucket == distance + (0 if behind else n)
    if distance >= max_distance:
        assert bucket == (n - 1 if behind else 2 * n - 1)
    assert 0 <= bucket < num_buckets


def test_a_causal_key_ahead_shares_the_query_own_bucket():
    assert relative_position_bucket(np.arange(0, 50), bidirectional=False).tolist() == [0] * 50


def test_the_last_bucket_starts_before_max_distance():
    first, count = offsets_sharing_last_bucket(True, 32, 128, reach=1000)
    assert first == 91 and count == 1000 - 90  # 8·16^(7/8) ≈ 90.5: the cap bites before 128


def test_t5_bias_reads_the_table_by_the_bucket_of_key_minus_query():
    table = np.random.default_rng(0).standard_normal((3, 32))
    bias = t5_relative_bias(20, table, bidirectional=False)
    for i in range(20):
        for j in range(20):
            assert bias[:, i, j].tolist() == table[:, published_bucket(j - i, False, 32, 128)].tolist()
    assert bias.shape == (3, 20, 20) and bias.dtype == np.float64


def test_shaw_clips_every_pair_past_k_to_the_edge_row_and_matches_a_loop():
    rng = np.random.default_rng(1)
    T, hs, clip = 7, 4, 2
    Q, K, V = (rng.standard_normal((T, hs)) for _ in range(3))
    rel_k, rel_v = rng.standard_normal((2 * clip + 1, hs)), rng.standard_normal((2 * clip + 1, hs))
    index = shaw_clipped_index(T, clip)
    assert index[6, 0] == index[3, 0] == 0 and index[0, 6] == 2 * clip
    scores = np.array([[Q[i] @ (K[j] + rel_k[max(-clip, min(clip, j - i)) + clip]) for j in range(T)] for i in range(T)]) / 2.0
    weights = softmax(scores)
    out = np.array([sum(weights[i, j] * (V[j] + rel_v[max(-clip, min(clip, j - i)) + clip]) for j in range(T)) for i in range(T)])
    got = shaw_attention(Q, K, V, rel_k, rel_v, clip)
    np.testing.assert_allclose(got.weights, weights, atol=1e-12)
    np.testing.assert_allclose(got.out, out, atol=1e-12)


def test_transformer_xl_terms_match_a_loop_and_position_terms_depend_on_the_distance_only():
    rng = np.random.default_rng(2)
    T, C, hs = 6, 8, 4
    X = rng.standard_normal((T, C))
    Wq, Wk, Wr = (rng.standard_normal((C, hs)) for _ in range(3))
    u, v = rng.standard_normal(hs), rng.standard_normal(hs)
    terms = transformer_xl_terms(X, Wq, Wk, Wr, u, v)
    i, j = 4, 1
    R = relative_sinusoid(np.array([i - j]), C)[0] @ Wr
    expected = [(X[i] @ Wq) @ (X[j] @ Wk), (X[i] @ Wq) @ R, u @ (X[j] @ Wk), v @ R]
    np.testing.assert_allclose(terms[:, i, j], expected, atol=1e-12)
    assert np.allclose(terms[3, 2, 0], terms[3, 5, 3])  # (d): the same distance, the same bias
    assert np.allclose(terms[2, 0, :], terms[2, 5, :])  # (c): the same for every query


def test_kerple_power_with_exponent_one_is_alibi_symmetric_bias():
    slopes = alibi_slopes(8)
    np.testing.assert_allclose(kerple_bias(9, slopes, np.ones(8), kernel="power"), symmetric_alibi_bias(8, 9), atol=0)
    log = kerple_bias(5, np.array([2.0]), np.array([0.5]))
    assert log[0, 4, 1] == pytest.approx(-2.0 * math.log(1 + 0.5 * 3))
    with pytest.raises(ValueError, match="kernel"):
        kerple_bias(3, np.ones(1), np.ones(1), kernel="cubic")


def test_fire_input_stays_in_unit_interval_at_any_length_and_the_bias_is_causal():
    for T in (8, 64, 512):
        x = fire_input(T)
        lower = np.tril(np.ones((T, T), dtype=bool))
        assert x[lower].min() == 0.0 and x[lower].max() == pytest.approx(1.0)
    rng = np.random.default_rng(3)
    f = FireMLP(rng.standard_normal(5), rng.standard_normal(5), rng.standard_normal(5))
    bias = fire_bias(6, f)
    assert np.isneginf(bias[0, 1]) and bias[3, 1] == pytest.approx(f(np.array(math.log(3) / math.log(4))))


def test_relative_heads_past_the_training_length():
    result = relative_attend_back_experiment()
    scores = dict(zip(result.names, zip(result.train, result.test, strict=True), strict=True))
    assert scores["T5 buckets (causal, 16, 24)"] == (1.0, 1.0)
    assert scores["Shaw, clipped at 8"] == (1.0, 1.0)
    assert scores["KERPLE, log kernel"] == (0.0, 0.0)  # one monotone kernel cannot point 3 back, as ALiBi cannot
    assert scores["FIRE, threshold 32"][0] == 1.0 and scores["FIRE, threshold 32"][1] < 0.5
    assert scores["FIRE, no threshold"][0] < 1.0


def test_the_playground_t5_signal_is_the_bias_of_one_head_added_to_the_scores():
    from attnpos.core.attention import attend
    from attnpos.core.playground import DEFAULT_SEED, WIDTH, play, t5_table
    from attnpos.core.words import head_weights, sentence_matrix

    words = "the cat sat on the mat".split()
    shown = play(words, [5, 0, 3, 2, 1, 4], "t5")
    Wq, Wk, Wv = head_weights(WIDTH, WIDTH, DEFAULT_SEED)
    X = sentence_matrix(words, WIDTH, DEFAULT_SEED)
    expected = attend(X @ Wq, X @ Wk, X @ Wv, bias=t5_relative_bias(6, t5_table(DEFAULT_SEED))[0])
    np.testing.assert_allclose(shown.weights, expected.weights, atol=1e-12)
    assert not shown.equivariant  # a relative bias follows the slots: a shuffle changes what each token reads
