"""Named figures: every number and matrix a lesson quotes, computed from attnpos.core.

A lesson writes ``{{offset.gap:.2f}}`` in its prose or names a matrix in a
``{grid}`` block; the loader looks the name up here. Nothing is typed into
the text, so the prose cannot drift from what the code computes.
Experiments run once per process and are cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

import numpy as np

from attnpos.core import cure_experiments as cx
from attnpos.core import experiments as ex
from attnpos.core import learned_training as lt
from attnpos.core.extension import nope_first_token_share, nope_weights
from attnpos.core.linear_biases import bias_only_weights, unmasked_shortcut_weights
from attnpos.core.position import alibi_slopes, slot_ramp
from attnpos.core.rotary import GPTJ_HEAD, GPTJ_ROTARY, SHIFTED_START, rope_sentence_experiment
from attnpos.core.words import label_tokens

COLUMN_LABEL = 2  # a heat map's column is two cells wide, so its label is at most two characters


@dataclass(frozen=True)
class Figure:
    """One quotable figure: its value, what it means, and for matrices the row/column labels."""

    name: str
    meaning: str
    compute: Callable[[], Any]
    labels: Callable[[], list[str]] | None = None  # for (T, T) matrices shown as grids
    tokens: Callable[[], list[int]] | None = None  # a reordered grid: which of the first order's tokens each row holds
    columns: Callable[[], list[str]] | None = None  # for heat maps: a label of at most COLUMN_LABEL characters per column

    @property
    def value(self) -> Any:
        return _value(self.name)

    def column_labels(self) -> list[str]:
        """A heat map's column labels: the figure's own, else 0, 1, 2, …."""
        return self.columns() if self.columns else [str(j) for j in range(self.value.shape[1])]

    @property
    def is_matrix(self) -> bool:
        return isinstance(self.value, np.ndarray) and self.value.ndim == 2


@cache
def result(key: str) -> Any:
    """The result of the experiment ``key`` of ``core.experiments.EXPERIMENTS`` (their one list), computed once per process."""
    return ex.EXPERIMENTS[key][1]()


family = cache(ex.family_experiment)  # one family of position signals: the experiment "families" runs it for each


def rotary():
    return result("rope-lesson")


def biases():
    return result("alibi-lesson")


def rules():
    return result("scaling-rules")


def bound():
    return result("interpolation-bound")


rotary_sentence = cache(rope_sentence_experiment)  # lesson 8's sentence grids, not an experiment of `attnpos demos`


def _sentence_labels() -> list[str]:
    return label_tokens(list(result("sentence").tokens))


def _edited_labels() -> list[str]:
    return label_tokens(list(result("sentence").edited_tokens))


def _order_b_labels() -> list[str]:
    """Order A's labels relisted: a token keeps its name (the₄ stays the₄ in slot 5), as in the playground."""
    labels = _sentence_labels()
    return [labels[i] for i in ex.ORDER_B_PERM]


def _slot_labels() -> list[str]:
    return [f"x{i}" for i in range(ex.T)]


def _shuffled_labels() -> list[str]:
    return [f"x{i}" for i in ex.PERM]


def _perm() -> list[int]:
    return [int(i) for i in ex.PERM]


def _order_b_perm() -> list[int]:
    return [int(i) for i in ex.ORDER_B_PERM]

def _family_figures(signal: str) -> list[Figure]:
    """Gap, twins and both grids of one family on lesson 3's orders A and B."""
    return [
        Figure(f"family.{signal}.gap", f"shuffle gap of order B against A with {signal}", lambda: family(signal).gap),
        Figure(
            f"family.{signal}.twins",
            f"whether the rows of the₀ and the₄ are identical with {signal}",
            lambda: "identical" if family(signal).twins_identical else "different",
        ),
        Figure(f"family.{signal}.weights", f"order A's weights with {signal}", lambda: family(signal).weights, _sentence_labels),
        Figure(f"family.{signal}.order_b_weights", f"order B's weights with {signal}", lambda: family(signal).order_b_weights, _order_b_labels, _order_b_perm),
    ]


def _cross_figures() -> list[Figure]:
    """The four terms of an added signal's score at each placement of lesson 2's query and key tokens."""
    terms = {
        "content_pos": ("x_i W_Q W_Kᵀ p_j", "content_position"),
        "pos_content": ("p_i W_Q W_Kᵀ x_j", "position_content"),
        "pos_pos": ("p_i W_Q W_Kᵀ p_j", "position_position"),
        "total": ("the whole score before √d_k", "totals"),
    }

    def term(field: str, at: int) -> Callable[[], float]:
        return lambda: getattr(result("cross-terms"), field)[at]

    return [
        Figure(f"cross.{name}.{start}", f"{meaning}, query at slot {start}, key {ex.CROSS_OFFSET} slots later", term(field, at))
        for name, (meaning, field) in terms.items()
        for at, start in enumerate(ex.CROSS_STARTS)
    ]


