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

from attnpos.core.attention import BlockWeights, attention_output, self_attention, softmax, transformer_block
from attnpos.core.permutation import (
    TWIN_SLOTS,
    equivariance_gap,
    naive_gap,
    permutation_matrix,
    permute_tokens,
    pooled_readout,
)
from attnpos.core.playground import play
from attnpos.core.position import (
    TOY_OFFSET,
    alibi_bias,
    alibi_slopes,
    alibi_window,
    constant_offset,
    rope_channel_pairs,
    rope_rotate,
    sinusoidal,
    slot_ramp,
    symmetric_alibi_bias,
)
from attnpos.core.words import SENTENCE_A, SENTENCE_SEED, SENTENCE_WIDTH, head_weights, sentence_matrix

SEED = 42
B, T, C = 1, 6, 8
INIT_SCALE = 0.5
PERM = (3, 0, 5, 1, 4, 2)
RAMP_STEP = TOY_OFFSET  # the per-slot toy signal is RAMP_STEP·(t+1)
CONSTANT = TOY_OFFSET  # the constant offset of the second exercise


@dataclass(frozen=True)
class Setup:
    """The seed-42 inputs of the first lesson."""

    X: np.ndarray  # (B, T, C)
    Wq: np.ndarray  # (C, C)
    Wk: np.ndarray  # (C, C)
    Wv: np.ndarray  # (C, C)
    perm: np.ndarray  # (T,)


def shuffle_setup(seed: int = SEED, init_scale: float = INIT_SCALE) -> Setup:
    """X first, then Wq, Wk, Wv from the legacy generator, as the lesson draws them."""
    rng = np.random.RandomState(seed)
    X = rng.randn(B, T, C)
    Wq, Wk, Wv = (rng.randn(C, C) * init_scale for _ in range(3))
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
    gap_ulps: float  # that gap in units in the last place of the output entry where it occurs
    naive_gap: float  # the same runs compared without reordering: large
    weights_relabel_gap: float  # max|A(PX) − P·A(X)·Pᵀ|: the shuffled run's weights are the first's, relabelled
    weights: np.ndarray = field(repr=False)  # (T, T) weights of the unshuffled run
    shuffled_weights: np.ndarray = field(repr=False)  # (T, T) weights of the shuffled run: the same matrix, relisted


def shuffle_experiment(seed: int = SEED) -> ShuffleResult:
    s = shuffle_setup(seed)
    first = self_attention(s.X, s.Wq, s.Wk, s.Wv)
    moved = self_attention(permute_tokens(s.X, s.perm), s.Wq, s.Wk, s.Wv)
    relisted = permute_tokens(first.out, s.perm)  # (B, T, C)
    diff = np.abs(moved.out - relisted)
    where = np.unravel_index(np.argmax(diff), diff.shape)
    P = permutation_matrix(s.perm)
    return ShuffleResult(
        seed=seed,
        shape=s.X.shape,
        perm=tuple(int(p) for p in s.perm),
        gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm),
        gap_ulps=float(diff[where] / np.spacing(abs(relisted[where]))),
        naive_gap=naive_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm),
        weights_relabel_gap=float(np.max(np.abs(moved.weights[0] - P @ first.weights[0] @ P.T))),
        weights=first.weights[0],
        shuffled_weights=moved.weights[0],
    )


@dataclass(frozen=True)
class InitScaleResult:
    """Why the setup multiplies the projections by 0.5: unscaled, the softmax saturates."""

    init_scale: float
    mean_top_weight: float  # mean over rows of each row's largest weight, projections × 0.5
    mean_top_weight_unscaled: float  # the same draws without the factor: rows near one-hot
    score_std: float  # standard deviation of the scaled scores with the factor
    score_std_unscaled: float  # ... and without it: four times larger (the factor enters q and k)


