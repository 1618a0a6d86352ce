"""The experiments of lessons 5 to 7 (token embeddings, sinusoidal encoding, learned tables).

Like ``experiments``: nothing prints, each function returns a frozen
dataclass whose fields the lessons quote.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from attnpos.core.embedding_tables import (
    buffered_backward,
    finite_difference_gradient,
    onehot_backward,
    row_use_counts,
    table_parameters,
)
from attnpos.core.learned_training import TrainedTable, train_position_table
from attnpos.core.position import embed, embed_backward, sinusoidal
from attnpos.core.sinusoidal_encoding import (
    attention_terms,
    binary_counter,
    halves_order,
    offset_products,
    pair_frequencies,
    shifted_by_blocks,
    to_halves,
    wavelengths,
)

EMBED_SEED = 3
EMBED_VOCAB, EMBED_WIDTH = 12, 4
EMBED_IDS = ((7, 2, 7, 5), (2, 9, 9, 7))  # (B, T) = (2, 4): 7 three times, 2 and 9 twice
GPT2_VOCAB, GPT2_WIDTH, GPT2_CONTEXT = 50257, 768, 1024
BERT_POSITIONS, ROBERTA_POSITIONS = 512, 514
# The loss is quadratic, so central differences have no truncation error: only rounding, about eps·loss/step.
FD_STEP = 1e-5
PAPER_WIDTH = 512  # d_model of the base Transformer


GPT2_LAYERS = 12


def gpt2_small_parameters(V: int = GPT2_VOCAB, C: int = GPT2_WIDTH, context: int = GPT2_CONTEXT, layers: int = GPT2_LAYERS) -> int:
    """GPT-2 small's parameters with wte tied to the output head (counted once): 124,439,808.

    Per layer: two LayerNorms (2C each), c_attn (C·3C + 3C), c_proj (C·C + C),
    the MLP (C·4C + 4C and 4C·C + C); then the final LayerNorm and the two tables.
    """
    per_layer = 2 * (2 * C) + (3 * C * C + 3 * C) + (C * C + C) + (4 * C * C + 4 * C) + (4 * C * C + C)
    return V * C + context * C + layers * per_layer + 2 * C


@dataclass(frozen=True)
class EmbeddingResult:
    """Lesson 5: the lookup, its scatter-add gradient, and the buffered trap."""

    ids: np.ndarray = field(repr=False)  # (B, T)
    uses: np.ndarray = field(repr=False)  # (V,) how often each id is looked up
    ones_scatter: np.ndarray = field(repr=False)  # (V, C) np.add.at of a gradient of ones: each row counts its uses
    ones_buffered: np.ndarray = field(repr=False)  # (V, C) grad[ids] += ones: a used row holds 1, however often used
    onehot_gap: float  # max|scatter-add − onehotᵀ·g|
    finite_difference_gap: float  # max|scatter-add − central differences|
    buffered_repeat: float  # the buffered gradient of the thrice-used id, with g = 1
    unbuffered_repeat: float  # np.add.at's, with g = 1
    unused_rows: int  # rows no id looked up: their gradient is exactly 0
    parameters: int  # V × C of the demo table
    gpt2_wte: int  # GPT-2's token table, 50257 × 768
    gpt2_wte_share: float  # that table as a share of GPT-2 small's 124M parameters (tied: counted once)


def embedding_experiment(seed: int = EMBED_SEED) -> EmbeddingResult:
    rng = np.random.default_rng(seed)
    V, C = EMBED_VOCAB, EMBED_WIDTH
    ids = np.array(EMBED_IDS)
    table = rng.standard_normal((V, C))  # (V, C)
    target = rng.standard_normal((*ids.shape, C))  # (B, T, C)

    def loss(E: np.ndarray) -> float:
        return 0.5 * float(np.sum((embed(E, ids) - target) ** 2))

    grad_out = embed(table, ids) - target  # dLoss/d(out), (B, T, C)
    scatter = embed_backward(grad_out, ids, V)
    ones = np.ones((*ids.shape, C))
    repeated = int(np.argmax(row_use_counts(ids, V)))
    return EmbeddingResult(
        ids=ids,
        uses=row_use_counts(ids, V),
        ones_scatter=embed_backward(ones, ids, V),
        ones_buffered=buffered_backward(ones, ids, V),
        onehot_gap=float(np.max(np.abs(scatter - onehot_backward(grad_out, ids, V)))),
        finite_difference_gap=float(np.max(np.abs(scatter - finite_difference_gradient(loss, table, FD_STEP)))),
        buffered_repeat=float(buffered_backward(ones, ids, V)[repeated, 0]),
        unbuffered_repeat=float(embed_backward(ones, ids, V)[repeated, 0]),
        unused_rows=int(np.sum(row_use_counts(ids, V) == 0)),
        parameters=table_parameters(V, C),
        gpt2_wte=table_parameters(GPT2_VOCAB, GPT2_WIDTH),
        gpt2_wte_share=table_parameters(GPT2_VOCAB, GPT2_WIDTH) / gpt2_small_parameters(),
    )


@dataclass(frozen=True)
class ScaleResult:
    """Why the Annotated Transformer multiplies token rows by √d_model, in norms (d_model = 512)."""

    width: int
    position_norm: float  # every sinusoidal row: √(C/2)
    token_norm: float  # mean norm of rows drawn N(0, 1/C), as tensor2tensor initialises them
    scaled_token_norm: float  # the same rows times √C


def scale_experiment(C: int = PAPER_WIDTH, rows: int = 256, seed: int = EMBED_SEED) -> ScaleResult:
    table = np.random.default_rng(seed).normal(0.0, C**-0.5, size=(rows, C))  # (rows, C)
    norms = np.linalg.norm(table, axis=1)
    return ScaleResult(
        width=C,
        position_norm=float(np.linalg.norm(sinusoidal(1, C)[0])),
        token_norm=float(norms.mean()),
        scaled_token_norm=float((norms * np.sqrt(C)).mean()),
    )


SINE_T, SINE_C = 16, 8  # the table the lesson draws
SINE_BITS = 4  # the binary counter beside it: 0 … 15
SHIFT_K = 3
PRODUCT_K = 7  # the offset whose product is checked at every t for d_model = 512
TERM_OFFSET = 2
CHECKED_POSITIONS = 100  # t < 100: far enough to see t-independence, near enough that sin(t·ω) rounds at ~1e-15
TERM_POSITIONS = (0, 5, 10, 20)


@dataclass(frozen=True)
class SinusoidalResult:
    """Lesson 6: the table, its relative structure, and what survives a projection."""

    table: np.ndarray = field(repr=False)  # (T, C) = (16, 8)
    counter: np.ndarray = field(repr=False)  # (16, 4) bits of t, lowest first
    frequencies: np.ndarray = field(repr=False)  # (C/2,)
    wavelengths: np.ndarray = field(repr=False)  # (C/2,)
    longest_wavelength_512: float  # 2π·10000^(510/512)
    paper_bound: float  # 10000·2π, which no pair reaches
    row_zero: tuple[float, ...]
    norm_error: float  # max |‖PE[t]‖ − √(C/2)| over 100 positions, C = 512
    shift_error: float  # max |PE[t+k] − M_k PE[t]| over t < 100 and k in 1 … 10, C = 512
    product_512: float  # PE[t]·PE[t+7], C = 512
    product_spread: float  # its largest − smallest over t < 93
    symmetric_error: float  # max |product(k) − product(−k)|
    products: np.ndarray = field(repr=False)  # (T, T) PE[s]·PE[t] for the lesson's table
    offset_profile: np.ndarray = field(repr=False)  # (T,) PE[0]·PE[k], k = 0 … T−1
    first_rise: int  # the first k at which the product goes up again: not monotone
    halves_gap: float  # max |halves − interleaved[:, order]|
    terms: dict[int, dict[str, float]] = field(repr=False)  # t -> the four score terms for PE[t], PE[t+2]


def sinusoidal_experiment(seed: int = EMBED_SEED) -> SinusoidalResult:
    pe = sinusoidal(SINE_T, SINE_C)
    big = sinusoidal(CHECKED_POSITIONS, PAPER_WIDTH)  # (100, 512)
    shift = max(float(np.max(np.abs(big[k:] - shifted_by_blocks(big[:-k], k)))) for k in range(1, 11))
    along = np.einsum("tc,tc->t", big[:-PRODUCT_K], big[PRODUCT_K:])  # (93,) PE[t]·PE[t+7]
    ks = np.arange(-40, 41)
    profile = offset_products(PAPER_WIDTH, ks)
    products = pe @ pe.T  # (T, T)
    row = products[0]
    rise = int(np.argmax(np.diff(row) > 0)) + 1
    rng = np.random.default_rng(seed)
    Wq, Wk = rng.standard_normal((SINE_C, SINE_C)), rng.standard_normal((SINE_C, SINE_C))
    x, y = rng.standard_normal(SINE_C), rng.standard_normal(SINE_C)
    long = sinusoidal(max(TERM_POSITIONS) + TERM_OFFSET + 1, SINE_C)
    return SinusoidalResult(
        table=pe,
        counter=binary_counter(SINE_T, SINE_BITS),
        frequencies=pair_frequencies(SINE_C),
        wavelengths=wavelengths(SINE_C),
        longest_wavelength_512=float(wavelengths(PAPER_WIDTH)[-1]),
        paper_bound=10000 * 2 * np.pi,
        row_zero=tuple(float(v) for v in pe[0]),
        norm_error=float(np.max(np.abs(np.linalg.norm(big, axis=1) - np.sqrt(PAPER_WIDTH / 2)))),
        shift_error=shift,
        product_512=float(along[0]),
        product_spread=float(along.max() - along.min()),
        symmetric_error=float(np.max(np.abs(profile - profile[::-1]))),
        products=products,
        offset_profile=row,
        first_rise=rise,
        halves_gap=float(np.max(np.abs(to_halves(pe) - pe[:, halves_order(SINE_C)]))),
        terms={t: attention_terms(x, long[t], y, long[t + TERM_OFFSET], Wq, Wk) for t in TERM_POSITIONS},
    )


@dataclass(frozen=True)
class LearnedResult:
    """Lesson 7: table sizes, and a small table trained on sequences of 2 to 8 tokens (`train_position_table`)."""

    gpt2_wpe: int
    bert_wpe: int
    roberta_wpe: int
    steps: int
    longest: int  # the longest training sequence: rows from here on are never looked up
    untouched: bool  # rows from `longest` on are bit-identical to their start
    gradients: np.ndarray = field(repr=False)  # (max_len,) token gradients each row received
    row_error: np.ndarray = field(repr=False)  # (max_len,) ‖after − target‖ per row
    trained_error: float  # the largest row error among rows training reached
    untrained_error: float  # the smallest among the rows it did not
    before: np.ndarray = field(repr=False)  # (max_len, C)
    after: np.ndarray = field(repr=False)  # (max_len, C)
    target: np.ndarray = field(repr=False)  # (max_len, C)


def learned_experiment() -> LearnedResult:
    run: TrainedTable = train_position_table()
    return LearnedResult(
        gpt2_wpe=table_parameters(GPT2_CONTEXT, GPT2_WIDTH),
        bert_wpe=table_parameters(BERT_POSITIONS, GPT2_WIDTH),
        roberta_wpe=table_parameters(ROBERTA_POSITIONS, GPT2_WIDTH),
        steps=run.steps,
        longest=run.longest,
        untouched=run.untouched,
        gradients=run.gradients,
        row_error=run.row_error,
        trained_error=float(run.row_error[: run.longest].max()),
        untrained_error=float(run.row_error[run.longest :].min()),
        before=run.before,
        after=run.after,
        target=run.target,
    )
