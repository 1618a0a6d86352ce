"""Lesson 11's experiments and figures: Shaw's clipping, Transformer-XL's terms, T5's buckets, KERPLE, FIRE, and the relative heads past L."""

from __future__ import annotations

from attnpos.core.relative import relative_attend_back_experiment, relative_lesson_experiment
from attnpos.lessons.course.figures import Experiment, Figure, result, rows


def rel():
    return result("relative-lesson")


def back():
    return result("relative-back")


def accuracy(index: int) -> str:
    return f"{back().train[index]:.2f} / {back().test[index]:.2f}"


EXPERIMENTS = (
    Experiment("relative-lesson", "The learned relative family: T5's buckets, Shaw's clip, Transformer-XL's terms, KERPLE, FIRE", relative_lesson_experiment),
    Experiment("relative-back", "Attend 3 back with T5 buckets, Shaw, KERPLE and FIRE: trained on t < 32, tested to 128", relative_attend_back_experiment),
)

FIGURES = (
    Figure("t5.behind", "bidirectional (32, 128) buckets of keys 0 … 10 slots behind", lambda: rows(rel().buckets_behind, ".0f")),
    Figure("t5.ahead", "the same, keys 0 … 10 slots ahead", lambda: rows(rel().buckets_ahead, ".0f")),
    Figure("t5.causal_ahead", "causal buckets of keys 0 … 10 slots ahead", lambda: rows(rel().causal_ahead, ".0f")),
    Figure("t5.last_first", "the nearest distance behind in the last bidirectional bucket", lambda: rel().last_bidirectional[0]),
    Figure("t5.last_count", "distances 1 … 4096 behind sharing it", lambda: rel().last_bidirectional[1]),
    Figure("t5.causal_last_first", "the nearest distance in the last causal bucket", lambda: rel().last_causal[0]),
    Figure("t5.distinct", "distinct causal buckets among distances 0 … 127", lambda: rel().distinct_within),
    Figure("t5.small", "bidirectional buckets of every pair, 16 buckets, max_distance 32", lambda: rel().small_buckets),
    Figure("t5.small_causal", "the same, causal", lambda: rel().small_causal),
    Figure("shaw.index", "the row of the clipped table each pair reads, clip 3", lambda: rel().shaw_index),
    Figure("txl.position_spread", "largest spread of term (d) along one diagonal", lambda: rel().txl_position_spread),
    Figure("txl.content_spread", "the same for term (a)", lambda: rel().txl_content_spread),
    Figure("kerple.log", "−log(1 + Δ) at Δ = 1, 10, 100, 1000", lambda: rows(rel().kerple_log, ".2f")),
    Figure("kerple.alibi", "−Δ/2 at the same distances", lambda: rows(rel().alibi_half, ".1f")),
    Figure("kerple.alibi_gap", "max|KERPLE power, exponent 1, ALiBi's slopes − ALiBi's symmetric bias|", lambda: rel().kerple_alibi_gap),
    Figure("fire.short", "FIRE's input for 3 back at query 31", lambda: rel().fire_short),
    Figure("fire.long", "the same at query 127", lambda: rel().fire_long),
    Figure("relback.t5", "T5 buckets head: train / test accuracy", lambda: accuracy(0)),
    Figure("relback.shaw", "Shaw head: train / test accuracy", lambda: accuracy(1)),
    Figure("relback.kerple", "KERPLE head: train / test accuracy", lambda: accuracy(2)),
    Figure("relback.fire", "FIRE without threshold: train / test accuracy", lambda: accuracy(3)),
    Figure("relback.fire_threshold", "FIRE with threshold 32: train / test accuracy", lambda: accuracy(4)),
)
