"""Lesson 1's experiments and figures: the shuffle, identical tokens, a per-slot signal, the causal mask."""

from __future__ import annotations

from typing import Callable

from attnpos.core import experiments as ex
from attnpos.core.position import slot_ramp
from attnpos.lessons.course.figures import Experiment, Figure, result, rows, sentence_labels, token_labels


def _shuffled_labels() -> list[str]:
    return [f"x{i}" for i in ex.PERM]


def _perm() -> list[int]:
    return [int(i) for i in ex.PERM]


def _cross_figures() -> list[Figure]:
    """The four terms of an added signal's score at each placement of the query and key tokens."""
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


EXPERIMENTS = (
    Experiment("shuffle", "Shuffle the tokens, no position: the gap is rounding noise", ex.shuffle_experiment),
    Experiment("twins", "The same token at slots 0 and 4: identical output rows", ex.twin_experiment),
    Experiment("offset", "Add a per-slot offset before attention: the gap opens", ex.offset_experiment),
    Experiment("exercises", "The first lesson's exercises, solved", ex.exercise_figures),
    Experiment("init-scale", "Why the projections are multiplied by 0.5: unscaled, rows saturate", ex.init_scale_experiment),
    Experiment("causal", "A causal mask and no position: equivariance breaks, position can be read back", ex.causal_experiment),
    Experiment("ramp", "What the per-slot ramp lacks: a bound, and products that depend on the offset alone; which end it favours", ex.ramp_experiment),
    Experiment("cross-terms", "An added signal's score split into content and position terms: not a function of the offset", ex.cross_term_experiment),
)

