"""Lesson 4's experiments and figures: the permutation-matrix check and each family of fixes tried live."""

from __future__ import annotations

from functools import cache

from attnpos.core import experiments as ex
from attnpos.core.position import alibi_slopes
from attnpos.lessons.course.figures import Experiment, Figure, order_b_labels, order_b_perm, result, rows, sentence_labels

family = cache(ex.family_experiment)  # one family of position signals: the experiment "families" runs it for each


def _family_figures(signal: str) -> list[Figure]:
    """Gap, twins and both grids of one family on lesson 3's orders A and B."""
    return [
        Figure(f"family.{signal}.gap", f"shuffle gap of order B against A with {signal}", lambda: family(signal).gap),
        Figure(
            f"family.{signal}.twins",
            f"whether the rows of the₀ and the₄ are identical with {signal}",
            lambda: "identical" if family(signal).twins_identical else "different",
        ),
        Figure(f"family.{signal}.weights", f"order A's weights with {signal}", lambda: family(signal).weights, sentence_labels),
        Figure(
            f"family.{signal}.order_b_weights",
            f"order B's weights with {signal}",
            lambda: family(signal).order_b_weights,
            order_b_labels,
            order_b_perm,
        ),
    ]


EXPERIMENTS = (
    Experiment("matrix-form", "The check with a 0/1 permutation matrix, Q = K = V = X", ex.matrix_form_experiment),
    Experiment("alibi", "ALiBi as published: causal, a soft window; the symmetric form cannot see a reversal", ex.alibi_experiment),
    Experiment("rope", "RoPE: the score depends on q, k and the offset only; half-split and interleaved pairs", ex.rope_experiment),
    Experiment("families", "Each family on lesson 3's two orders: shuffle gap and the twin rows", ex.families_experiment),
)

FIGURES = (
    Figure("matrix.tokens", "tokens in the permutation-matrix check", lambda: result("matrix-form").tokens),
    Figure("matrix.width", "width d in the permutation-matrix check", lambda: result("matrix-form").width),
    Figure("matrix.P", "the 0/1 permutation matrix", lambda: result("matrix-form").P),
    Figure("matrix.equal", "attn(PX) equals P·attn(X)", lambda: result("matrix-form").equal),
    Figure("matrix.max_diff", "max|attn(PX) − P·attn(X)|", lambda: result("matrix-form").max_diff),
    Figure("alibi.slopes8", "ALiBi slopes for 8 heads, as powers of 1/2", lambda: ", ".join(f"1/{round(1 / s)}" for s in alibi_slopes(8))),
    Figure("alibi.fade", "the factor by which a key counts as faded", lambda: result("alibi").fade),
    Figure("alibi.window_steep", "slots back at which slope 1/2 fades a key 100×", lambda: float(result("alibi").windows[0])),
    Figure("alibi.window_gentle", "slots back at which slope 1/256 fades a key 100×", lambda: float(result("alibi").windows[-1])),
    Figure("alibi.reversal_gap", "seed-42 reversal gap, published ALiBi head 0", lambda: result("alibi").reversal_gap),
    Figure("alibi.mask_only_reversal_gap", "the same reversal, causal mask alone", lambda: result("alibi").mask_only_reversal_gap),
    Figure("alibi.symmetric_reversal_gap", "the same reversal, −m·|i − j| without a mask", lambda: result("alibi").symmetric_reversal_gap),
    Figure("rope.relative_error", "max|⟨R_i q, R_j k⟩ − ⟨q, R_(j−i) k⟩|", lambda: result("rope").relative_error),
    Figure("rope.half_error", "half-split RoPE against interleaved RoPE on permuted channels", lambda: result("rope").half_as_interleaved_error),
    Figure("rope.mismatch", "one q, k scored with the two pairings: the difference", lambda: result("rope").mismatched_score_gap),
    *[f for signal in ex.FAMILY_SIGNALS for f in _family_figures(signal)],
    Figure("alibi.heads12", "the head count of the slope table that is not a power of two", lambda: ex.ALIBI_ODD_HEADS),
    Figure("alibi.slopes12", "ALiBi slopes for 12 heads by the official rule", lambda: rows(result("alibi").slopes12, ".4g")),
)