def _order_b_weights() -> np.ndarray:
    perm = np.array(ex.ORDER_B_PERM)
    return result("sentence").weights[np.ix_(perm, perm)]


def _rows(values: np.ndarray, fmt: str = ".3f") -> str:
    return ", ".join(format(float(v), fmt) for v in values)


CHANGED_ROW = 0.05  # a row whose largest weight moved by more than this counts as changed


def changed_rows(before: np.ndarray, after: np.ndarray) -> frozenset[int]:
    """Rows of two (T, T) weight matrices whose largest weight moved by more than CHANGED_ROW."""
    moved = np.max(np.abs(after - before), axis=1)
    return frozenset(int(i) for i in np.flatnonzero(moved > CHANGED_ROW))


def _changed_rows(threshold: float = CHANGED_ROW) -> str:
    s = result("sentence")
    labels = _sentence_labels()
    return ", ".join(labels[i] for i in np.flatnonzero(s.row_change > threshold))


def _steady_rows(threshold: float = CHANGED_ROW) -> str:
    s = result("sentence")
    labels = _sentence_labels()
    return ", ".join(labels[i] for i in np.flatnonzero(s.row_change <= threshold))


def _listed(numbers: tuple[int, ...]) -> str:
    """1, 2, 3 and 4, with thousands separated."""
    return ", ".join(f"{n:,}" for n in numbers[:-1]) + f" and {numbers[-1]:,}"


def _slot_labels_8() -> list[str]:
    return [f"x{i}" for i in range(8)]


