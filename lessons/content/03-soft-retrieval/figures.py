"""Lesson 3's experiment and figures: "the cat sat on the mat" as soft retrieval, relisted and pooled."""

from __future__ import annotations

import numpy as np

from attnpos.core import experiments as ex
from attnpos.core.words import label_tokens
from attnpos.lessons.course.figures import CHANGED_ROW, Experiment, Figure, order_b_labels, order_b_perm, result, rows, sentence_labels


def _edited_labels() -> list[str]:
    return label_tokens(list(result("sentence").edited_tokens))


def _order_b_weights() -> np.ndarray:
    perm = np.array(ex.ORDER_B_PERM)
    return result("sentence").weights[np.ix_(perm, perm)]


def _changed_rows(threshold: float = CHANGED_ROW) -> str:
    labels = sentence_labels()
    return ", ".join(labels[i] for i in np.flatnonzero(result("sentence").row_change > threshold))


def _steady_rows(threshold: float = CHANGED_ROW) -> str:
    labels = sentence_labels()
    return ", ".join(labels[i] for i in np.flatnonzero(result("sentence").row_change <= threshold))


EXPERIMENTS = (Experiment("sentence", '"the cat sat on the mat" as soft retrieval', ex.sentence_experiment),)

FIGURES = (
    Figure("sentence.tokens", "sentence A", lambda: " ".join(result("sentence").tokens)),
    Figure("sentence.order_b", "order B, a shuffle of A", lambda: " ".join(result("sentence").order_b)),
    Figure("sentence.edited", "sentence A with cat → dog", lambda: " ".join(result("sentence").edited_tokens)),
    Figure("sentence.weights", "attention weights of sentence A", lambda: result("sentence").weights, sentence_labels),
    Figure("sentence.edited_weights", "attention weights after cat → dog", lambda: result("sentence").edited_weights, _edited_labels),
    Figure("sentence.order_b_weights", "attention weights of order B", _order_b_weights, order_b_labels, order_b_perm),
    Figure("sentence.pos_weights", "order A with the per-slot ramp added", lambda: result("sentence").pos_weights, sentence_labels),
    Figure(
        "sentence.pos_order_b_weights",
        "order B with the per-slot ramp added",
        lambda: result("sentence").pos_order_b_weights,
        order_b_labels,
        order_b_perm,
    ),
    Figure(
        "sentence.flat_weights",
        "weights with the scores multiplied by 0: every row a blend",
        lambda: result("sentence").flat_weights,
        sentence_labels,
    ),
    Figure("sentence.row_change", "max|Δweight| of each row after cat → dog", lambda: rows(result("sentence").row_change)),
    Figure("sentence.changed_rows", "rows whose weights moved by more than 0.05", _changed_rows),
    Figure("sentence.steady_rows", "rows whose weights moved by at most 0.05", _steady_rows),
    Figure("sentence.most_changed", "the row the edit moved most", lambda: sentence_labels()[result("sentence").most_changed_row]),
    Figure("sentence.most_changed_by", "how far that row moved", lambda: float(result("sentence").row_change.max())),
    Figure("sentence.least_changed_by", "how far the steadiest row moved", lambda: float(result("sentence").row_change.min())),
    Figure("sentence.causal_first_row_change", "row 0's change under a causal mask", lambda: float(result("sentence").causal_row_change[0])),
    Figure("sentence.cat_self_weight", "the weight the cat row puts on itself", lambda: float(result("sentence").weights[1, 1])),
    Figure("sentence.row_sum_error", "max|Σ_j α_ij − 1| over the rows", lambda: result("sentence").row_sums_max_error),
    Figure("sentence.relist_gap", "max|out_B − out_A re-listed in B's order|", lambda: result("sentence").relist_gap),
    Figure("sentence.pooled_gap", "max|Σ out_B − Σ out_A|", lambda: result("sentence").pooled_gap),
    Figure("sentence.pos_pooled_gap", "the pooled gap once the per-slot ramp is added", lambda: result("sentence").pos_pooled_gap),
    Figure("sentence.sharp_scale", "the score multiplier of the copy extreme", lambda: ex.SHARP_SCALE),
    Figure("sentence.sharp_max", "largest weight per row with sharpened scores", lambda: rows(result("sentence").sharp_max_weight, ".2f")),
    Figure("sentence.blend_weight", "every weight when the scores are flattened", lambda: float(result("sentence").flat_weights[0, 0])),
    Figure("sentence.sharp_ratio", "scale 50 against the usual 1/√8", lambda: result("sentence").sharp_ratio),
    Figure(
        "sentence.mat_weights",
        "the sharpened mat row's weights on the₀ and the₄",
        lambda: " and ".join(f"{w:.2f}" for w in result("sentence").mat_sharp_weights),
    ),
    Figure("sentence.mat_copy_gap", "max|y_mat − v_the| sharpened", lambda: result("sentence").mat_copy_gap),
    Figure("sentence.last_slot_gap", "the last slot's output, order B against order A, no position", lambda: result("sentence").last_slot_gap),
)
