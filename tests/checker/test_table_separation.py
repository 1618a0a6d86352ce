"""Lessons 5-7's exercises: every hypothesis a checker names gives figures of its own, on the starter's inputs and on the rerun's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attnpos.lessons.checker import substitutes
from attnpos.lessons.checker.contracts import embedding_backward, sinusoidal_table


def distinct(tables: dict[str, np.ndarray]) -> list[tuple[str, str]]:
    """Pairs of hypotheses whose arrays agree (same shape, within 1e-9)."""
    return [(a, b) for (a, x), (b, y) in itertools.combinations(tables.items(), 2) if x.shape == y.shape and np.allclose(x, y, rtol=0, atol=1e-9)]


def embedding_inputs():
    rng = np.random.default_rng(5)
    wte = rng.standard_normal((10, 4))
    ids = np.array([[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]])
    rerun_ids = substitutes.longer_ids(ids, wte)
    for which in (ids, rerun_ids):
        grad_out = np.random.default_rng(0).standard_normal((*which.shape, 4))
        yield which, grad_out


@pytest.mark.parametrize("run", [0, 1], ids=["as-written", "rerun"])
def test_embedding_hypotheses_are_apart(run):
    ids, grad_out = list(embedding_inputs())[run]
    tables = {"right": embedding_backward.scatter(ids, grad_out, 10), **embedding_backward.mistaken_gradients(ids, grad_out, 10)}
    if run == 0:
        del tables["per-position"]  # the starter's sentences share no id at one position: only the rerun's (which open alike) tell it
    assert distinct(tables) == []


@pytest.mark.parametrize("T, C", [(12, 8), (12, substitutes.wider(8))])
def test_sinusoidal_hypotheses_are_apart(T, C):
    assert distinct(sinusoidal_table.tables(T, C)) == []


@pytest.mark.parametrize("run", [0, 1], ids=["as-written", "rerun"])
def test_learned_hypotheses_are_apart(run):
    rng = np.random.default_rng(7)
    wte, wpe = rng.standard_normal((6, 4)), 0.02 * rng.standard_normal((8, 4))
    ids = rng.integers(0, 6, size=(3, 5))
    if run:
        ids = substitutes.longer_ids(ids, wte, wpe)
    B, T = ids.shape
    grad_out = rng.standard_normal((B, T, 4))
    forward = {"right": wte[ids] + wpe[:T], "by-token-id": wte[ids] + wpe[ids], "off-by-one": wte[ids] + wpe[1 : T + 1]}
    assert distinct(forward) == []

    def rows(values, start=0):
        grad = np.zeros((8, 4))
        grad[start : start + T] = values
        return grad

    by_id = np.zeros((8, 4))
    np.add.at(by_id, ids, grad_out)
    backward = {
        "right": rows(grad_out.sum(0)),
        "by-token-id": by_id,
        "off-by-one": rows(grad_out.sum(0), 1),
        "mean": rows(grad_out.mean(0)),
        **{f"sequence {b}": rows(grad_out[b]) for b in range(B)},
    }
    assert distinct(backward) == []
    long_ids = rng.integers(0, 6, size=(1, 10))
    slots = np.arange(10)
    assert distinct({"modulo": wte[long_ids] + wpe[slots % 8], "clip": wte[long_ids] + wpe[np.minimum(slots, 7)]}) == []


# --- the judges themselves, on values as the sandbox would read them ---------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from attnpos.lessons.checker.contracts import CONTRACTS, Runs  # noqa: E402
from attnpos.lessons.checker.rerun import answer  # noqa: E402
from attnpos.lessons.checker.verdicts import Mistake  # noqa: E402

ADD_AT_SOURCE = "grad_wte = np.zeros_like(wte)\nnp.add.at(grad_wte, ids, grad_out)"


def embedding_values(ids, wte, seed, backward, dtype):
    grad_out = np.random.default_rng(seed).standard_normal((*ids.shape, wte.shape[1])).astype(dtype)
    grad_wte = backward(ids, grad_out.astype(np.float64), wte.shape[0]).astype(dtype)
    return {"wte": wte.astype(dtype), "ids": ids, "grad_out": grad_out, "out": wte.astype(dtype)[ids], "grad_wte": grad_wte}


def judged(exercise, first, rerun, source=ADD_AT_SOURCE, more=()):
    """The judge's verdict; what ``source`` says is read here, as the learner's process reads it before its run.

    ``more``: the values of the contract's further reruns, in its order.
    """
    contract = CONTRACTS[exercise]
    answers = {question: answer(source, question.as_json()) for question in contract.questions}
    reruns = (rerun, *more)
    changed = tuple(planned.changed for planned in contract.reruns)[: len(reruns)]
    try:
        contract.judge(Runs(first, reruns, ("",) * len(reruns), changed, answers))
    except Mistake as mistake:
        return mistake.diagnosis, mistake.cause
    return "passed", ""


@settings(max_examples=40, deadline=None)
@given(
    V=st.integers(2, 12),
    C=st.integers(1, 6),
    B=st.integers(2, 4),
    T=st.integers(2, 7),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from([np.float64, np.float32]),
)
def test_embedding_judge_passes_right_answers_and_names_each_misconception(V, C, B, T, seed, dtype):
    rng = np.random.default_rng(seed)
    wte = rng.standard_normal((V, C))
    ids = rng.integers(0, V, size=(B, T))
    rerun_ids = substitutes.other_ids(ids, wte)
    right = embedding_backward.scatter

    def both(backward):
        return embedding_values(ids, wte, seed, backward, dtype), embedding_values(rerun_ids, wte, seed + 1, backward, dtype)

    assert judged("embedding-backward", *both(right)) == ("passed", "")
    counts = np.bincount(ids.ravel(), minlength=V)
    if counts.max() > 1 and not np.allclose(embedding_backward.last_write_wins(ids, np.ones((B, T, C)), V), right(ids, np.ones((B, T, C)), V)):
        assert judged("embedding-backward", *both(embedding_backward.last_write_wins))[0] in ("buffered-add", "overwritten")
    first_only = both(lambda i, g, rows: right(i[0], g[0], rows))
    if not np.allclose(first_only[0]["grad_wte"], right(ids, first_only[0]["grad_out"].astype(np.float64), V), atol=1e-5):
        assert judged("embedding-backward", *first_only)[0] in ("first-sequence-only", "buffered-add", "overwritten", "mismatch")


def test_an_unused_row_left_unset_is_named_where_only_the_rerun_shows_it():
    """np.empty_like whose memory was zero on the learner's run: the rerun's poisoned memory shows the unset rows."""
    rng = np.random.default_rng(5)
    wte, ids = rng.standard_normal((10, 4)), np.array([[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]])
    rerun_ids = substitutes.other_ids(ids, wte)
    first, rerun = (embedding_values(i, wte, seed, embedding_backward.scatter, np.float64) for i, seed in ((ids, 5), (rerun_ids, 6)))
    unused = np.bincount(rerun_ids.ravel(), minlength=10) == 0
    rerun["grad_wte"] = np.where(unused[:, None], np.nan, rerun["grad_wte"])
    assert unused.any() and judged("embedding-backward", first, rerun) == ("mismatch", "unset-rows")


def test_the_embedding_rerun_leaves_nan_where_a_new_array_of_the_tables_shape_is_not_written():
    wte = np.random.default_rng(0).standard_normal((13, 8))
    for dtype in (np.float64, np.float32):
        substitutes.poisoned_for(np.zeros((2, 5, 8)), np.zeros((2, 6), dtype=np.int64), wte.astype(dtype))
        assert np.all(np.isnan(np.empty_like(wte, dtype=dtype)))


@settings(max_examples=30, deadline=None)
@given(T=st.integers(4, 40), pairs=st.integers(1, 16), k=st.integers(1, 3), dtype=st.sampled_from([np.float64, np.float32]))
def test_sinusoidal_judge_passes_right_tables_and_names_the_layouts(T, pairs, k, dtype):
    from attnpos.core.sinusoidal_encoding import shift_error, shift_matrix

    def values(length, C, shift, cause="right", bend=None):
        pe = sinusoidal_table.tables(length, C)[cause].astype(dtype)
        if bend is not None:  # each rerun bends the table the script built, and the script measures its shift error on that
            pe = bend(pe, shift)
        M = shift_matrix(shift, C).astype(dtype)
        figure = shift_error(pe.astype(np.float64), M.astype(np.float64), shift)
        return {"T": np.array(length), "C": np.array(C), "k": np.array(shift), "pe": pe, "M": M, "shift_error": np.array(figure)}

    def reruns(cause="right"):
        """The values of the four reruns: the table bent most at its last row, most at its first, in five cells of a
        table five rows longer, then in single channels of the middle difference row of a table far larger."""
        far = (substitutes.far_more_positions(T), substitutes.far_more_channels(C), substitutes.shortest_shift(k))
        sizes = ((T, wider, farther), (T, wider, farther), (substitutes.five_longer(T), wider, farther), far)
        bent = [values(*size, cause, bend) for size, bend in zip(sizes, sinusoidal_table.BENDS.values(), strict=True)]
        # and the covering reruns: the script's own sizes, one difference raised above the rest in each
        covering = [
            values(T, C, k, cause, lambda pe, shift, j=j: substitutes.bent_in_one_cell(pe, shift, placement=j)) for j in sinusoidal_table.COVERING.values()
        ]
        return bent + covering

    C = 2 * pairs
    wider, farther = substitutes.wider(C), substitutes.farther(k, T)
    bent_last, *more = reruns()
    assert judged("sinusoidal-table", values(T, C, k), bent_last, "", more=tuple(more)) == ("passed", "")
    for cause in ("halves", "sin-cos-swapped", "from-one", "sign-flipped"):
        if pairs > 1 or cause not in ("halves", "sign-flipped"):  # one pair: those tables are the right one
            last, *more = reruns(cause)
            assert judged("sinusoidal-table", values(T, C, k, cause), last, "", more=tuple(more))[0] == cause


@settings(max_examples=30, deadline=None)
@given(B=st.integers(2, 4), T=st.integers(3, 7), seed=st.integers(0, 2**32 - 1))
def test_learned_judge_passes_right_answers_and_names_the_batch_mistakes(B, T, seed):
    rng = np.random.default_rng(seed)
    V, C, max_len = 6, 4, 8
    wte, wpe = rng.standard_normal((V, C)), 0.02 * rng.standard_normal((max_len, C))
    long_ids = rng.integers(0, V, size=(1, max_len + 2))
    source = (
        "def add_positions(ids, wte, wpe):\n    if ids.shape[-1] > wpe.shape[0]:\n        raise ValueError('too long')\n"
        "try:\n    too_long = add_positions(long_ids, wte, wpe)\nexcept ValueError:\n    too_long = np.zeros(0)"
    )
    full_length = substitutes.table_length_ids(long_ids, wpe)

    def values(ids, backward, long=long_ids):
        grad_out = rng.standard_normal((*ids.shape, C))
        grad = np.zeros((max_len, C))
        grad[: ids.shape[1]] = backward(grad_out)
        x = wte[ids] + wpe[: ids.shape[1]]
        too_long = np.zeros(0) if long.shape[-1] > max_len else wte[long] + wpe
        return {"wte": wte, "wpe": wpe, "ids": ids, "grad_out": grad_out, "x": x, "grad_wpe": grad, "long_ids": long, "too_long": too_long}

    ids = rng.integers(0, V, size=(B, T))
    rerun_ids = substitutes.other_ids(ids, wte)
    for backward, expected in [
        (lambda g: g.sum(axis=0), ("passed", "")),
        (lambda g: g.mean(axis=0), ("batch-not-summed", "mean")),
        (lambda g: g[-1], ("batch-not-summed", "one-sequence")),
    ]:
        full = values(ids, backward, full_length)
        one_past = {**values(ids, backward, substitutes.one_past_ids(long_ids, wpe)), "too_long": np.zeros(0)}  # refused, as it must be
        larger = values(substitutes.table_filling_batch(ids, wte, wpe), backward)  # sequences as long as the table
        assert judged("learned-positions", values(ids, backward), values(rerun_ids, backward), source, (full, one_past, larger)) == expected