def init_scale_experiment(seed: int = SEED) -> InitScaleResult:
    scaled, unscaled = shuffle_setup(seed), shuffle_setup(seed, init_scale=1.0)

    def scores(s: Setup) -> np.ndarray:
        return (s.X[0] @ s.Wq) @ (s.X[0] @ s.Wk).T / np.sqrt(C)  # (T, T)

    def top(s: Setup) -> float:
        return float(self_attention(s.X, s.Wq, s.Wk, s.Wv).weights[0].max(axis=1).mean())

    return InitScaleResult(
        init_scale=INIT_SCALE,
        mean_top_weight=top(scaled),
        mean_top_weight_unscaled=top(unscaled),
        score_std=float(scores(scaled).std()),
        score_std_unscaled=float(scores(unscaled).std()),
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
class CausalResult:
    """A causal mask and no position signal: not neutral about order."""

    gap: float  # the seed-42 shuffle gap with the mask: large, equivariance is gone
    twin_diff: float  # max|out[0] − out[4]| for the twin tokens with the mask: they differ
    marker_share: np.ndarray  # (T,) with uniform weights, the first token's share of slot i's output
    recovered_slot: np.ndarray  # (T,) the slot read back from that share, 1/share − 1
    weights: np.ndarray = field(repr=False)  # (T, T) the seed-42 weights with the mask
    shuffled_weights: np.ndarray = field(repr=False)  # (T, T) the shuffled tokens with the mask


def marker_share(T: int = T, C: int = C, seed: int = SEED) -> np.ndarray:
    """(T,) how much of slot i's output comes from a marked first token, under a causal mask.

    Channel 0 of the input is 1 at slot 0 and 0 elsewhere, the other channels
    random; the values are the inputs (Wv = I) and every score is zero, so
    each slot reads all it can see evenly. Channel 0 of output i is then the
    first token's share, 1/(i+1): the slot can be read back from the output
    though no input said where anything stands.
    """
    X = np.random.default_rng(seed).standard_normal((T, C))  # (T, C)
    X[:, 0] = 0.0
    X[0, 0] = 1.0
    identity = np.eye(C)
    return attention_output(X, identity, identity, identity, causal=True, scale=0.0)[:, 0]


def causal_experiment(seed: int = SEED) -> CausalResult:
    s, twins = shuffle_setup(seed), twin_setup(seed)
    share = marker_share(seed=seed)
    out = attention_output(twins.X, twins.Wq, twins.Wk, twins.Wv, causal=True)[0]  # (T, C)
    a, b = TWIN_SLOTS
    return CausalResult(
        gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, s.perm, causal=True),
        twin_diff=float(np.max(np.abs(out[a] - out[b]))),
        marker_share=share,
        recovered_slot=1.0 / share - 1.0,
        weights=self_attention(s.X, s.Wq, s.Wk, s.Wv, causal=True).weights[0],
        shuffled_weights=self_attention(permute_tokens(s.X, s.perm), s.Wq, s.Wk, s.Wv, causal=True).weights[0],
    )


@dataclass(frozen=True)
class RampResult:
    """What the per-slot ramp lacks: a bound, and products that depend on the offset alone."""

    token_norm: float  # mean norm of the seed-42 token vectors
    ramp_norms: np.ndarray  # (T,) norm of the ramp at each slot: step·(t+1)·√C, growing without bound
    ramp_step_same: bool  # ramp[t+1] − ramp[t] is the same vector at every slot
    ramp_product_near: float  # ramp[1]·ramp[4], two slots three apart near the start
    ramp_product_far: float  # ramp[10]·ramp[13], three apart further on: not the same
    sin_product_near: float  # the sinusoidal PE[1]·PE[4] ...
    sin_product_far: float  # ... equals PE[10]·PE[13]: it depends on the offset only
    crowded_column: int  # the slot the lesson-1 ramp grid's rows read most
    crowded_share: float  # mean weight of the rows on that slot
    sentence_crowded_column: int  # the same for lesson 3's "A + ramp" grid
    sentence_crowded_share: float
    shuffled_crowded_column: int  # the same for lesson 1's shuffled ramp grid
    shuffled_crowded_share: float
    ones_form: float  # 1ᵀ W_Q W_Kᵀ 1 of the seed-42 head: the sign of the ramp's own score term
    sentence_ones_form: float  # the same for lesson 3's seed-7 head
    favoured_end: str  # "early" when ones_form < 0 (scores fall with the key's slot), else "late"
    sentence_favoured_end: str


