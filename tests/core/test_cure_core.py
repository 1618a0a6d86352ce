"""Lessons 5 to 7's core: each function against a second implementation written another way, and properties with hypothesis."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnpos.core import cure_experiments as cx
from attnpos.core import embed, embed_backward, learned_positions, sinusoidal
from attnpos.core.embedding_tables import (
    buffered_backward,
    finite_difference_gradient,
    onehot,
    onehot_backward,
    position_backward,
    row_use_counts,
)
from attnpos.core.learned_training import train_position_table, training_lengths
from attnpos.core.sinusoidal_encoding import (
    attention_terms,
    binary_counter,
    halves_order,
    offset_products,
    pair_frequencies,
    shift_error,
    shift_matrix,
    shifted_by_blocks,
    to_halves,
    wavelengths,
)

ids_and_grads = st.integers(1, 4).flatmap(
    lambda B: st.integers(1, 6).flatmap(
        lambda T: st.tuples(
            st.just((B, T)),
            st.integers(1, 9),  # V
            st.integers(1, 5),  # C
            st.integers(0, 2**32 - 1),
        )
    )
)


def loop_scatter(grad_out, ids, V):
    """The scatter-add one token at a time, as the definition reads."""
    grad = [[0.0] * grad_out.shape[-1] for _ in range(V)]
    for b in range(ids.shape[0]):
        for t in range(ids.shape[1]):
            for c in range(grad_out.shape[-1]):
                grad[ids[b, t]][c] += grad_out[b, t, c]
    return np.array(grad)


@settings(max_examples=60, deadline=None)
@given(ids_and_grads)
def test_scatter_add_against_a_loop_and_the_onehot_product(case):
    (B, T), V, C, seed = case
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, V, size=(B, T))
    grad_out = rng.standard_normal((B, T, C))
    scatter = embed_backward(grad_out, ids, V)
    assert np.allclose(scatter, loop_scatter(grad_out, ids, V), rtol=0, atol=1e-12)
    assert np.allclose(scatter, onehot_backward(grad_out, ids, V), rtol=0, atol=1e-12)
    unused = row_use_counts(ids, V) == 0
    assert np.all(scatter[unused] == 0)


@settings(max_examples=60, deadline=None)
@given(ids_and_grads)
def test_lookup_is_the_onehot_product(case):
    (B, T), V, C, seed = case
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, V, size=(B, T))
    table = rng.standard_normal((V, C))
    assert np.array_equal(embed(table, ids), onehot(ids, V) @ table)
    assert onehot(ids, V).sum(axis=-1).tolist() == np.ones((B, T)).tolist()


@settings(max_examples=60, deadline=None)
@given(ids_and_grads)
def test_buffered_add_keeps_one_gradient_per_used_row(case):
    (B, T), V, C, seed = case
    ids = np.random.default_rng(seed).integers(0, V, size=(B, T))
    ones = np.ones((B, T, C))
    counts = np.bincount(ids.ravel(), minlength=V)
    assert buffered_backward(ones, ids, V)[:, 0].tolist() == (counts > 0).astype(float).tolist()
    assert embed_backward(ones, ids, V)[:, 0].tolist() == counts.astype(float).tolist()


def test_finite_differences_agree_near_1e_10():
    result = cx.embedding_experiment()
    assert result.finite_difference_gap < 1e-9
    assert result.onehot_gap == 0.0
    assert (result.buffered_repeat, result.unbuffered_repeat) == (1.0, 3.0)
    assert result.unused_rows == cx.EMBED_VOCAB - len(set(np.ravel(cx.EMBED_IDS)))


def test_finite_difference_gradient_of_a_known_function():
    table = np.arange(6.0).reshape(3, 2)
    grad = finite_difference_gradient(lambda E: float(np.sum(np.sin(E))), table, 1e-5)
    assert np.allclose(grad, np.cos(table), rtol=0, atol=1e-9)


def test_gpt2_counts():
    assert cx.gpt2_small_parameters() == 124_439_808
    assert cx.learned_experiment().gpt2_wpe == 1024 * 768 == 786_432
    assert cx.learned_experiment().roberta_wpe == 514 * 768


def test_scale_norms():
    result = cx.scale_experiment()
    assert result.position_norm == pytest.approx(math.sqrt(512 / 2))
    assert abs(result.token_norm - 1) < 0.01
    assert result.scaled_token_norm == pytest.approx(result.token_norm * math.sqrt(512))


# --- the sinusoidal encoding ---------------------------------------------------------


def loop_sinusoidal(T, C):
    """The paper's two lines, one entry at a time."""
    pe = np.zeros((T, C))
    for pos in range(T):
        for i in range(C // 2):
            pe[pos, 2 * i] = math.sin(pos / 10000 ** (2 * i / C))
            pe[pos, 2 * i + 1] = math.cos(pos / 10000 ** (2 * i / C))
    return pe


@settings(max_examples=40, deadline=None)
@given(T=st.integers(1, 40), pairs=st.integers(1, 16))
def test_sinusoidal_against_the_loop_and_its_properties(T, pairs):
    C = 2 * pairs
    pe = sinusoidal(T, C)
    assert np.allclose(pe, loop_sinusoidal(T, C), rtol=0, atol=1e-13)
    assert pe[0].tolist() == [0.0, 1.0] * pairs
    assert np.allclose(np.linalg.norm(pe, axis=1), math.sqrt(C / 2), rtol=0, atol=1e-13)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(0, 30), pairs=st.integers(1, 16))
