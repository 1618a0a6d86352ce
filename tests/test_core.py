"""The core's figures, properties and an independent second implementation."""

from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnpos.core import (
    alibi_bias,
    alibi_slopes,
    embed,
    embed_backward,
    equivariance_gap,
    learned_positions,
    learned_table,
    permutation_matrix,
    permute_tokens,
    pooled_readout,
    rope_rotate,
    self_attention,
    sinusoidal,
    slot_ramp,
    softmax,
)
from attnpos.core import experiments as ex

MACHINE_ZERO = 1e-14  # a few ulps of float64 at the magnitudes these tests use


def naive_attention(X, Wq, Wk, Wv, causal=False):
    """Loop-by-loop attention for one sequence X (T, C): the reference the core is checked against."""
    T = X.shape[0]
    q = [X[i] @ Wq for i in range(T)]
    k = [X[j] @ Wk for j in range(T)]
    v = [X[j] @ Wv for j in range(T)]
    d = len(q[0])
    out = np.zeros((T, Wv.shape[1]))
    weights = np.zeros((T, T))
    for i in range(T):
        visible = range(i + 1) if causal else range(T)
        scores = {j: sum(q[i][a] * k[j][a] for a in range(d)) / d**0.5 for j in visible}
        top = max(scores.values())
        total = sum(np.exp(s - top) for s in scores.values())
        for j, s in scores.items():
            weights[i, j] = np.exp(s - top) / total
            out[i] += weights[i, j] * v[j]
    return out, weights


def random_head(rng, C, hs=None):
    hs = hs or C
    return [rng.standard_normal((C, hs)) * 0.5 for _ in range(3)]


# --- softmax ---------------------------------------------------------------


def test_softmax_survives_huge_logits():
    w = softmax(np.array([[1e300, -1e300, 0.0], [-1e300, -1e300, -1e300], [1e300, 1e300, 1e300]]))
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(axis=-1), 1.0)
    np.testing.assert_array_equal(w[0], [1.0, 0.0, 0.0])
    np.testing.assert_allclose(w[1], 1 / 3)


@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 8)), elements=st.floats(-1e300, 1e300)))
def test_softmax_rows_are_distributions(logits):
    w = softmax(logits)
    assert np.all(w >= 0) and np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)


def test_fully_masked_row_is_zero_not_nan():
    assert np.array_equal(softmax(np.array([[-np.inf, -np.inf]])), [[0.0, 0.0]])


# --- attention against the loop version -----------------------------------


@pytest.mark.parametrize("causal", [False, True])
def test_attention_matches_loop_implementation(causal):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((2, 5, 4))
    Wq, Wk, Wv = random_head(rng, 4, 3)
    result = self_attention(X, Wq, Wk, Wv, causal=causal)
    assert result.out.shape == (2, 5, 3) and result.weights.shape == (2, 5, 5)
    for b in range(2):
        out, weights = naive_attention(X[b], Wq, Wk, Wv, causal=causal)
        np.testing.assert_allclose(result.out[b], out, atol=1e-12)
        np.testing.assert_allclose(result.weights[b], weights, atol=1e-12)


def test_unbatched_input_keeps_its_rank():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((4, 6))
    result = self_attention(X, *random_head(rng, 6))
    assert result.out.shape == (4, 6) and result.weights.shape == (4, 4)