def _scores_figures() -> list[Figure]:
    """Lessons 8–10: position in the scores (RoPE, ALiBi) and past the training length."""
    return [
        Figure("rotary.offset", "the offset of the huge-position demo", lambda: rotary().offset),
        Figure("rotary.starts", "the query positions of that demo", lambda: _listed(rotary().starts)),
        Figure("rotary.score", "the score at every one of them", lambda: rotary().scores[0]),
        Figure("rotary.spread", "the largest difference between those scores", lambda: rotary().score_spread),
        Figure("rotary.reversal_gap", "seed-42 tokens reversed, RoPE on q and k", lambda: rotary().reversal_gap),
        Figure("rotary.reversal_gap_without", "the same reversal without position", lambda: rotary().reversal_gap_without),
        Figure("rotary.interleaved_score", "one q, k at positions 3 and 11, interleaved", lambda: rotary().interleaved_score),
        Figure("rotary.half_score", "the same q, k, half-split", lambda: rotary().half_score),
        Figure("rotary.mixed_relative_error", "the wrong layout still passes a relative test", lambda: rotary().mixed_relative_error),
        Figure("rotary.long_pairs_10k", "pairs of 64 with wavelength over 4,096 at base 10,000", lambda: rotary().long_pairs_10k),
        Figure("rotary.long_pairs_500k", "the same at base 500,000", lambda: rotary().long_pairs_500k),
        Figure("rotary.longest_10k", "the longest wavelength at base 10,000, d = 128", lambda: rotary().longest_10k),
        Figure("rotary.longest_500k", "the longest wavelength at base 500,000", lambda: rotary().longest_500k),
        Figure("rotary.gptj_head", "GPT-J's head width", lambda: GPTJ_HEAD),
        Figure("rotary.gptj_rotary", "the channels GPT-J rotates", lambda: GPTJ_ROTARY),
        Figure("rotary.gptj_unrotated", "the channels it leaves alone", lambda: rotary().gptj_unrotated),
        Figure("rotary.gptj_shift_error", "their largest change when every position moves 1,000 on", lambda: rotary().gptj_shift_error),
        Figure("rotary.v_shift_gap", "outputs of a head that rotates v, moved 10 slots on: the change", lambda: rotary().v_rotated_shift_gap),
        Figure("rotary.decay_near", "RoFormer's bound at offset 1, d = 128", lambda: rotary().decay_near),
        Figure("rotary.decay_far", "... at offset 1,000", lambda: rotary().decay_far),
        Figure("rotary.shift", "how far the sentence is moved", lambda: SHIFTED_START),
        Figure("rotary.shift_gap", "max|weights at 0 … 5 − weights at 1000 … 1005|", lambda: rotary_sentence().shift_gap),
        Figure("rotary.weights", "lesson 3's sentence through a half-split RoPE head", lambda: rotary_sentence().weights, _sentence_labels),
        Figure("rotary.shifted_weights", "the same, every position 1,000 on", lambda: rotary_sentence().shifted_weights, _sentence_labels),
        Figure("biases.slopes12_first", "the first 8 of 12 heads' slopes", lambda: " … ".join(f"1/{round(1 / s)}" for s in biases().slopes12[[0, 7]])),
        Figure("biases.slopes12_extra", "the last 4 of 12 heads' slopes", lambda: _rows(biases().slopes12[8:], ".3f")),
        Figure("biases.naive12", "2^(−8h/12) for h = 1 … 12", lambda: _rows(biases().naive12, ".3g")),
        Figure("biases.length", "the query's position in the mass-beyond figures", lambda: biases().mass_length),
        Figure("biases.near", "the nearer window", lambda: biases().near),
        Figure("biases.far", "the wider window", lambda: biases().far),
        Figure("biases.near_steep", "weight beyond the near window, slope 1/2", lambda: float(biases().mass_beyond_near[0])),
        Figure("biases.near_gentle", "weight beyond the near window, slope 1/256", lambda: float(biases().mass_beyond_near[-1])),
        Figure("biases.far_gentle", "weight beyond the wide window, slope 1/256", lambda: float(biases().mass_beyond_far[-1])),
        Figure("biases.near_all", "weight beyond the near window, heads 0–7", lambda: _rows(biases().mass_beyond_near, ".1e")),
        Figure("biases.shortcut_gap", "weights with +m·j and the mask against −m(i − j)", lambda: biases().shortcut_masked_gap),
        Figure("biases.unmasked_gap", "the same with the shortcut's mask forgotten", lambda: biases().shortcut_unmasked_gap),
        Figure("biases.steep_weights", "head 0's weights from the bias alone", lambda: bias_only_weights(0), _slot_labels_8),
        Figure("biases.gentle_weights", "head 7's weights from the bias alone", lambda: bias_only_weights(7), _slot_labels_8),
        Figure("biases.unmasked_weights", "head 0 with +m·j and no mask", lambda: unmasked_shortcut_weights(0), _slot_labels_8),
        Figure("rules.ntk_bases", "NTK-aware bases for s = 2, 4, 8, d = 128", lambda: ", ".join(f"{b:,.0f}" for b in rules().ntk_bases)),
        Figure("rules.ntk_first_ratio", "pair 0's frequency after NTK ÷ before", lambda: rules().ntk_first_ratio),
        Figure("rules.ntk_last_ratio", "the last pair's", lambda: rules().ntk_last_ratio),
        Figure("rules.yarn_ramp", "YaRN's ramp pairs at base 10,000, L = 4,096, d = 128", lambda: f"{rules().yarn_ramp[0]} to {rules().yarn_ramp[1]}"),
        Figure("rules.yarn_factor", "YaRN's attention factor at s = 4", lambda: rules().yarn_attention_factor),
        Figure("rules.llama3_kept", "pairs Llama 3.1 keeps", lambda: rules().llama3_kept),
        Figure("rules.llama3_divided", "pairs it divides by 8", lambda: rules().llama3_divided),
        Figure("rules.llama3_blended", "pairs it blends", lambda: rules().llama3_blended),
        Figure("bound.d", "head width of the fit", lambda: bound().d),
        Figure("bound.length", "the trained range [0, L]", lambda: bound().length),
        Figure("bound.inside", "max|fit| on [0, L]", lambda: bound().inside),
        Figure("bound.extrapolated", "max|fit| on [L, 2L]", lambda: bound().extrapolated),
        Figure("bound.interpolated", "max|fit| at interpolated positions", lambda: bound().interpolated),
        Figure("bound.condition", "condition number of the feature matrix", lambda: bound().condition),
        Figure("bound.ridge_small", "max|fit| on [L, 2L] with ridge 1e-6", lambda: bound().ridge[0][2]),
        Figure("bound.ridge_large", "max|fit| on [L, 2L] with ridge 0.1", lambda: bound().ridge[-1][2]),
        Figure("bound.ridge_large_inside", "max|fit| on [0, L] with ridge 0.1", lambda: bound().ridge[-1][1]),
        Figure("nope.weights", "a causal head with no signal and equal scores", nope_weights, _slot_labels_8),
        Figure("nope.shares", "the first token's share of slots 0–5, NoPE with a causal mask", lambda: _rows(nope_first_token_share(6))),
    ]


# --- lessons 5 to 7: token embeddings, the sinusoidal encoding, learned tables -------

embedding = cache(cx.embedding_experiment)
scale = cache(cx.scale_experiment)
sine = cache(cx.sinusoidal_experiment)
learned = cache(cx.learned_experiment)


def _positions(count: int) -> Callable[[], list[str]]:
    return lambda: [f"t{t}" for t in range(count)]