def test_shift_matrix_moves_every_row_and_is_a_rotation(k, pairs):
    C = 2 * pairs
    pe = sinusoidal(k + 40, C)
    M = shift_matrix(k, C)
    assert shift_error(pe, M, k) < 1e-13
    assert np.allclose(shifted_by_blocks(pe, k), pe @ M.T, rtol=0, atol=1e-14)
    assert np.allclose(M @ M.T, np.eye(C), rtol=0, atol=1e-14)
    # the same rotation written with complex numbers: pair i as cos + i·sin, times e^(i·k·ω)
    z = (pe[:, 1::2] + 1j * pe[:, 0::2]) * np.exp(1j * k * pair_frequencies(C))
    assert np.allclose(z.imag[:40], pe[k:, 0::2], rtol=0, atol=1e-13)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(-60, 60), pairs=st.integers(1, 32), t=st.integers(0, 60))
def test_offset_products_do_not_depend_on_t(k, pairs, t):
    C = 2 * pairs
    pe = sinusoidal(t + abs(k) + 1, C)
    s, u = (t, t + k) if k >= 0 else (t - k, t)
    assert float(pe[s] @ pe[u]) == pytest.approx(float(offset_products(C, [k])[0]), abs=1e-12)
    assert offset_products(C, [k])[0] == offset_products(C, [-k])[0]


def test_sinusoidal_figures():
    result = cx.sinusoidal_experiment()
    assert result.shift_error < 1e-13
    assert result.product_spread < 1e-12
    assert result.product_512 == pytest.approx(float(np.cos(7 * 10000 ** (-np.arange(0, 512, 2) / 512)).sum()))
    assert result.longest_wavelength_512 == pytest.approx(2 * math.pi * 10000 ** (510 / 512))
    assert result.longest_wavelength_512 < result.paper_bound
    profile = result.offset_profile
    assert profile[result.first_rise] > profile[result.first_rise - 1]  # not monotone
    assert np.all(np.diff(profile[: result.first_rise]) < 0)
    assert wavelengths(8).tolist() == pytest.approx([2 * math.pi * 10**j for j in range(4)])
    terms = [v["position-position"] for v in result.terms.values()]
    assert max(terms) - min(terms) > 1  # a generic W_Q W_Kᵀ does not keep the offset-only property


def test_attention_terms_sum_to_the_score():
    rng = np.random.default_rng(0)
    x, p, y, q = rng.standard_normal((4, 6))
    Wq, Wk = rng.standard_normal((2, 6, 3))
    score = float((x + p) @ Wq @ ((y + q) @ Wk))
    assert sum(attention_terms(x, p, y, q, Wq, Wk).values()) == pytest.approx(score)


def test_halves_is_a_channel_permutation():
    pe = sinusoidal(5, 8)
    assert np.array_equal(to_halves(pe), pe[:, halves_order(8)])
    assert to_halves(pe)[:, :4].tolist() == pe[:, 0::2].tolist()


@given(T=st.integers(1, 64), bits=st.integers(1, 7))
def test_binary_counter_reads_back_as_t(T, bits):
    counter = binary_counter(T, bits)
    assert (counter @ (2 ** np.arange(bits))).tolist() == [t % 2**bits for t in range(T)]


# --- learned tables -----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(B=st.integers(1, 4), T=st.integers(1, 8), extra=st.integers(0, 4), seed=st.integers(0, 2**32 - 1))
def test_position_backward_against_the_scatter_add_of_slots(B, T, extra, seed):
    max_len, C = T + extra, 3
    grad_out = np.random.default_rng(seed).standard_normal((B, T, C))
    slots = np.broadcast_to(np.arange(T), (B, T))
    assert np.allclose(position_backward(grad_out, max_len), loop_scatter(grad_out, slots, max_len), rtol=0, atol=1e-12)
    table = np.random.default_rng(seed).standard_normal((max_len, C))
    assert np.array_equal(learned_positions(table, T), table[:T])
    with pytest.raises(IndexError, match="past its end"):
        learned_positions(table, max_len + 1)


def loop_training(steps, max_len, C, batch, shortest, longest, learning_rate, seed):
    """The training of `train_position_table`, one token's scatter-add at a time."""
    from attnpos.core.position import learned_table

    wpe = learned_table(max_len, C, seed=seed)
    target = sinusoidal(max_len, C)
    for lengths in training_lengths(steps, batch, shortest, longest, seed + 1):
        N = int(lengths.sum())
        grad = np.zeros_like(wpe)
        for n in lengths:
            for t in range(n):
                grad[t] += (wpe[t] - target[t]) / N
        wpe = wpe - learning_rate * grad
    return wpe


def test_training_against_the_token_by_token_loop():
    settings_ = dict(steps=200, max_len=10, C=4, batch=3, shortest=2, longest=6, learning_rate=0.3, seed=5)
    fast = train_position_table(**settings_)
    assert np.allclose(fast.after, loop_training(**settings_), rtol=0, atol=1e-12)


def test_training_figures():
    run = cx.learned_experiment()
    assert run.untouched
    assert np.array_equal(run.after[8:], run.before[8:])
    counts = run.gradients
    assert np.all(np.diff(counts[: run.longest]) <= 0) and counts[run.longest - 1] > 0 == counts[run.longest]
    assert run.row_error[: run.longest].max() < 0.1 < 1.0 < run.row_error[run.longest :].min()


def test_the_signals_screen_shows_lesson_7s_trained_table():
    from attnpos.core.pictures import trained_lookup

    lookup = trained_lookup(T=16, max_len=12)
    run = train_position_table()
    assert np.array_equal(lookup.values[:12], run.after[:12])
    assert np.isnan(lookup.values[12:]).all() and not lookup.has_row[12:].any()
    assert lookup.error is not None and "12 positions" in lookup.error