def test_bias_shifts_scores():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((3, 4))
    head = random_head(rng, 4)
    bias = np.array([[0.0, -np.inf, -np.inf], [0.0, 0.0, -np.inf], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(
        self_attention(X, *head, bias=bias).weights, self_attention(X, *head, causal=True).weights
    )


def test_matches_torch_when_installed():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    X = rng.standard_normal((2, 5, 8))
    Wq, Wk, Wv = random_head(rng, 8)
    t = [torch.tensor(a) for a in (X @ Wq, X @ Wk, X @ Wv)]
    expected = torch.nn.functional.scaled_dot_product_attention(*t).numpy()
    np.testing.assert_allclose(self_attention(X, Wq, Wk, Wv).out, expected, atol=1e-10)


# --- the lessons' figures --------------------------------------------------


def test_shuffle_gap_is_machine_zero():
    r = ex.shuffle_experiment()
    assert r.shape == (1, 6, 8) and r.perm == (3, 0, 5, 1, 4, 2)
    assert r.gap < MACHINE_ZERO  # the lesson's own run printed 4.440892098500626e-16
    assert r.naive_gap > 1.0
    assert ex.shuffle_experiment().gap == r.gap  # deterministic: a rerun gives the same figure


def test_identical_tokens_give_identical_rows():
    r = ex.twin_experiment()
    assert r.rows_equal and r.max_diff == 0.0


def test_slot_ramp_breaks_the_symmetry():
    r = ex.offset_experiment()
    # The lesson printed 3.499757764020842; the last digits depend on the BLAS build.
    assert r.gap == pytest.approx(3.499757764020842, abs=1e-9)
    assert r.constant_gap < MACHINE_ZERO


def test_matrix_form():
    r = ex.matrix_form_experiment()
    np.testing.assert_array_equal(r.P, [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0]])
    assert r.equal and r.max_diff < MACHINE_ZERO


def test_sentence_experiment():
    r = ex.sentence_experiment()
    assert r.order_b == ("mat", "the", "on", "sat", "cat", "the")
    assert r.weights.shape == (6, 6)
    assert r.relist_gap < MACHINE_ZERO and r.pooled_gap < MACHINE_ZERO
    assert r.pos_pooled_gap > 0.1
    assert r.row_sums_max_error < MACHINE_ZERO
    assert r.most_changed_row == 1  # the edited token's own row moves most
    assert r.causal_row_change[0] == 0.0  # under a causal mask the row before the edit cannot see it
    np.testing.assert_allclose(r.flat_weights, 1 / 6)
    assert np.all(r.sharp_max_weight[:5] > 0.99)
    # Rows 0 and 4 hold the same word: identical rows, and the mat row can only split between them.
    np.testing.assert_array_equal(r.weights[0], r.weights[4])
    assert r.sharp_max_weight[5] == pytest.approx(0.5, abs=1e-6)


def test_exercise_reference_figures():
    r = ex.exercise_figures()
    assert r.naive_gap > 1.0
    assert r.constant_gap < MACHINE_ZERO
    assert not r.twin_rows_equal_with_pos and r.twin_diff_with_pos > 0.1
    assert r.after_attention_matches_offset
    np.testing.assert_allclose(r.after_attention_diff, 4 * ex.RAMP_STEP)


# --- properties --------------------------------------------------------------

shapes = st.tuples(st.integers(1, 16), st.integers(2, 16), st.integers(1, 16))


@settings(max_examples=60, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_attention_is_permutation_equivariant(shape, seed, data):
    B, T, C = shape
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((B, T, C))
    head = random_head(rng, C)
    perm = np.array(data.draw(st.permutations(range(T))))
    assert equivariance_gap(X, *head, perm) < 1e-12
    out = self_attention(X, *head).out
    shuffled = self_attention(permute_tokens(X, perm), *head).out
    np.testing.assert_allclose(pooled_readout(shuffled), pooled_readout(out), atol=1e-11)


@settings(max_examples=60, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_per_slot_signal_breaks_equivariance(shape, seed):
    B, T, C = shape
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((B, T, C))
    head = random_head(rng, C)
    reverse = np.arange(T)[::-1]
    # Reversal moves every token except a middle one; with a distinct ramp per slot the run changes.
    assert equivariance_gap(X, *head, reverse, pos=slot_ramp(T, C)) > 1e-6


def test_pooled_readout_tells_orders_apart_with_position():
    rng = np.random.default_rng(9)
    X = rng.standard_normal((6, 8))
    head = random_head(rng, 8)
    perm = np.array([5, 0, 3, 2, 1, 4])
    pos = sinusoidal(6, 8)
    a = pooled_readout(self_attention(X + pos, *head).out)
    b = pooled_readout(self_attention(permute_tokens(X, perm) + pos, *head).out)
    assert np.max(np.abs(a - b)) > 1e-3


def test_permutation_matrix_matches_indexing():
    perm = np.array([2, 0, 3, 1])
    X = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(permutation_matrix(perm) @ X, X[perm])


# --- position signals -----------------------------------------------------


def test_sinusoidal_matches_formula():
    T, C = 7, 10
    pe = sinusoidal(T, C)
    for t in range(T):
        for i in range(C // 2):
            angle = t / 10000 ** (2 * i / C)
            assert pe[t, 2 * i] == pytest.approx(np.sin(angle), abs=1e-15)
            assert pe[t, 2 * i + 1] == pytest.approx(np.cos(angle), abs=1e-15)
    assert np.all(np.abs(sinusoidal(5000, 16)) <= 1.0)  # bounded at any length


def test_sinusoidal_odd_width():
    assert sinusoidal(3, 5).shape == (3, 5)


def test_slot_ramp_and_constant():
    np.testing.assert_allclose(slot_ramp(3, 2, 0.6), [[0.6, 0.6], [1.2, 1.2], [1.8, 1.8]])


def test_learned_table_has_no_rows_past_its_end():
    table = learned_table(8, 4, seed=1)
    assert learned_positions(table, 8).shape == (8, 4)
    with pytest.raises(IndexError, match="past its end"):
        learned_positions(table, 9)


def test_embedding_backward_against_finite_differences():
    rng = np.random.default_rng(2)
    V, C = 5, 3
    table = rng.standard_normal((V, C))
    ids = np.array([[1, 3, 1, 4]])  # id 1 twice: its gradient must accumulate
    upstream = rng.standard_normal((1, 4, C))

    def loss(t):
        return float(np.sum(embed(t, ids) * upstream))

    grad = embed_backward(upstream, ids, V)
    numeric = np.zeros_like(table)
    eps = 1e-6
    for v in range(V):
        for c in range(C):
            bump = np.zeros_like(table)
            bump[v, c] = eps
            numeric[v, c] = (loss(table + bump) - loss(table - bump)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, atol=1e-8)
    np.testing.assert_allclose(grad[1], upstream[0, 0] + upstream[0, 2])
    assert np.all(grad[[0, 2]] == 0)


def test_rope_score_depends_only_on_offset():
    rng = np.random.default_rng(4)
    q, k = rng.standard_normal(8), rng.standard_normal(8)

    def score(m, n):
        positions = np.array([m, n])
        qr = rope_rotate(np.stack([q, q]), positions)[0]
        kr = rope_rotate(np.stack([k, k]), positions)[1]
        return qr @ kr

    assert score(0, 3) == pytest.approx(score(10, 13), abs=1e-12)
    assert score(2, 2) == pytest.approx(q @ k, abs=1e-12)
    assert score(0, 3) != pytest.approx(score(0, 4), abs=1e-6)


def test_rope_preserves_norms():
    x = np.random.default_rng(0).standard_normal((5, 6))
    np.testing.assert_allclose(np.linalg.norm(rope_rotate(x), axis=-1), np.linalg.norm(x, axis=-1))


def test_alibi_slopes():
    np.testing.assert_allclose(alibi_slopes(8), [1 / 2**k for k in range(1, 9)])
    # Not a power of two: the 4-head slopes, then every other slope of 8 heads.
    np.testing.assert_allclose(alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8])
    assert len(alibi_slopes(12)) == 12


def test_alibi_bias():
    bias = alibi_bias(2, 3)
    assert bias.shape == (2, 3, 3)
    np.testing.assert_allclose(bias[0], -(1 / 16) * np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]]))


