"""Every experiment of the course as a function that returns its figures.

Nothing here prints: each function returns a frozen dataclass, and the
lessons, the app and ``attnpos demos`` all quote these fields. The first
lesson's setup is reproduced draw for draw: NumPy's legacy generator seeded
with 42, X drawn first, then Wq, Wk, Wv, each scaled by 0.5.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from attnpos.core.attention import attention_output, self_attention
from attnpos.core.permutation import (
    equivariance_gap,
    naive_gap,
    permutation_matrix,
    permute_tokens,
    pooled_readout,
)
from attnpos.core.position import TOY_OFFSET, constant_offset, slot_ramp
from attnpos.core.words import head_weights, sentence_matrix

SEED = 42
B, T, C = 1, 6, 8
INIT_SCALE = 0.5
PERM = (3, 0, 5, 1, 4, 2)
RAMP_STEP = TOY_OFFSET  # the per-slot toy signal is RAMP_STEP·(t+1)
CONSTANT = TOY_OFFSET  # the constant offset of the second exercise
TWIN_SLOTS = (0, 4)  # where the identical-token demo puts its two copies


@dataclass(frozen=True)
class Setup:
    """The seed-42 inputs of the first lesson."""

    X: np.ndarray  # (B, T, C)
    Wq: np.ndarray  # (C, C)
    Wk: np.ndarray  # (C, C)
    Wv: np.ndarray  # (C, C)
    perm: np.ndarray  # (T,)


def shuffle_setup(seed: int = SEED) -> Setup:
    """X first, then Wq, Wk, Wv from the legacy generator, as the lesson draws them."""
    rng = np.random.RandomState(seed)
    X = rng.randn(B, T, C)
    Wq, Wk, Wv = (rng.randn(C, C) * INIT_SCALE for _ in range(3))
    return Setup(X, Wq, Wk, Wv, np.array(PERM))


def twin_setup(seed: int = SEED) -> Setup:
    """Projections first, then X, then one token vector copied into slots 0 and 4."""
    rng = np.random.RandomState(seed)
    Wq, Wk, Wv = (rng.randn(C, C) * INIT_SCALE for _ in range(3))
    X = rng.randn(1, T, C)
    token = rng.randn(C)
    for slot in TWIN_SLOTS:
        X[0, slot] = token
    return Setup(X, Wq, Wk, Wv, np.array(PERM))


@dataclass(frozen=True)
class ShuffleResult:
    """Experiment 1: shuffle the tokens, attend, compare with the reordered original."""

    seed: int
    shape: tuple[int, int, int]
    perm: tuple[int, ...]
    gap: float  # max|attn(X[:, perm]) − attn(X)[:, perm]|, rounding noise
    naive_gap: float  # the same runs compared without reordering: large
    weights: np.ndarray = field(repr=False)  # (T, T) weights of the unshuffled run
    shuffled_weights: np.ndarray = field(repr=False)  # (T, T) weights of the shuffled run: the same matrix, relisted


def shuffle_experiment(seed: int = SEED) -> ShuffleResult:
    s = shuffle_setup(seed)
    return ShuffleResult(
        seed=seed,
        shape=s.X.shape,
        perm=tuple(int(p) for p in s.perm),
        gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm),
        naive_gap=naive_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm),
        weights=self_attention(s.X, s.Wq, s.Wk, s.Wv).weights[0],
        shuffled_weights=self_attention(permute_tokens(s.X, s.perm), s.Wq, s.Wk, s.Wv).weights[0],
    )


@dataclass(frozen=True)
class TwinResult:
    """Experiment 2: one token vector at slots 0 and 4, no position signal."""

    slots: tuple[int, int]
    rows_equal: bool  # output rows 0 and 4 compare equal
    max_diff: float  # max|out[0] − out[4]|, exactly 0.0


def twin_experiment(seed: int = SEED) -> TwinResult:
    s = twin_setup(seed)
    out = attention_output(s.X, s.Wq, s.Wk, s.Wv)[0]  # (T, C)
    a, b = TWIN_SLOTS
    diff = float(np.max(np.abs(out[a] - out[b])))
    return TwinResult(slots=TWIN_SLOTS, rows_equal=bool(np.allclose(out[a], out[b])), max_diff=diff)


@dataclass(frozen=True)
class OffsetResult:
    """Experiment 3 and exercise 2: the shuffle again, with a signal added before attention."""

    step: float
    gap: float  # per-slot ramp 0.6·(t+1): about 3.50
    constant_value: float
    constant_gap: float  # the same 0.6 at every slot: back to rounding noise
    weights: np.ndarray = field(repr=False)  # (T, T) weights with the ramp added
    shuffled_weights: np.ndarray = field(repr=False)  # (T, T) the shuffled tokens with the ramp: not a relisting


def offset_experiment(seed: int = SEED) -> OffsetResult:
    s = shuffle_setup(seed)
    ramp = slot_ramp(T, C, RAMP_STEP)
    return OffsetResult(
        step=RAMP_STEP,
        gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm, pos=ramp),
        constant_value=CONSTANT,
        constant_gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm, pos=constant_offset(T, C, CONSTANT)),
        weights=self_attention(s.X + ramp, s.Wq, s.Wk, s.Wv).weights[0],
        shuffled_weights=self_attention(permute_tokens(s.X, s.perm) + ramp, s.Wq, s.Wk, s.Wv).weights[0],
    )


@dataclass(frozen=True)
class MatrixFormResult:
    """Experiment 4: the check written with a 0/1 permutation matrix, Q = K = V = X."""

    tokens: int
    width: int
    P: np.ndarray  # (T, T)
    equal: bool  # attn(PX) and P·attn(X) agree to 1e-12
    max_diff: float


MATRIX_FORM_PERM = (2, 0, 3, 1)  # the rows of P: token 2 first, then 0, 3, 1


def matrix_form_experiment(seed: int = SEED, tokens: int = 4, width: int = 8) -> MatrixFormResult:
    X = np.random.default_rng(seed).standard_normal((tokens, width))  # (T, d)
    identity = np.eye(width)  # Q = K = V = X: the projections are the identity
    P = permutation_matrix(np.array(MATRIX_FORM_PERM[:tokens]))
    lhs = attention_output(P @ X, identity, identity, identity)
    rhs = P @ attention_output(X, identity, identity, identity)
    diff = float(np.max(np.abs(lhs - rhs)))
    return MatrixFormResult(tokens, width, P, bool(np.allclose(lhs, rhs, rtol=0, atol=1e-12)), diff)


SENTENCE_A = ("the", "cat", "sat", "on", "the", "mat")
ORDER_B_PERM = (5, 0, 3, 2, 1, 4)  # A[ORDER_B_PERM] reads "mat the on sat cat the"
EDIT_SLOT, EDIT_WORD = 1, "dog"
SENTENCE_WIDTH = 8
SENTENCE_SEED = 7
SHARP_SCALE, FLAT_SCALE = 50.0, 0.0  # score multipliers for the copy and blend extremes


@dataclass(frozen=True)
class SentenceResult:
    """Experiment 5: "the cat sat on the mat" as soft retrieval."""

    tokens: tuple[str, ...]
    weights: np.ndarray  # (T, T) for order A
    edited_tokens: tuple[str, ...]
    edited_weights: np.ndarray  # (T, T) after cat → dog
    row_change: np.ndarray  # (T,) max|Δweight| per row after the edit
    most_changed_row: int
    causal_row_change: np.ndarray  # (T,) the same edit under a causal mask: rows before the edit stay exactly fixed
    order_b: tuple[str, ...]
    relist_gap: float  # max|out_B − out_A[perm]|: the same outputs, listed in B's order
    pooled_gap: float  # max|sum(out_B) − sum(out_A)|: the pooled readout cannot tell A from B
    row_sums_max_error: float  # max|Σ_j α_ij − 1|: every row is a convex combination
    sharp_max_weight: np.ndarray  # (T,) the largest weight of each row with scores ×50: near 1, a copy
    flat_weights: np.ndarray  # (T, T) scores ×0: every weight 1/T, a blend
    pos_pooled_gap: float  # the pooled readouts of A and B once the per-slot ramp is added: no longer equal
    pos_weights: np.ndarray  # (T, T) order A with the ramp added
    pos_order_b_weights: np.ndarray  # (T, T) order B with the ramp added: no longer A's matrix relisted


def sentence_head(seed: int = SENTENCE_SEED):
    """Wq, Wk, Wv (C, C) for the sentence experiments."""
    return head_weights(SENTENCE_WIDTH, SENTENCE_WIDTH, seed=seed)


def sentence_experiment(seed: int = SENTENCE_SEED) -> SentenceResult:
    tokens = list(SENTENCE_A)
    Wq, Wk, Wv = sentence_head(seed)
    X = sentence_matrix(tokens, SENTENCE_WIDTH, seed)  # (T, C)
    base = self_attention(X, Wq, Wk, Wv)

    edited = tokens.copy()
    edited[EDIT_SLOT] = EDIT_WORD
    Xe = sentence_matrix(edited, SENTENCE_WIDTH, seed)
    after = self_attention(Xe, Wq, Wk, Wv)
    row_change = np.max(np.abs(after.weights - base.weights), axis=1)
    causal_change = np.max(
        np.abs(self_attention(Xe, Wq, Wk, Wv, causal=True).weights - self_attention(X, Wq, Wk, Wv, causal=True).weights),
        axis=1,
    )

    perm = np.array(ORDER_B_PERM)
    Xb = permute_tokens(X, perm)
    out_b = attention_output(Xb, Wq, Wk, Wv)
    ramp = slot_ramp(len(tokens), SENTENCE_WIDTH, RAMP_STEP)
    pos_a = pooled_readout(attention_output(X + ramp, Wq, Wk, Wv))
    pos_b = pooled_readout(attention_output(Xb + ramp, Wq, Wk, Wv))

    return SentenceResult(
        tokens=tuple(tokens),
        weights=base.weights,
        edited_tokens=tuple(edited),
        edited_weights=after.weights,
        row_change=row_change,
        most_changed_row=int(np.argmax(row_change)),
        causal_row_change=causal_change,
        order_b=tuple(tokens[i] for i in perm),
        relist_gap=float(np.max(np.abs(out_b - permute_tokens(base.out, perm)))),
        pooled_gap=float(np.max(np.abs(pooled_readout(out_b) - pooled_readout(base.out)))),
        row_sums_max_error=float(np.max(np.abs(base.weights.sum(axis=1) - 1.0))),
        sharp_max_weight=self_attention(X, Wq, Wk, Wv, scale=SHARP_SCALE).weights.max(axis=1),
        flat_weights=self_attention(X, Wq, Wk, Wv, scale=FLAT_SCALE).weights,
        pos_pooled_gap=float(np.max(np.abs(pos_b - pos_a))),
        pos_weights=self_attention(X + ramp, Wq, Wk, Wv).weights,
        pos_order_b_weights=self_attention(Xb + ramp, Wq, Wk, Wv).weights,
    )


@dataclass(frozen=True)
class ExerciseFigures:
    """Experiment 6: the first lesson's three exercises, solved, and the mistake of adding position late."""

    naive_gap: float  # exercise 1: compared without reordering
    constant_gap: float  # exercise 2: a constant offset, rounding noise
    twin_rows_equal_with_pos: bool  # exercise 3: False once the ramp is added before attention
    twin_diff_with_pos: float  # max|out[0] − out[4]| with position added before attention
    after_attention_diff: np.ndarray  # (C,) out_late[4] − out_late[0] when pos is added to the output
    after_attention_matches_offset: bool  # ... which is pos[4] − pos[0] up to rounding: the tell-tale