def ones_form(Wq: np.ndarray, Wk: np.ndarray) -> float:
    """1ᵀ W_Q W_Kᵀ 1 for Wq, Wk (C, hs): the score of one all-ones vector against another.

    The ramp puts step·(t+1) in every channel, so its own part of the score of
    query slot i with key slot j is step²·(i+1)·(j+1)·(1ᵀ W_Q W_Kᵀ 1): its sign
    decides whether later keys score higher (positive) or lower (negative).
    """
    ones = np.ones(Wq.shape[0])  # (C,)
    return float((ones @ Wq) @ (ones @ Wk))


def favoured_end(form: float) -> str:
    """Which end of the sequence the ramp's own score term favours, from the sign of `ones_form`."""
    return "early" if form < 0 else "late"


def crowded_column(weights: np.ndarray) -> tuple[int, float]:
    """The column of a (T, T) weight matrix with the largest mean weight, and that mean."""
    means = weights.mean(axis=0)  # (T,)
    column = int(np.argmax(means))
    return column, float(means[column])


def ramp_experiment(seed: int = SEED) -> RampResult:
    s = shuffle_setup(seed)
    long = slot_ramp(14, C, RAMP_STEP)  # (14, C)
    pe = sinusoidal(14, C)  # (14, C)
    offset = offset_experiment(seed)
    column, share = crowded_column(offset.weights)
    shuffled_column, shuffled_share = crowded_column(offset.shuffled_weights)
    s_column, s_share = crowded_column(sentence_experiment().pos_weights)
    form, sentence_form = ones_form(s.Wq, s.Wk), ones_form(*sentence_head()[:2])
    steps = np.diff(long, axis=0)  # (13, C)
    return RampResult(
        token_norm=float(np.linalg.norm(s.X[0], axis=1).mean()),
        ramp_norms=np.linalg.norm(slot_ramp(T, C, RAMP_STEP), axis=1),
        ramp_step_same=bool(np.allclose(steps, steps[0], rtol=0, atol=1e-12)),
        ramp_product_near=float(long[1] @ long[4]),
        ramp_product_far=float(long[10] @ long[13]),
        sin_product_near=float(pe[1] @ pe[4]),
        sin_product_far=float(pe[10] @ pe[13]),
        crowded_column=column,
        crowded_share=share,
        sentence_crowded_column=s_column,
        sentence_crowded_share=s_share,
        shuffled_crowded_column=shuffled_column,
        shuffled_crowded_share=shuffled_share,
        ones_form=form,
        sentence_ones_form=sentence_form,
        favoured_end=favoured_end(form),
        sentence_favoured_end=favoured_end(sentence_form),
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


ORDER_B_PERM = (5, 0, 3, 2, 1, 4)  # A[ORDER_B_PERM] reads "mat the on sat cat the"
EDIT_SLOT, EDIT_WORD = 1, "dog"
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
    sharp_max_weight: np.ndarray  # (T,) the largest weight of each row with scale 50: near 1, a copy
    sharp_ratio: float  # scale 50 against the usual 1/√C: how many times the usual score
    mat_sharp_weights: tuple[float, float]  # sharpened, the mat row's weights on the₀ and the₄
    mat_copy_gap: float  # max|y_mat − v_the| sharpened: the split row's output is v_the itself
    last_slot_gap: float  # max|out_B[last] − out_A[last]| with no position: a one-slot readout is not order-blind
    flat_weights: np.ndarray  # (T, T) scores ×0: every weight 1/T, a blend
    pos_pooled_gap: float  # the pooled readouts of A and B once the per-slot ramp is added: no longer equal
    pos_weights: np.ndarray  # (T, T) order A with the ramp added
    pos_order_b_weights: np.ndarray  # (T, T) order B with the ramp added: no longer A's matrix relisted


def sentence_head(seed: int = SENTENCE_SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    sharp = self_attention(X, Wq, Wk, Wv, scale=SHARP_SCALE)
    mat = tokens.index("mat")
    the_first, the_second = (i for i, t in enumerate(tokens) if t == "the")

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
        sharp_max_weight=sharp.weights.max(axis=1),
        sharp_ratio=SHARP_SCALE * np.sqrt(SENTENCE_WIDTH),
        mat_sharp_weights=(float(sharp.weights[mat, the_first]), float(sharp.weights[mat, the_second])),
        mat_copy_gap=float(np.max(np.abs(sharp.out[mat] - X[the_first] @ Wv))),
        last_slot_gap=float(np.max(np.abs(out_b[-1] - base.out[-1]))),
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


@dataclass(frozen=True)
class ScalingResult:
    """Why scores are divided by √d_k: q·k of unit-variance vectors has variance d_k."""

    d_k: int
    pairs: int
    raw_variance: float  # variance of q·k over random pairs: close to d_k
    scaled_variance: float  # variance of q·k/√d_k: close to 1


def scaling_experiment(d_k: int = 64, pairs: int = 20_000, seed: int = SEED) -> ScalingResult:
    q, k = np.random.default_rng(seed).standard_normal((2, pairs, d_k))  # (N, d_k) each
    raw = np.einsum("nd,nd->n", q, k)  # (N,)
    return ScalingResult(d_k, pairs, float(raw.var()), float((raw / np.sqrt(d_k)).var()))


ALIBI_HEADS = 8
ALIBI_ODD_HEADS = 12  # not a power of two: the slope rule changes
ALIBI_FADE = 100.0  # "negligible": a key's weight divided by this factor by the bias alone


@dataclass(frozen=True)
class AlibiResult:
    """ALiBi as published: causal, a soft window per head; and the symmetric form it is not."""

    slopes: np.ndarray  # (H,) 2^(−8(h+1)/H) for heads h = 0 … H−1
    slopes12: np.ndarray  # (12,) the official rule for a head count that is not a power of two
    fade: float
    windows: np.ndarray  # (H,) slots back at which the bias alone divides a weight by `fade`
    reversal_gap: float  # seed-42 tokens reversed, head 0 of the published (causal) form: large
    mask_only_reversal_gap: float  # the same reversal with the causal mask and no bias
    symmetric_reversal_gap: float  # −m·|i − j| without a mask: rounding noise, blind to reversal


def alibi_experiment(seed: int = SEED) -> AlibiResult:
    s = shuffle_setup(seed)
    reverse = np.arange(T)[::-1]
    published, symmetric = alibi_bias(ALIBI_HEADS, T)[0], symmetric_alibi_bias(ALIBI_HEADS, T)[0]  # (T, T) each
    slopes = alibi_slopes(ALIBI_HEADS)
    return AlibiResult(
        slopes=slopes,
        slopes12=alibi_slopes(ALIBI_ODD_HEADS),
        fade=ALIBI_FADE,
        windows=alibi_window(slopes, ALIBI_FADE),
        reversal_gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, reverse, bias=published),
        mask_only_reversal_gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, reverse, causal=True),
        symmetric_reversal_gap=equivariance_gap(s.X, s.Wq, s.Wk, s.Wv, reverse, bias=symmetric),
    )


