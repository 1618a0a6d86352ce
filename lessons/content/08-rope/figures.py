"""Lesson 8's experiment and figures: RoPE in full."""

from __future__ import annotations

from functools import cache

from attnpos.core.rotary import GPTJ_HEAD, GPTJ_ROTARY, SHIFTED_START, rope_lesson_experiment, rope_precision_experiment, rope_sentence_experiment
from attnpos.lessons.course.figures import Experiment, Figure, result, sentence_labels


def rotary():
    return result("rope-lesson")


def precision():
    return result("rope-precision")


rotary_sentence = cache(rope_sentence_experiment)  # the sentence grids, not an experiment of `attnpos demos`


def _listed(numbers: tuple[int, ...]) -> str:
    """1, 2, 3 and 4, with thousands separated."""
    return ", ".join(f"{n:,}" for n in numbers[:-1]) + f" and {numbers[-1]:,}"


EXPERIMENTS = (
    Experiment("rope-lesson", "RoPE in full: the relative property at huge positions, layouts, frequencies", rope_lesson_experiment),
    Experiment("rope-precision", "The relative property with the angles in float32 and bfloat16", rope_precision_experiment),
)

FIGURES = (
    Figure("rotary.offset", "the offset of the huge-position demo", lambda: rotary().offset),
    Figure("rotary.starts", "the query positions of that demo", lambda: _listed(rotary().starts)),
    Figure("rotary.score", "the score at every one of them", lambda: rotary().scores[0]),
    Figure("rotary.spread", "the largest difference between those scores", lambda: rotary().score_spread),
    Figure(
        "precision.float32_123456", "float32 angles: the score's move at position 123,456", lambda: abs(precision().scores["float32"][3] - precision().exact)
    ),
    Figure(
        "precision.float32_million", "float32 angles: the score's move at position 1,000,000", lambda: abs(precision().scores["float32"][4] - precision().exact)
    ),
    Figure("precision.bf16_5000", "bfloat16 angles: the offset-7 score at position 5,000", lambda: precision().scores["bfloat16"][2]),
    Figure("precision.bf16_step", "the gap between neighbouring bfloat16 numbers near 5,000", lambda: precision().bfloat16_step),
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
    Figure("rotary.weights", "lesson 3's sentence through a half-split RoPE head", lambda: rotary_sentence().weights, sentence_labels),
    Figure("rotary.shifted_weights", "the same, every position 1,000 on", lambda: rotary_sentence().shifted_weights, sentence_labels),
)
