"""The checkers of lessons 5 to 7's exercises: right answers in several styles pass, and a few wrong ones beyond mistakes/."""

from __future__ import annotations

import pytest

from attnpos.lessons.checker import Limits
from attnpos.lessons.course.loader import load_course

LIMITS = Limits(timeout_s=5.0, memory_mb=768)

EMBED_SETUP = """
import numpy as np
rng = np.random.default_rng(5)
V, C = 10, 4
wte = rng.standard_normal((V, C))
ids = np.array([[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]])
grad_out = rng.standard_normal((*ids.shape, C))
"""

EMBED_RIGHT = {
    "add-at": "out = wte[ids]\ngrad_wte = np.zeros_like(wte)\nnp.add.at(grad_wte, ids, grad_out)",
    "loop": (
        "out = np.stack([np.stack([wte[i] for i in row]) for row in ids])\n"
        "grad_wte = np.zeros((V, C))\n"
        "for b in range(ids.shape[0]):\n    for t in range(ids.shape[1]):\n        grad_wte[ids[b, t]] += grad_out[b, t]"
    ),
    "onehot": ("onehot = np.eye(V)[ids]\nout = onehot @ wte\ngrad_wte = onehot.reshape(-1, V).T @ grad_out.reshape(-1, C)"),
    "bincount": (
        "out = np.take(wte, ids, axis=0)\n"
        "grad_wte = np.stack([np.bincount(ids.ravel(), weights=grad_out[..., c].ravel(), minlength=V) for c in range(C)], axis=1)"
    ),
    "float32": (
        "wte = wte.astype(np.float32)\ngrad_out = grad_out.astype(np.float32)\n"
        "out = wte[ids]\ngrad_wte = np.zeros_like(wte)\nnp.add.at(grad_wte, ids, grad_out)"
    ),
    "main-guard": (
        "def backward(ids, grad_out):\n    g = np.zeros_like(wte)\n    np.add.at(g, ids, grad_out)\n    return g\n"
        "if __name__ == '__main__':\n    out = wte[ids]\n    grad_wte = backward(ids, grad_out)"
    ),
}

SINE_SETUP = "import numpy as np\nT, C = 12, 8\nk = 3\n"
SINE_RIGHT = {
    "vectorised": (
        "w = 10000.0 ** (-np.arange(0, C, 2) / C)\nt = np.arange(T)[:, None]\npe = np.zeros((T, C))\n"
        "pe[:, 0::2] = np.sin(t * w)\npe[:, 1::2] = np.cos(t * w)\n"
        "M = np.zeros((C, C))\nfor i, wi in enumerate(w):\n    c, s = np.cos(k * wi), np.sin(k * wi)\n"
        "    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]\n"
        "shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()"
    ),
    "loops-and-exp-log": (
        "import math\npe = np.zeros((T, C))\nfor pos in range(T):\n    for i in range(C // 2):\n"
        "        angle = pos * math.exp(-math.log(10000.0) * 2 * i / C)\n"
        "        pe[pos, 2*i], pe[pos, 2*i+1] = math.sin(angle), math.cos(angle)\n"
        "blocks = []\nM = np.zeros((C, C))\nfor i in range(C // 2):\n    a = k * 10000.0 ** (-2 * i / C)\n"
        "    M[2*i, 2*i], M[2*i, 2*i+1], M[2*i+1, 2*i], M[2*i+1, 2*i+1] = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)\n"
        "shift_error = max(abs(pe[t + k] - M @ pe[t]).max() for t in range(T - k))"
    ),
    "own-function-named-sinusoidal": (
        "def sinusoidal(T, C):\n    w = 10000.0 ** (-np.arange(0, C, 2) / C)\n    t = np.arange(T)[:, None]\n"
        "    pe = np.zeros((T, C))\n    pe[:, 0::2], pe[:, 1::2] = np.sin(t * w), np.cos(t * w)\n    return pe\n"
        "pe = sinusoidal(T, C)\nw = 10000.0 ** (-np.arange(0, C, 2) / C)\n"
        "M = np.zeros((C, C))\nfor i, wi in enumerate(w):\n    c, s = np.cos(k * wi), np.sin(k * wi)\n"
        "    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]\n"
        "shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()"
    ),
    "float32-kron": (
        "w = (10000.0 ** (-np.arange(0, C, 2) / C)).astype(np.float32)\nt = np.arange(T, dtype=np.float32)[:, None]\n"
        "pe = np.empty((T, C), np.float32)\npe[:, ::2], pe[:, 1::2] = np.sin(t * w), np.cos(t * w)\n"
        "M = np.zeros((C, C), np.float32)\nfor i in range(C // 2):\n"
        "    R = np.array([[np.cos(k * w[i]), np.sin(k * w[i])], [-np.sin(k * w[i]), np.cos(k * w[i])]], np.float32)\n"
        "    M[2*i:2*i+2, 2*i:2*i+2] = R\n"
        "shift_error = float(np.abs(pe[k:] - (M @ pe[:-k].T).T).max())"
    ),
}