def exercise_figures(seed: int = SEED) -> ExerciseFigures:
    s = shuffle_setup(seed)
    twins = twin_setup(seed)
    ramp = slot_ramp(T, C, RAMP_STEP)[None]  # (1, T, C)
    a, b = TWIN_SLOTS
    early = attention_output(twins.X + ramp, twins.Wq, twins.Wk, twins.Wv)[0]
    late = (attention_output(twins.X, twins.Wq, twins.Wk, twins.Wv) + ramp)[0]
    late_diff = late[b] - late[a]
    return ExerciseFigures(
        naive_gap=naive_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm),
        constant_gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm, pos=constant_offset(T, C, CONSTANT)),
        twin_rows_equal_with_pos=bool(np.allclose(early[a], early[b])),
        twin_diff_with_pos=float(np.max(np.abs(early[a] - early[b]))),
        after_attention_diff=late_diff,
        after_attention_matches_offset=bool(np.allclose(late_diff, ramp[0, b] - ramp[0, a], rtol=0, atol=1e-12)),
    )


EXPERIMENTS: dict[str, tuple[str, Callable[[], object]]] = {
    "shuffle": ("Shuffle the tokens, no position: the gap is rounding noise", shuffle_experiment),
    "twins": ("The same token at slots 0 and 4: identical output rows", twin_experiment),
    "offset": ("Add a per-slot offset before attention: the gap opens", offset_experiment),
    "matrix-form": ("The check with a 0/1 permutation matrix, Q = K = V = X", matrix_form_experiment),
    "sentence": ('"the cat sat on the mat" as soft retrieval', sentence_experiment),
    "exercises": ("The first lesson's exercises, solved", exercise_figures),
}
"""Every experiment by a short key: (title, function returning its dataclass)."""