@dataclass(frozen=True)
class RopeResult:
    """RoPE's score depends on q, k and the offset only; two channel pairings, one rotation up to a permutation."""

    relative_error: float  # max over slots i, j of |⟨R_i q, R_j k⟩ − ⟨q, R_(j−i) k⟩|
    half_as_interleaved_error: float  # half-split RoPE against interleaved RoPE on permuted channels
    mismatched_score_gap: float  # the same q, k scored with the other pairing: a different score


def rope_experiment(d: int = 8, seed: int = SEED) -> RopeResult:
    q, k = np.random.default_rng(seed).standard_normal((2, 1, d))  # (1, d) each
    pairs = [(m, n) for m in range(0, 40, 3) for n in range(0, 40, 5)]
    errors = [abs((rope_rotate(q, [m]) @ rope_rotate(k, [n]).T).item() - (q @ rope_rotate(k, [n - m]).T).item()) for m, n in pairs]
    # Half-split pair i is channels (i, i + d/2); list them as interleaved pairs and the rotations agree.
    first, second = rope_channel_pairs(d, "half")
    to_interleaved = np.stack([first, second], axis=1).reshape(-1)  # (d,) channel order (0, d/2, 1, d/2+1, …)
    x = np.random.default_rng(seed + 1).standard_normal((5, d))  # (T, d)
    half = rope_rotate(x, pairing="half")
    via_interleaved = np.empty_like(x)
    via_interleaved[:, to_interleaved] = rope_rotate(x[:, to_interleaved])
    m, n = 3, 11
    interleaved_score = (rope_rotate(q, [m]) @ rope_rotate(k, [n]).T).item()
    half_score = (rope_rotate(q, [m], pairing="half") @ rope_rotate(k, [n], pairing="half").T).item()
    return RopeResult(
        relative_error=float(max(errors)),
        half_as_interleaved_error=float(np.max(np.abs(half - via_interleaved))),
        mismatched_score_gap=abs(interleaved_score - half_score),
    )


