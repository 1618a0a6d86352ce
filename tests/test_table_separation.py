"""Lessons 5-7's exercises: every hypothesis a checker names gives figures of its own, on the starter's inputs and on the rerun's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attnpos.lessons.checking import substitutes
from attnpos.lessons.checking.contracts import embedding_backward, sinusoidal_table


def distinct(tables: dict[str, np.ndarray]) -> list[tuple[str, str]]:
    """Pairs of hypotheses whose arrays agree (same shape, within 1e-9)."""
    return [
        (a, b) for (a, x), (b, y) in itertools.combinations(tables.items(), 2)
        if x.shape == y.shape and np.allclose(x, y, rtol=0, atol=1e-9)
    ]


def embedding_inputs():
    rng = np.random.default_rng(5)
    wte = rng.standard_normal((10, 4))
    ids = np.array([[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]])
    rerun_ids = substitutes.other_ids(ids, wte)
    for which in (ids, rerun_ids):
        grad_out = np.random.default_rng(0).standard_normal((*which.shape, 4))
        yield which, grad_out


@pytest.mark.parametrize("run", [0, 1], ids=["as-written", "rerun"])
def test_embedding_hypotheses_are_apart(run):
    ids, grad_out = list(embedding_inputs())[run]
    tables = {"right": embedding_backward.scatter(ids, grad_out, 10), **embedding_backward.hypotheses(ids, grad_out, 10)}
    assert distinct(tables) == []


@pytest.mark.parametrize("T, C", [(12, 8), (12, substitutes.wider(8))])
def test_sinusoidal_hypotheses_are_apart(T, C):
    assert distinct(sinusoidal_table.hypotheses(T, C)) == []


@pytest.mark.parametrize("run", [0, 1], ids=["as-written", "rerun"])
def test_learned_hypotheses_are_apart(run):
    rng = np.random.default_rng(7)
    wte, wpe = rng.standard_normal((6, 4)), 0.02 * rng.standard_normal((8, 4))
    ids = rng.integers(0, 6, size=(3, 5))
    if run:
        ids = substitutes.other_batch(ids, wte)
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
        "right": rows(grad_out.sum(0)), "by-token-id": by_id, "off-by-one": rows(grad_out.sum(0), 1),
        "mean": rows(grad_out.mean(0)), **{f"sequence {b}": rows(grad_out[b]) for b in range(B)},
    }
    assert distinct(backward) == []
    long_ids = rng.integers(0, 6, size=(1, 10))
    slots = np.arange(10)
    assert distinct({"modulo": wte[long_ids] + wpe[slots % 8], "clip": wte[long_ids] + wpe[np.minimum(slots, 7)]}) == []