FIGURES = (
    Figure("setup.seed", "the seed of the first lesson's experiments", lambda: ex.SEED),
    Figure("setup.shape", "(B, T, C) of the first lesson's X", lambda: (ex.B, ex.T, ex.C)),
    Figure("setup.init_scale", "the factor the projections are scaled by", lambda: ex.INIT_SCALE),
    Figure("setup.perm", "the shuffle of the first lesson", lambda: list(ex.PERM)),
    Figure("shuffle.gap", "max|attn(X[:, perm]) − attn(X)[:, perm]| without position", lambda: result("shuffle").gap),
    Figure("shuffle.naive_gap", "the shuffled run against the original, not reordered", lambda: result("shuffle").naive_gap),
    Figure("shuffle.weights", "weights of the seed-42 tokens, no position", lambda: result("shuffle").weights, token_labels(ex.T)),
    Figure("shuffle.shuffled_weights", "weights of the shuffled tokens, no position", lambda: result("shuffle").shuffled_weights, _shuffled_labels, _perm),
    Figure("offset.weights", "weights with the per-slot ramp added", lambda: result("offset").weights, token_labels(ex.T)),
    Figure("offset.shuffled_weights", "the shuffled tokens with the ramp added", lambda: result("offset").shuffled_weights, _shuffled_labels, _perm),
    Figure("twin.slots", "the two slots holding the same token", lambda: list(result("twins").slots)),
    Figure("twin.rows_equal", "whether output rows 0 and 4 are equal without position", lambda: result("twins").rows_equal),
    Figure("twin.max_diff", "max|out[0] − out[4]| without position", lambda: result("twins").max_diff),
    Figure("offset.step", "the per-slot ramp is step·(t+1)", lambda: result("offset").step),
    Figure("offset.gap", "the shuffle gap with the per-slot ramp added before attention", lambda: result("offset").gap),
    Figure("offset.constant", "the value of the constant offset", lambda: result("offset").constant_value),
    Figure("offset.constant_gap", "the shuffle gap with a constant offset", lambda: result("offset").constant_gap),
    Figure("offset.ramp", "the per-slot ramp for T = 6, one value per slot", lambda: [round(float(v), 2) for v in slot_ramp(ex.T, 1, ex.RAMP_STEP)[:, 0]]),
    Figure("solved.naive_gap", "exercise 1: the comparison without reordering", lambda: result("exercises").naive_gap),
    Figure("solved.constant_gap", "exercise 2: the gap with a constant offset", lambda: result("exercises").constant_gap),
    Figure("solved.twin_rows_equal", "exercise 3: rows 0 and 4 equal once position is added", lambda: result("exercises").twin_rows_equal_with_pos),
    Figure("solved.twin_diff", "exercise 3: max|out[0] − out[4]| with position", lambda: result("exercises").twin_diff_with_pos),
    Figure("solved.late_diff", "position added after attention: out[4] − out[0] in channel 0", lambda: float(result("exercises").after_attention_diff[0])),
    Figure("solved.late_matches", "that difference is exactly pos[4] − pos[0]", lambda: result("exercises").after_attention_matches_offset),
    Figure("init.top_weight", "mean largest weight per row, projections × 0.5", lambda: result("init-scale").mean_top_weight),
    Figure("init.top_weight_unscaled", "the same without the factor", lambda: result("init-scale").mean_top_weight_unscaled),
    Figure("shuffle.gap_ulps", "the shuffle gap in units in the last place", lambda: result("shuffle").gap_ulps),
    Figure("shuffle.weights_relabel_gap", "max|A(PX) − P·A(X)·Pᵀ|", lambda: result("shuffle").weights_relabel_gap),
    Figure("causal.gap", "the seed-42 shuffle gap with a causal mask, no position", lambda: result("causal").gap),
    Figure("causal.twin_diff", "max|out[0] − out[4]| for the twins with a causal mask", lambda: result("causal").twin_diff),
    Figure("causal.marker_share", "the first token's share of each slot, uniform causal weights", lambda: rows(result("causal").marker_share)),
    Figure("causal.weights", "seed-42 weights with a causal mask", lambda: result("causal").weights, token_labels(ex.T)),
    Figure("causal.shuffled_weights", "the shuffled tokens with a causal mask", lambda: result("causal").shuffled_weights, _shuffled_labels),
    Figure("ramp.token_norm", "mean norm of the seed-42 token vectors", lambda: result("ramp").token_norm),
    Figure("ramp.last_norm", "norm of the ramp at the last of six slots", lambda: float(result("ramp").ramp_norms[-1])),
    Figure("ramp.product_near", "ramp[1]·ramp[4]", lambda: result("ramp").ramp_product_near),
    Figure("ramp.product_far", "ramp[10]·ramp[13]", lambda: result("ramp").ramp_product_far),
    Figure("ramp.sin_product", "PE[1]·PE[4] = PE[10]·PE[13] for the sinusoidal encoding", lambda: result("ramp").sin_product_near),
    Figure("ramp.crowded_slot", "the slot lesson 1's ramp rows read most", lambda: token_labels(ex.T)()[result("ramp").crowded_column]),
    Figure("ramp.crowded_share", "the mean weight on it", lambda: result("ramp").crowded_share),
    Figure("ramp.sentence_crowded_slot", "the slot lesson 3's A + ramp rows read most", lambda: sentence_labels()[result("ramp").sentence_crowded_column]),
    Figure("ramp.sentence_crowded_share", "the mean weight on it", lambda: result("ramp").sentence_crowded_share),
    Figure("ramp.ones_form", "1ᵀ W_Q W_Kᵀ 1 of the seed-42 head", lambda: result("ramp").ones_form),
    Figure("ramp.sentence_ones_form", "1ᵀ W_Q W_Kᵀ 1 of lesson 3's seed-7 head", lambda: result("ramp").sentence_ones_form),
    Figure("ramp.end", "the end the ramp's own score term favours with the seed-42 head", lambda: result("ramp").favoured_end),
    Figure("ramp.sentence_end", "the end it favours with the seed-7 head", lambda: result("ramp").sentence_favoured_end),
    Figure("ramp.shuffled_crowded_slot", "the slot lesson 1's shuffled ramp rows read most", lambda: result("ramp").shuffled_crowded_column),
    Figure("ramp.shuffled_crowded_share", "the mean weight on it", lambda: result("ramp").shuffled_crowded_share),
    Figure("cross.offset", "the offset of the cross-term placements", lambda: ex.CROSS_OFFSET),
    Figure("cross.pe_product", "p_i · p_(i+3) for the sinusoidal encoding at width 8", lambda: result("cross-terms").pe_product[0]),
    Figure("cross.content_content", "x W_Q W_Kᵀ x for the query and key tokens", lambda: result("cross-terms").content_content),
    Figure("cross.rope_score", "RoPE's score for the same tokens, at every placement", lambda: result("cross-terms").rope_scores[0]),
    Figure("cross.rope_spread", "max − min of RoPE's scores over the placements", lambda: result("cross-terms").rope_spread),
    *_cross_figures(),
)