FAMILY_SIGNALS = ("none", "causal", "sinusoidal", "learned", "rope", "alibi")


@dataclass(frozen=True)
class FamilyResult:
    """Each family on lesson 3's two orders: the shuffle gap, the two "the" rows, the weights."""

    signal: str
    gap: float  # max|attn(order B) − attn(order A) relisted|
    twins_identical: bool  # the rows of the₀ and the₄ in order A are the same
    twin_diff: float  # max|out[0] − out[4]| in order A
    weights: np.ndarray = field(repr=False)  # (T, T) order A
    order_b_weights: np.ndarray = field(repr=False)  # (T, T) order B


def family_experiment(signal: str) -> FamilyResult:
    tokens = list(SENTENCE_A)
    state = play(tokens, list(ORDER_B_PERM), signal, seed=SENTENCE_SEED)
    a, b = (i for i, t in enumerate(tokens) if t == "the")
    return FamilyResult(
        signal=signal,
        gap=state.gap,
        twins_identical=all(same for _, _, same in state.twins),
        twin_diff=float(np.max(np.abs(state.outputs[a] - state.outputs[b]))),
        weights=state.weights,
        order_b_weights=state.shuffled_weights,
    )


@dataclass(frozen=True)
class FamiliesResult:
    """`family_experiment` for every family, as parallel tuples (for `attnpos demos`)."""

    signals: tuple[str, ...]
    gaps: tuple[float, ...]
    twins_identical: tuple[bool, ...]


def families_experiment() -> FamiliesResult:
    results = [family_experiment(signal) for signal in FAMILY_SIGNALS]
    return FamiliesResult(
        signals=FAMILY_SIGNALS,
        gaps=tuple(r.gap for r in results),
        twins_identical=tuple(r.twins_identical for r in results),
    )


@dataclass(frozen=True)
class ProofResult:
    """The three lines of the equivariance proof, each checked on the seed-42 head with P from PERM."""

    scores_gap: float  # max|S(PX) − P S(X) Pᵀ|: the scores of PX are the scores of X, relabelled
    softmax_gap: float  # max|softmax(P S Pᵀ) − P softmax(S) Pᵀ|: the row-wise softmax commutes with P
    output_gap: float  # max|A(PX) V(PX) − P A(X) V(X)|: with PᵀP = I the outputs are relisted
    transpose_is_inverse: bool  # PᵀP is exactly the identity