def _channels(count: int) -> Callable[[], list[str]]:
    return lambda: [str(c) for c in range(count)]


def _ids(count: int) -> Callable[[], list[str]]:
    return lambda: [f"id {v}" for v in range(count)]


def _bits() -> list[str]:
    return [str(b) for b in range(cx.SINE_BITS)]


def _cure_figures() -> list[Figure]:
    rows, width = cx.SINE_T, cx.SINE_C
    table_rows, table_width = lt.TABLE_ROWS, lt.TABLE_WIDTH
    id_axes = (_ids(cx.EMBED_VOCAB), None, _channels(cx.EMBED_WIDTH))
    term = "position-position", "content-position"
    return [
        Figure("embed.ids", "the demo's (B, T) ids", lambda: embedding().ids.tolist()),
        Figure("embed.vocab", "rows of the demo table", lambda: cx.EMBED_VOCAB),
        Figure("embed.width", "channels of the demo table", lambda: cx.EMBED_WIDTH),
        Figure("embed.parameters", "V × C of the demo table", lambda: embedding().parameters),
        Figure("embed.uses", "how often each id of the demo is looked up", lambda: ", ".join(f"{v}: {n}" for v, n in enumerate(embedding().uses) if n)),
        Figure("embed.unused_rows", "rows of the demo table no id looks up", lambda: embedding().unused_rows),
        Figure("embed.onehot_gap", "max|scatter-add − onehotᵀ·g|", lambda: embedding().onehot_gap),
        Figure("embed.fd_gap", "max|scatter-add − central differences|", lambda: embedding().finite_difference_gap),
        Figure("embed.fd_step", "the central-difference step", lambda: cx.FD_STEP),
        Figure("embed.buffered", "the thrice-used row's gradient with grad[ids] += 1", lambda: embedding().buffered_repeat),
        Figure("embed.unbuffered", "the same with np.add.at", lambda: embedding().unbuffered_repeat),
        Figure("embed.scatter", "np.add.at of a gradient of ones into the 12 × 4 table", lambda: embedding().ones_scatter, *id_axes),
        Figure("embed.buffered_grad", "grad[ids] += ones: the buffered version", lambda: embedding().ones_buffered, *id_axes),
        Figure("embed.gpt2_wte", "GPT-2's token table, 50257 × 768", lambda: embedding().gpt2_wte),
        Figure("embed.gpt2_share", "that table's share of GPT-2 small's parameters", lambda: embedding().gpt2_wte_share),
        Figure("scale.width", "d_model of the norm comparison", lambda: scale().width),
        Figure("scale.position_norm", "norm of every sinusoidal row at d_model = 512", lambda: scale().position_norm),
        Figure("scale.token_norm", "mean norm of token rows drawn N(0, 1/512)", lambda: scale().token_norm),
        Figure("scale.scaled_norm", "the same rows times √512", lambda: scale().scaled_token_norm),
        Figure("sine.table", "the sinusoidal table, 16 positions × 8 channels", lambda: sine().table, _positions(rows), None, _channels(width)),
        Figure("sine.counter", "the bits of 0 … 15, lowest first", lambda: sine().counter, _positions(rows), None, _bits),
        Figure("sine.products", "PE[s]·PE[t] for the 16 × 8 table", lambda: sine().products, _positions(rows), None, _channels(rows)),
        Figure("sine.frequencies", "ω_i for C = 8", lambda: ", ".join(f"{w:g}" for w in sine().frequencies)),
        Figure("sine.wavelengths", "2π/ω_i for C = 8", lambda: ", ".join(f"{w:,.1f}" for w in sine().wavelengths)),
        Figure("sine.longest_512", "the longest wavelength at d_model = 512", lambda: sine().longest_wavelength_512),
        Figure("sine.paper_bound", "10000·2π", lambda: sine().paper_bound),
        Figure("sine.row_zero", "PE[0] for C = 8", lambda: "(" + ", ".join(f"{v:g}" for v in sine().row_zero) + ")"),
        Figure("sine.norm_error", "max|‖PE[t]‖ − √(C/2)|, C = 512, t < 100", lambda: sine().norm_error),
        Figure("sine.shift_error", "max|PE[t+k] − M_k·PE[t]|, C = 512, t < 100, k ≤ 10", lambda: sine().shift_error),
        Figure("sine.product_k", "the offset of the product check", lambda: cx.PRODUCT_K),
        Figure("sine.product_512", "PE[t]·PE[t+7] at d_model = 512", lambda: sine().product_512),
        Figure("sine.product_spread", "its spread over t", lambda: sine().product_spread),
        Figure("sine.symmetric_error", "max|product(k) − product(−k)|", lambda: sine().symmetric_error),
        Figure("sine.profile", "PE[0]·PE[k] for k = 0 … 15, C = 8", lambda: ", ".join(f"{v:.2f}" for v in sine().offset_profile)),
        Figure("sine.first_rise", "the first k at which PE[0]·PE[k] rises again", lambda: sine().first_rise),
        Figure("sine.halves_gap", "max|halves − interleaved, channels permuted|", lambda: sine().halves_gap),
        Figure("sine.term_offset", "the offset k of the score-terms table", lambda: cx.TERM_OFFSET),
        Figure("sine.pp_terms", "position–position term at t = 0, 5, 10, 20", lambda: ", ".join(f"{v[term[0]]:+.2f}" for v in sine().terms.values())),
        Figure("sine.cp_terms", "content–position term at t = 0, 5, 10, 20", lambda: ", ".join(f"{v[term[1]]:+.2f}" for v in sine().terms.values())),
        Figure("learned.gpt2", "GPT-2's wpe parameters, 1024 × 768", lambda: learned().gpt2_wpe),
        Figure("learned.bert", "BERT-base's position table, 512 × 768", lambda: learned().bert_wpe),
        Figure("learned.roberta", "RoBERTa's, 514 × 768", lambda: learned().roberta_wpe),
        Figure("learned.rows", "rows of the trained table", lambda: table_rows),
        Figure("learned.width", "channels of the trained table", lambda: table_width),
        Figure("learned.steps", "gradient steps", lambda: learned().steps),
        Figure("learned.batch", "sequences per step", lambda: lt.BATCH),
        Figure("learned.shortest", "shortest training sequence", lambda: lt.SHORTEST),
        Figure("learned.longest", "longest training sequence", lambda: lt.LONGEST),
        Figure("learned.rate", "learning rate", lambda: lt.LEARNING_RATE),
        Figure("learned.untouched", "rows 8 on are bit-identical to their initial values", lambda: learned().untouched),
        Figure("learned.gradients", "token gradients of rows 0 … 8", lambda: ", ".join(f"{n:,}" for n in learned().gradients[: lt.LONGEST + 1])),
        Figure("learned.trained_error", "largest row error among trained rows", lambda: learned().trained_error),
        Figure("learned.untrained_error", "smallest row error among untrained rows", lambda: learned().untrained_error),
        Figure("learned.first_error", "row 0's error", lambda: float(learned().row_error[0])),
        Figure("learned.before", "the table before training", lambda: learned().before, _positions(table_rows), None, _channels(table_width)),
        Figure("learned.after", "the table after training", lambda: learned().after, _positions(table_rows), None, _channels(table_width)),
        Figure("learned.target", "the vectors slot t is asked to hold", lambda: learned().target, _positions(table_rows), None, _channels(table_width)),
    ]