LEARNED_SETUP = """
import numpy as np
rng = np.random.default_rng(7)
V, C, max_len = 6, 4, 8
wte = rng.standard_normal((V, C))
wpe = 0.02 * rng.standard_normal((max_len, C))
ids = rng.integers(0, V, size=(3, 5))
grad_out = rng.standard_normal((*ids.shape, wpe.shape[1]))
"""
LEARNED_TAIL = """
long_ids = rng.integers(0, V, size=(1, max_len + 2))
try:
    too_long = add_positions(long_ids, wte, wpe)
except (ValueError, IndexError) as error:
    too_long = np.zeros(0)
"""
LEARNED_RIGHT = {
    "slice": (
        "def add_positions(ids, wte, wpe):\n    T = ids.shape[1]\n"
        "    if T > len(wpe):\n        raise ValueError(f'{T} > {len(wpe)}')\n    return wte[ids] + wpe[:T]\n"
        "x = add_positions(ids, wte, wpe)\ngrad_wpe = np.zeros_like(wpe)\ngrad_wpe[:ids.shape[1]] = grad_out.sum(0)\n"
    ),
    "add-at-slots": (
        "def add_positions(ids, wte, wpe):\n    B, T = ids.shape\n    assert_ok = T <= wpe.shape[0]\n"
        "    if not assert_ok:\n        raise IndexError('sequence longer than max_len')\n"
        "    pos = np.broadcast_to(np.arange(T), (B, T))\n    return wte[ids] + wpe[pos]\n"
        "x = add_positions(ids, wte, wpe)\ngrad_wpe = np.zeros_like(wpe)\n"
        "np.add.at(grad_wpe, np.broadcast_to(np.arange(ids.shape[1]), ids.shape), grad_out)\n"
    ),
    "einsum-onehot": (
        "def add_positions(ids, wte, wpe):\n    T = ids.shape[-1]\n    if T > wpe.shape[0]:\n        raise ValueError('too long')\n"
        "    return np.eye(len(wte))[ids] @ wte + np.eye(len(wpe))[:T] @ wpe\n"
        "x = add_positions(ids, wte, wpe)\nslots = np.eye(len(wpe))[:ids.shape[1]]\n"
        "grad_wpe = np.einsum('tp,btc->pc', slots, grad_out)\n"
    ),
}


@pytest.fixture(scope="module")
def course():
    return load_course()


def verdict(course, checker, exercise, source):
    return checker.check(course.exercises[exercise], source, limits=LIMITS)


@pytest.mark.parametrize("style", sorted(EMBED_RIGHT))
def test_embedding_backward_right_answers_pass(course, checker, style):
    result = verdict(course, checker, "embedding-backward", EMBED_SETUP + EMBED_RIGHT[style])
    assert result.passed, result.message


@pytest.mark.parametrize("style", sorted(SINE_RIGHT))
def test_sinusoidal_table_right_answers_pass(course, checker, style):
    result = verdict(course, checker, "sinusoidal-table", SINE_SETUP + SINE_RIGHT[style])
    assert result.passed, result.message


@pytest.mark.parametrize("style", sorted(LEARNED_RIGHT))
def test_learned_positions_right_answers_pass(course, checker, style):
    result = verdict(course, checker, "learned-positions", LEARNED_SETUP + LEARNED_RIGHT[style] + LEARNED_TAIL)
    assert result.passed, result.message


def test_a_right_gradient_pasted_in_does_not_pass(course, checker):
    import numpy as np

    namespace: dict = {}
    exec(EMBED_SETUP, namespace)
    grad = np.zeros_like(namespace["wte"])
    np.add.at(grad, namespace["ids"], namespace["grad_out"])
    pasted = f"out = wte[ids]\ngrad_wte = np.array({grad.tolist()!r})"
    result = verdict(course, checker, "embedding-backward", EMBED_SETUP + pasted)
    assert (result.diagnosis, result.details.get("cause")) == ("mismatch", "literal")  # a pasted array is typed in, and told so
    assert "typed in, an array of numbers written out" in result.message


def test_the_halves_layout_is_named_not_called_a_mismatch(course, checker):
    source = SINE_SETUP + SINE_RIGHT["vectorised"].replace(
        "pe[:, 0::2] = np.sin(t * w)\npe[:, 1::2] = np.cos(t * w)", "pe = np.hstack([np.sin(t * w), np.cos(t * w)])"
    )
    assert verdict(course, checker, "sinusoidal-table", source).diagnosis == "halves"


def test_a_table_that_quietly_runs_short_is_no_length_check(course, checker):
    # No length check: wpe[:10] gives 8 rows, and adding them to 10 tokens fails to broadcast (a ValueError of NumPy's,
    # not one saying the sequence is too long, which the brief asks for: issue 35).
    source = (
        LEARNED_SETUP
        + (
            "def add_positions(ids, wte, wpe):\n    return wte[ids] + wpe[:ids.shape[1]]\n"
            "x = add_positions(ids, wte, wpe)\ngrad_wpe = np.zeros_like(wpe)\ngrad_wpe[:ids.shape[1]] = grad_out.sum(0)\n"
        )
        + LEARNED_TAIL
    )
    result = verdict(course, checker, "learned-positions", source)
    assert (result.diagnosis, result.details.get("cause")) == ("length-check", "missing-broadcast"), result.message
    assert "refused by NumPy, not by you" in result.message and "table of 8 rows" in result.message, result.message


def test_ids_set_again_between_uses_is_a_changed_input_not_a_typed_figure(course, checker):
    source = EMBED_SETUP + "out = wte[ids]\nids = np.array([[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]])\n" + EMBED_RIGHT["add-at"].replace("out = wte[ids]\n", "")
    result = verdict(course, checker, "embedding-backward", source)
    assert (result.diagnosis, result.details["cause"]) == ("changed-input", "before-use") and "when the checker reran your script" in result.message


def test_every_diagnosis_is_in_the_diagnosis_table():
    from pathlib import Path

    from attnpos.lessons.checker import CONTRACTS

    table = (Path(__file__).parents[2] / "docs" / "CHECKING.md").read_text(encoding="utf-8")
    missing = {d for contract in CONTRACTS.values() for d in contract.every_diagnosis if f"`{d}`" not in table}
    assert not missing