def equivariance_proof_experiment(seed: int = SEED) -> ProofResult:
    s = shuffle_setup(seed)
    X = s.X[0]  # (T, C)
    P = permutation_matrix(s.perm)  # (T, T)

    def scores(Z: np.ndarray) -> np.ndarray:
        return (Z @ s.Wq) @ (Z @ s.Wk).T / np.sqrt(s.Wq.shape[1])  # (T, T)

    S, S_moved = scores(X), scores(P @ X)
    A = softmax(S)
    out = A @ (X @ s.Wv)  # (T, hs)
    out_moved = softmax(S_moved) @ (P @ X @ s.Wv)
    return ProofResult(
        scores_gap=float(np.max(np.abs(S_moved - P @ S @ P.T))),
        softmax_gap=float(np.max(np.abs(softmax(P @ S @ P.T) - P @ A @ P.T))),
        output_gap=float(np.max(np.abs(out_moved - P @ out))),
        transpose_is_inverse=bool(np.array_equal(P.T @ P, np.eye(T))),
    )


def mean_to_first_row(X: np.ndarray) -> np.ndarray:
    """(T, C) -> (T, C): the mean of the rows in row 0, zeros elsewhere. Invariant, not equivariant."""
    out = np.zeros_like(X)
    out[0] = X.mean(axis=0)
    return out


def mean_to_every_row(X: np.ndarray) -> np.ndarray:
    """(T, C) -> (T, C): the mean of the rows in every row. Both invariant and equivariant."""
    return np.broadcast_to(X.mean(axis=0), X.shape).copy()


@dataclass(frozen=True)
class InvarianceResult:
    """Two maps from T rows to T rows, shuffled by PERM: neither property implies the other."""

    first_row_invariance_gap: float  # max|f(PX) − f(X)| for mean_to_first_row: rounding, invariant
    first_row_equivariance_gap: float  # max|f(PX) − P f(X)|: large, not equivariant
    every_row_invariance_gap: float  # mean_to_every_row: invariant ...
    every_row_equivariance_gap: float  # ... and equivariant, because every row holds the same output
    attention_invariance_gap: float  # the seed-42 head: max|attn(PX) − attn(X)|, large, not invariant
    attention_equivariance_gap: float  # max|attn(PX) − P attn(X)|: rounding, equivariant


def invariance_experiment(seed: int = SEED) -> InvarianceResult:
    s = shuffle_setup(seed)
    X = s.X[0]  # (T, C)
    P = permutation_matrix(s.perm)

    def gaps(f: Callable[[np.ndarray], np.ndarray]) -> tuple[float, float]:
        moved = f(P @ X)
        return float(np.max(np.abs(moved - f(X)))), float(np.max(np.abs(moved - P @ f(X))))

    first_inv, first_eqv = gaps(mean_to_first_row)
    every_inv, every_eqv = gaps(mean_to_every_row)
    attn_inv, attn_eqv = gaps(lambda Z: attention_output(Z, s.Wq, s.Wk, s.Wv))
    return InvarianceResult(first_inv, first_eqv, every_inv, every_eqv, attn_inv, attn_eqv)


CROSS_STARTS = (1, 10, 20)  # query slots of the three placements
CROSS_OFFSET = 3  # the key sits this many slots after the query
CROSS_OFFSETS = (1, 3, 8)  # the offsets of the position–position table
CROSS_TOKENS = (0, 1)  # the seed-42 tokens used as query and key content


@dataclass(frozen=True)
class CrossTermResult:
    """An added signal's score, (x_i + p_i) W_Q W_Kᵀ (x_j + p_j)ᵀ, split into its four terms.

    Seed-42 head, sinusoidal p at width 8, before the division by √d_k; the query
    token x0 at slot i, the key token x1 at slot j = i + 3, for i in CROSS_STARTS.
    """

    starts: tuple[int, ...]
    offset: int
    pe_product: tuple[float, ...]  # p_i · p_j at each start: the same, a function of the offset
    content_content: float  # x W_Q W_Kᵀ xᵀ: the same wherever the tokens stand
    content_position: tuple[float, ...]  # x_i W_Q W_Kᵀ p_jᵀ at each start
    position_content: tuple[float, ...]  # p_i W_Q W_Kᵀ x_jᵀ
    position_position: tuple[float, ...]  # p_i W_Q W_Kᵀ p_jᵀ
    totals: tuple[float, ...]  # the four terms summed: the whole score changes with the start
    offsets: tuple[int, ...]
    position_position_table: np.ndarray  # (len(offsets), len(starts)) p_i W_Q W_Kᵀ p_(i+offset)ᵀ
    rope_scores: tuple[float, ...]  # RoPE on the same q, k at the same placements: equal
    rope_spread: float  # max − min of those: rounding


