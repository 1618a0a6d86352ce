"""Lesson 9's experiment and figures: ALiBi in full."""

from __future__ import annotations

from attnpos.core.linear_biases import alibi_lesson_experiment, bias_only_weights, unmasked_shortcut_weights
from attnpos.lessons.course.figures import Experiment, Figure, result, rows, token_labels


def biases():
    return result("alibi-lesson")


EXPERIMENTS = (Experiment("alibi-lesson", "ALiBi in full: slopes for any head count, the +m·j shortcut, the soft window", alibi_lesson_experiment),)

FIGURES = (
    Figure("biases.slopes12_first", "the first 8 of 12 heads' slopes", lambda: " … ".join(f"1/{round(1 / s)}" for s in biases().slopes12[[0, 7]])),
    Figure("biases.slopes12_extra", "the last 4 of 12 heads' slopes", lambda: rows(biases().slopes12[8:], ".3f")),
    Figure("biases.naive12", "2^(−8h/12) for h = 1 … 12", lambda: rows(biases().naive12, ".3g")),
    Figure("biases.length", "the query's position in the mass-beyond figures", lambda: biases().mass_length),
    Figure("biases.near", "the nearer window", lambda: biases().near),
    Figure("biases.far", "the wider window", lambda: biases().far),
    Figure("biases.near_steep", "weight beyond the near window, slope 1/2", lambda: float(biases().mass_beyond_near[0])),
    Figure("biases.near_gentle", "weight beyond the near window, slope 1/256", lambda: float(biases().mass_beyond_near[-1])),
    Figure("biases.far_gentle", "weight beyond the wide window, slope 1/256", lambda: float(biases().mass_beyond_far[-1])),
    Figure("biases.near_all", "weight beyond the near window, heads 0–7", lambda: rows(biases().mass_beyond_near, ".1e")),
    Figure("biases.shortcut_gap", "weights with +m·j and the mask against −m(i − j)", lambda: biases().shortcut_masked_gap),
    Figure("biases.unmasked_gap", "the same with the shortcut's mask forgotten", lambda: biases().shortcut_unmasked_gap),
    Figure("biases.steep_weights", "head 0's weights from the bias alone", lambda: bias_only_weights(0), token_labels(8)),
    Figure("biases.gentle_weights", "head 7's weights from the bias alone", lambda: bias_only_weights(7), token_labels(8)),
    Figure("biases.unmasked_weights", "head 0 with +m·j and no mask", lambda: unmasked_shortcut_weights(0), token_labels(8)),
)