FIGURES: dict[str, Figure] = {
    f.name: f
    for f in [
        Figure("setup.seed", "the seed of the first lesson's experiments", lambda: ex.SEED),
        Figure("setup.shape", "(B, T, C) of the first lesson's X", lambda: (ex.B, ex.T, ex.C)),
        Figure("setup.init_scale", "the factor the projections are scaled by", lambda: ex.INIT_SCALE),
        Figure("setup.perm", "the shuffle of the first lesson", lambda: list(ex.PERM)),
        Figure("shuffle.gap", "max|attn(X[:, perm]) − attn(X)[:, perm]| without position", lambda: result("shuffle").gap),
        Figure("shuffle.naive_gap", "the shuffled run against the original, not reordered", lambda: result("shuffle").naive_gap),
        Figure("shuffle.weights", "weights of the seed-42 tokens, no position", lambda: result("shuffle").weights, _slot_labels),
        Figure("shuffle.shuffled_weights", "weights of the shuffled tokens, no position", lambda: result("shuffle").shuffled_weights, _shuffled_labels, _perm),
        Figure("offset.weights", "weights with the per-slot ramp added", lambda: result("offset").weights, _slot_labels),
        Figure("offset.shuffled_weights", "the shuffled tokens with the ramp added", lambda: result("offset").shuffled_weights, _shuffled_labels, _perm),
        Figure("twin.slots", "the two slots holding the same token", lambda: list(result("twins").slots)),
        Figure("twin.rows_equal", "whether output rows 0 and 4 are equal without position", lambda: result("twins").rows_equal),
        Figure("twin.max_diff", "max|out[0] − out[4]| without position", lambda: result("twins").max_diff),
        Figure("offset.step", "the per-slot ramp is step·(t+1)", lambda: result("offset").step),
        Figure("offset.gap", "the shuffle gap with the per-slot ramp added before attention", lambda: result("offset").gap),
        Figure("offset.constant", "the value of the constant offset", lambda: result("offset").constant_value),
        Figure("offset.constant_gap", "the shuffle gap with a constant offset", lambda: result("offset").constant_gap),
        Figure("offset.ramp", "the per-slot ramp for T = 6, one value per slot", lambda: [round(float(v), 2) for v in slot_ramp(ex.T, 1, ex.RAMP_STEP)[:, 0]]),
        Figure("matrix.tokens", "tokens in the permutation-matrix check", lambda: result("matrix-form").tokens),
        Figure("matrix.width", "width d in the permutation-matrix check", lambda: result("matrix-form").width),
        Figure("matrix.P", "the 0/1 permutation matrix", lambda: result("matrix-form").P),
        Figure("matrix.equal", "attn(PX) equals P·attn(X)", lambda: result("matrix-form").equal),
        Figure("matrix.max_diff", "max|attn(PX) − P·attn(X)|", lambda: result("matrix-form").max_diff),
        Figure("sentence.tokens", "sentence A", lambda: " ".join(result("sentence").tokens)),
        Figure("sentence.order_b", "order B, a shuffle of A", lambda: " ".join(result("sentence").order_b)),
        Figure("sentence.edited", "sentence A with cat → dog", lambda: " ".join(result("sentence").edited_tokens)),
        Figure("sentence.weights", "attention weights of sentence A", lambda: result("sentence").weights, _sentence_labels),
        Figure("sentence.edited_weights", "attention weights after cat → dog", lambda: result("sentence").edited_weights, _edited_labels),
        Figure("sentence.order_b_weights", "attention weights of order B", _order_b_weights, _order_b_labels, _order_b_perm),
        Figure("sentence.pos_weights", "order A with the per-slot ramp added", lambda: result("sentence").pos_weights, _sentence_labels),
        Figure(
            "sentence.pos_order_b_weights", "order B with the per-slot ramp added",
            lambda: result("sentence").pos_order_b_weights, _order_b_labels, _order_b_perm,
        ),
        Figure(
            "sentence.flat_weights", "weights with the scores multiplied by 0: every row a blend",
            lambda: result("sentence").flat_weights, _sentence_labels,
        ),
        Figure("sentence.row_change", "max|Δweight| of each row after cat → dog", lambda: _rows(result("sentence").row_change)),
        Figure("sentence.changed_rows", "rows whose weights moved by more than 0.05", _changed_rows),
        Figure("sentence.steady_rows", "rows whose weights moved by at most 0.05", _steady_rows),
        Figure("sentence.most_changed", "the row the edit moved most", lambda: _sentence_labels()[result("sentence").most_changed_row]),
        Figure("sentence.most_changed_by", "how far that row moved", lambda: float(result("sentence").row_change.max())),
        Figure("sentence.least_changed_by", "how far the steadiest row moved", lambda: float(result("sentence").row_change.min())),
        Figure("sentence.causal_first_row_change", "row 0's change under a causal mask", lambda: float(result("sentence").causal_row_change[0])),
        Figure("sentence.cat_self_weight", "the weight the cat row puts on itself", lambda: float(result("sentence").weights[1, 1])),
        Figure("sentence.row_sum_error", "max|Σ_j α_ij − 1| over the rows", lambda: result("sentence").row_sums_max_error),
        Figure("sentence.relist_gap", "max|out_B − out_A re-listed in B's order|", lambda: result("sentence").relist_gap),
        Figure("sentence.pooled_gap", "max|Σ out_B − Σ out_A|", lambda: result("sentence").pooled_gap),
        Figure("sentence.pos_pooled_gap", "the pooled gap once the per-slot ramp is added", lambda: result("sentence").pos_pooled_gap),
        Figure("sentence.sharp_scale", "the score multiplier of the copy extreme", lambda: ex.SHARP_SCALE),
        Figure("sentence.sharp_max", "largest weight per row with sharpened scores", lambda: _rows(result("sentence").sharp_max_weight, ".2f")),
        Figure("sentence.blend_weight", "every weight when the scores are flattened", lambda: float(result("sentence").flat_weights[0, 0])),
        Figure("solved.naive_gap", "exercise 1: the comparison without reordering", lambda: result("exercises").naive_gap),
        Figure("solved.constant_gap", "exercise 2: the gap with a constant offset", lambda: result("exercises").constant_gap),
        Figure("solved.twin_rows_equal", "exercise 3: rows 0 and 4 equal once position is added", lambda: result("exercises").twin_rows_equal_with_pos),
        Figure("solved.twin_diff", "exercise 3: max|out[0] − out[4]| with position", lambda: result("exercises").twin_diff_with_pos),
        Figure("solved.late_diff", "position added after attention: out[4] − out[0] in channel 0", lambda: float(result("exercises").after_attention_diff[0])),
        Figure("solved.late_matches", "that difference is exactly pos[4] − pos[0]", lambda: result("exercises").after_attention_matches_offset),
        Figure("alibi.slopes8", "ALiBi slopes for 8 heads, as powers of 1/2", lambda: ", ".join(f"1/{round(1 / s)}" for s in alibi_slopes(8))),
        Figure("init.top_weight", "mean largest weight per row, projections × 0.5", lambda: result("init-scale").mean_top_weight),
        Figure("init.top_weight_unscaled", "the same without the factor", lambda: result("init-scale").mean_top_weight_unscaled),
        Figure("shuffle.gap_ulps", "the shuffle gap in units in the last place", lambda: result("shuffle").gap_ulps),
        Figure("shuffle.weights_relabel_gap", "max|A(PX) − P·A(X)·Pᵀ|", lambda: result("shuffle").weights_relabel_gap),
        Figure("causal.gap", "the seed-42 shuffle gap with a causal mask, no position", lambda: result("causal").gap),
        Figure("causal.twin_diff", "max|out[0] − out[4]| for the twins with a causal mask", lambda: result("causal").twin_diff),
        Figure("causal.marker_share", "the first token's share of each slot, uniform causal weights", lambda: _rows(result("causal").marker_share)),
        Figure("causal.weights", "seed-42 weights with a causal mask", lambda: result("causal").weights, _slot_labels),
        Figure("causal.shuffled_weights", "the shuffled tokens with a causal mask", lambda: result("causal").shuffled_weights, _shuffled_labels),
        Figure("ramp.token_norm", "mean norm of the seed-42 token vectors", lambda: result("ramp").token_norm),
        Figure("ramp.last_norm", "norm of the ramp at the last of six slots", lambda: float(result("ramp").ramp_norms[-1])),
        Figure("ramp.product_near", "ramp[1]·ramp[4]", lambda: result("ramp").ramp_product_near),
        Figure("ramp.product_far", "ramp[10]·ramp[13]", lambda: result("ramp").ramp_product_far),
        Figure("ramp.sin_product", "PE[1]·PE[4] = PE[10]·PE[13] for the sinusoidal encoding", lambda: result("ramp").sin_product_near),
        Figure("ramp.crowded_slot", "the slot lesson 1's ramp rows read most", lambda: _slot_labels()[result("ramp").crowded_column]),
        Figure("ramp.crowded_share", "the mean weight on it", lambda: result("ramp").crowded_share),
        Figure("ramp.sentence_crowded_slot", "the slot lesson 3's A + ramp rows read most", lambda: _sentence_labels()[result("ramp").sentence_crowded_column]),
        Figure("ramp.sentence_crowded_share", "the mean weight on it", lambda: result("ramp").sentence_crowded_share),
        Figure("scaling.d_k", "the key width of the variance demo", lambda: result("scaling").d_k),
        Figure("scaling.raw_variance", "variance of q·k for random unit-variance q, k", lambda: result("scaling").raw_variance),
        Figure("scaling.scaled_variance", "variance of q·k/√d_k", lambda: result("scaling").scaled_variance),
        Figure("alibi.fade", "the factor by which a key counts as faded", lambda: result("alibi").fade),
        Figure("alibi.window_steep", "slots back at which slope 1/2 fades a key 100×", lambda: float(result("alibi").windows[0])),
        Figure("alibi.window_gentle", "slots back at which slope 1/256 fades a key 100×", lambda: float(result("alibi").windows[-1])),
        Figure("alibi.reversal_gap", "seed-42 reversal gap, published ALiBi head 0", lambda: result("alibi").reversal_gap),
        Figure("alibi.mask_only_reversal_gap", "the same reversal, causal mask alone", lambda: result("alibi").mask_only_reversal_gap),
        Figure("alibi.symmetric_reversal_gap", "the same reversal, −m·|i − j| without a mask", lambda: result("alibi").symmetric_reversal_gap),
        Figure("rope.relative_error", "max|⟨R_i q, R_j k⟩ − ⟨q, R_(j−i) k⟩|", lambda: result("rope").relative_error),
        Figure("rope.half_error", "half-split RoPE against interleaved RoPE on permuted channels", lambda: result("rope").half_as_interleaved_error),
        Figure("rope.mismatch", "one q, k scored with the two pairings: the difference", lambda: result("rope").mismatched_score_gap),
        Figure("sentence.sharp_ratio", "scale 50 against the usual 1/√8", lambda: result("sentence").sharp_ratio),
        Figure(
            "sentence.mat_weights",
            "the sharpened mat row's weights on the₀ and the₄",
            lambda: " and ".join(f"{w:.2f}" for w in result("sentence").mat_sharp_weights),
        ),
        Figure("sentence.mat_copy_gap", "max|y_mat − v_the| sharpened", lambda: result("sentence").mat_copy_gap),
        Figure("sentence.last_slot_gap", "the last slot's output, order B against order A, no position", lambda: result("sentence").last_slot_gap),
        *[f for signal in ex.FAMILY_SIGNALS for f in _family_figures(signal)],
        *_scores_figures(),
        Figure("ramp.ones_form", "1ᵀ W_Q W_Kᵀ 1 of the seed-42 head", lambda: result("ramp").ones_form),
        Figure("ramp.sentence_ones_form", "1ᵀ W_Q W_Kᵀ 1 of lesson 3's seed-7 head", lambda: result("ramp").sentence_ones_form),
        Figure("ramp.end", "the end the ramp's own score term favours with the seed-42 head", lambda: result("ramp").favoured_end),
        Figure("ramp.sentence_end", "the end it favours with the seed-7 head", lambda: result("ramp").sentence_favoured_end),
        Figure("ramp.shuffled_crowded_slot", "the slot lesson 1's shuffled ramp rows read most", lambda: result("ramp").shuffled_crowded_column),
        Figure("ramp.shuffled_crowded_share", "the mean weight on it", lambda: result("ramp").shuffled_crowded_share),
        Figure("alibi.heads12", "the head count of the slope table that is not a power of two", lambda: ex.ALIBI_ODD_HEADS),
        Figure("alibi.slopes12", "ALiBi slopes for 12 heads by the official rule", lambda: _rows(result("alibi").slopes12, ".4g")),
        Figure("proof.scores_gap", "max|S(PX) − P S Pᵀ| on the seed-42 head", lambda: result("proof").scores_gap),
        Figure("proof.softmax_gap", "max|softmax(P S Pᵀ) − P softmax(S) Pᵀ|", lambda: result("proof").softmax_gap),
        Figure("proof.output_gap", "max|attn(PX) − P attn(X)| through the proof's matrices", lambda: result("proof").output_gap),
        Figure("proof.identity", "PᵀP is exactly the identity", lambda: result("proof").transpose_is_inverse),
        Figure("invariance.first_row_invariance_gap", "mean in row 0: max|f(PX) − f(X)|", lambda: result("invariance").first_row_invariance_gap),
        Figure("invariance.first_row_equivariance_gap", "mean in row 0: max|f(PX) − P f(X)|", lambda: result("invariance").first_row_equivariance_gap),
        Figure("invariance.every_row_invariance_gap", "mean in every row: max|f(PX) − f(X)|", lambda: result("invariance").every_row_invariance_gap),
        Figure("invariance.every_row_equivariance_gap", "mean in every row: max|f(PX) − P f(X)|", lambda: result("invariance").every_row_equivariance_gap),
        Figure("invariance.attention_invariance_gap", "the seed-42 head: max|attn(PX) − attn(X)|", lambda: result("invariance").attention_invariance_gap),
        Figure("cross.offset", "the offset of the cross-term placements", lambda: ex.CROSS_OFFSET),
        Figure("cross.pe_product", "p_i · p_(i+3) for the sinusoidal encoding at width 8", lambda: result("cross-terms").pe_product[0]),
        Figure("cross.content_content", "x W_Q W_Kᵀ x for the query and key tokens", lambda: result("cross-terms").content_content),
        Figure("cross.rope_score", "RoPE's score for the same tokens, at every placement", lambda: result("cross-terms").rope_scores[0]),
        Figure("cross.rope_spread", "max − min of RoPE's scores over the placements", lambda: result("cross-terms").rope_spread),
        *_cross_figures(),
        Figure("stack.layers", "blocks in the stack", lambda: result("stack").layers),
        Figure("stack.heads", "heads per block", lambda: result("stack").heads),
        Figure("stack.gap", "max|stack(PX) − P stack(X)| without a mask", lambda: result("stack").gap),
        Figure("stack.causal_gap", "the same with a causal mask", lambda: result("stack").causal_gap),
        *_cure_figures(),
    ]
}


@cache
def _value(name: str) -> Any:
    return FIGURES[name].compute()


def figure(name: str) -> Figure:
    """The figure called ``name``; KeyError names the unknown figure."""
    try:
        return FIGURES[name]
    except KeyError:
        raise KeyError(f"unknown figure {name!r}") from None


def format_figure(name: str, spec: str = "") -> str:
    """The figure's value formatted with a Python format spec (``.2f``, ``.1e``, empty for str())."""
    value = figure(name).value
    if isinstance(value, np.ndarray):
        return np.array2string(value, precision=3)
    if spec:
        return format(value, spec)
    return str(value)