def cross_term_experiment(seed: int = SEED) -> CrossTermResult:
    s = shuffle_setup(seed)
    M = s.Wq @ s.Wk.T  # (C, C): the bilinear form of the scores
    pe = sinusoidal(max(CROSS_STARTS) + max(CROSS_OFFSETS) + 1, C)  # (T', C)
    x_q, x_k = s.X[0, CROSS_TOKENS[0]], s.X[0, CROSS_TOKENS[1]]  # (C,) each
    places = [(i, i + CROSS_OFFSET) for i in CROSS_STARTS]  # (query slot, key slot)
    cp = tuple(float(x_q @ M @ pe[j]) for _, j in places)
    pc = tuple(float(pe[i] @ M @ x_k) for i, _ in places)
    pp = tuple(float(pe[i] @ M @ pe[j]) for i, j in places)
    cc = float(x_q @ M @ x_k)
    q, k = (x_q @ s.Wq)[None], (x_k @ s.Wk)[None]  # (1, hs) each
    rope = tuple(float((rope_rotate(q, [i]) @ rope_rotate(k, [j]).T).item()) for i, j in places)
    return CrossTermResult(
        starts=CROSS_STARTS,
        offset=CROSS_OFFSET,
        pe_product=tuple(float(pe[i] @ pe[j]) for i, j in places),
        content_content=cc,
        content_position=cp,
        position_content=pc,
        position_position=pp,
        totals=tuple(float((x_q + pe[i]) @ M @ (x_k + pe[j])) for i, j in places),
        offsets=CROSS_OFFSETS,
        position_position_table=np.array([[pe[i] @ M @ pe[i + k] for i in CROSS_STARTS] for k in CROSS_OFFSETS]),
        rope_scores=rope,
        rope_spread=max(rope) - min(rope),
    )


STACK_LAYERS, STACK_HEADS = 2, 2


def stack_weights(seed: int = SEED, layers: int = STACK_LAYERS, n_heads: int = STACK_HEADS) -> list[BlockWeights]:
    """Seeded weights for a small stack of blocks of width C, heads of width C / n_heads."""
    rng = np.random.default_rng(seed)
    hs = C // n_heads

    def draw(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape) * INIT_SCALE / np.sqrt(shape[0])

    return [
        BlockWeights(
            heads=[(draw(C, hs), draw(C, hs), draw(C, hs)) for _ in range(n_heads)],
            Wo=draw(n_heads * hs, C),
            W1=draw(C, 4 * C),
            W2=draw(4 * C, C),
        )
        for _ in range(layers)
    ]


def run_stack(X: np.ndarray, blocks: list[BlockWeights], *, causal: bool = False) -> np.ndarray:
    """(..., T, C) through every block in turn."""
    for block in blocks:
        X = transformer_block(X, block, causal=causal)
    return X


@dataclass(frozen=True)
class StackResult:
    """A whole unmasked stack is equivariant: several heads, W_O, residuals, LayerNorm, MLP."""

    layers: int
    heads: int
    gap: float  # max|stack(PX) − P stack(X)| without a mask: rounding
    causal_gap: float  # the same with a causal mask in every head: large


def stack_experiment(seed: int = SEED) -> StackResult:
    s = shuffle_setup(seed)
    blocks = stack_weights(seed)

    def gap(causal: bool) -> float:
        moved = run_stack(permute_tokens(s.X, s.perm), blocks, causal=causal)
        return float(np.max(np.abs(moved - permute_tokens(run_stack(s.X, blocks, causal=causal), s.perm))))

    return StackResult(STACK_LAYERS, STACK_HEADS, gap(False), gap(True))