# --- architecture ----------------------------------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEXTUAL_SIDE = (
    "textual",
    "attnpos.tui.app",
    "attnpos.tui.main",
    "attnpos.tui.screens",
    "attnpos.tui.widgets",
    "attnpos.tui.leaks",
    "attnpos.tui.command_palette",
)
FORBIDDEN = {
    "core": ("textual", "rich", "attnpos.lessons", "attnpos.tui"),
    "lessons": ("textual", "attnpos.tui"),
    # The command line and the colour ramp it prints with never load Textual: it opens the app through tui/main.py.
    "tui/cli": TEXTUAL_SIDE,
    "tui/colours.py": TEXTUAL_SIDE,
}


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package):
    offenders = []
    where = ROOT / package
    for path in [where] if where.is_file() else where.rglob("*.py"):
        for name in imported_modules(path):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[package]):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, offenders


def test_no_module_name_is_shared_across_rooms():
    """A name says its room: lessons/outline.py is the table of contents, tui/screens/outline_screen.py draws it."""
    rooms: dict[str, set[str]] = {}
    for room in ("core", "lessons", "tui"):
        for path in (ROOT / room).rglob("*.py"):
            if path.stem != "__init__" and "exercises" not in path.relative_to(ROOT).parts:
                rooms.setdefault(path.stem, set()).add(room)
    assert not {name: where for name, where in rooms.items() if len(where) > 1}
