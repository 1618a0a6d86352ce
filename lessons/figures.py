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

from attnpos.core import experiments as ex
from attnpos.core.position import alibi_slopes, slot_ramp
from attnpos.core.words import label_tokens


@dataclass(frozen=True)
class Figure:
    """One quotable figure: its value, what it means, and for matrices the row/column labels."""

    name: str
    meaning: str
    compute: Callable[[], Any]
    labels: Callable[[], list[str]] | None = None  # for (T, T) matrices shown as grids
    tokens: Callable[[], list[int]] | None = None  # a reordered grid: which of the first order's tokens each row holds

    @property
    def value(self) -> Any:
        return _value(self.name)

    @property
    def is_matrix(self) -> bool:
        return isinstance(self.value, np.ndarray) and self.value.ndim == 2


@cache
def result(key: str) -> Any:
    """The result of the experiment ``key`` of ``core.experiments.EXPERIMENTS`` (their one list), computed once per process."""
    return ex.EXPERIMENTS[key][1]()


family = cache(ex.family_experiment)  # one family of position signals: the experiment "families" runs it for each


def _sentence_labels() -> list[str]:
    return label_tokens(list(result("sentence").tokens))


def _edited_labels() -> list[str]:
    return label_tokens(list(result("sentence").edited_tokens))


def _order_b_labels() -> list[str]:
    return label_tokens(list(result("sentence").order_b))


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
        Figure("rope.relative_error", "max|⟨R_m q, R_n k⟩ − ⟨q, R_(n−m) k⟩|", lambda: result("rope").relative_error),
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
