"""Mistakes only a rerun shows are named as the rerun's (in seven exercises), and copies are told apart from computations.

Beyond mistakes/ (where each file's diagnosis is checked): here the cause
and the words of the message, which must name what the learner did and
say when a figure is the rerun's, not theirs (issue 35's brief-only findings).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnpos.lessons.checker import Limits, substitutes
from attnpos.lessons.course.loader import load_course

COURSE = load_course()
LIMITS = Limits(timeout_s=5.0, memory_mb=768)
PM_SOLUTION = COURSE.exercises["permutation-matrix"].solution
TF_SOLUTION = COURSE.exercises["three-families"].solution


def _replaced(source: str, old: str, new: str) -> str:
    assert old in source, old
    return source.replace(old, new)


# (exercise, source, cause, words the message must hold)
CASES = [
    ("t5-buckets", "mistakes/mismatch__whole-ratio-in-the-log.py", "whole-ratio-rerun", ["max_distance // n_e", "max_distance = 90", "Use `/`"]),
    ("t5-buckets", "mistakes/mismatch__max-distance-typed-in-the-log.py", "buckets-rerun", ["right for your own values", "checker reran", "max_distance = 90"]),
    ("t5-buckets", "mistakes/mismatch__bias-size-typed.py", "shape-rerun", ["does not follow T", "T = 15", "np.arange(T)"]),
    ("t5-buckets", "mistakes/mismatch__borrows-relative-position-bucket.py", "borrowed", ["from attnpos"]),
    ("t5-buckets", "mistakes/rerun-failed__buckets-per-direction-typed.py", "", ["num_buckets // 2"]),
    ("t5-buckets", "mistakes/rerun-failed__num-buckets-set-again.py", "set-again", ["sets `num_buckets` again"]),
    ("t5-buckets", "mistakes/mismatch__log-in-float16.py", "precision-rerun", ["computed in float16", "num_buckets = 128", "one bucket off", "float32"]),
    ("t5-buckets", "mistakes/rerun-failed__lookup-table-to-200.py", "typed-size", ["the starter's 201 for distances 0 to 200", "IndexError"]),
    ("t5-buckets", "mistakes/mismatch__buckets-of-a-typed-range.py", "offsets-typed", ["does not follow `offsets`", "(401,)", "(3401,)"]),
    ("permutation-matrix", "mistakes/mismatch__rhs-and-pooled-copied.py", "copied-rhs", ["`lhs` again", "no shuffle"]),
    ("permutation-matrix", "mistakes/mismatch__out-perm-from-out.py", "copied-out_perm", ["`P @ out`", "afresh on `P @ X`"]),
    ("permutation-matrix", "mistakes/mismatch__pooled-perm-copied.py", "copied-pooled_perm", ["`pooled` again"]),
    (
        "permutation-matrix",
        _replaced(PM_SOLUTION, "lhs = softmax(P @ S @ P.T)\nrhs = P @ softmax(S) @ P.T", "rhs = P @ softmax(S) @ P.T\nlhs = rhs.copy()"),
        "copied-lhs",
        ["`rhs` again"],
    ),
    ("permutation-matrix", _replaced(PM_SOLUTION, "pooled = out.sum(axis=0)", "pooled = out_perm.sum(axis=0)"), "copied-pooled", ["`pooled_perm` again"]),
    ("permutation-matrix", "mistakes/mismatch__scaled-by-width-of-x.py", "scaled-by-other-width-rerun", ["checker's rerun", "√4", "6 wide", "both 4 wide"]),
    ("permutation-matrix", "mistakes/mismatch__sums-five-tokens.py", "array-rerun", ["right for your own arrays but not for the rerun's"]),
    ("permutation-matrix", "mistakes/mismatch__p-written-out.py", "typed-P", ["typed in", "np.eye(T)[perm]"]),
    ("permutation-matrix", "mistakes/rerun-failed__sizes-typed.py", "", ["T = X.shape[0]", "hs = Wq.shape[1]"]),
    ("permutation-matrix", "mistakes/rerun-failed__inverse-by-linalg.py", "no-shuffle", ["Singular matrix", "`P.T`"]),
    (
        "alibi",
        "mistakes/mismatch__extra-slopes-from-a-16-head-list.py",
        "uneven-rerun",
        ["not for 6", "0.7071, 0.3536", "0.5, 0.125", "get_slopes(8)", "every other slope of 16 heads"],
    ),
    ("alibi", "mistakes/heads-from-zero__power-of-two-branch-only.py", "rerun", ["own 12 heads", "64 heads, a power of two", "2^(−8/64)"]),
    ("learned-positions", "mistakes/wraps-around__one-token-past-the-table.py", "one-past", ["answered 7 tokens", "6 rows", "`T > max_len + 1`"]),
    ("learned-positions", "mistakes/length-check__message-with-the-starters-numbers.py", "typed-numbers", ["quotes 8 and 10", "a table of 6 rows"]),
    ("learned-positions", "mistakes/length-check__checks-the-global-max-len.py", "table-not-read", ["the global `max_len`", "NumPy refused them"]),
    ("three-families", "mistakes/mismatch__gap-none-typed-as-rounding.py", "gap-none-unmeasured", ["made no shuffle", "your gap_none was 0"]),
    ("three-families", "mistakes/bad-type__tells-as-zeros-and-ones.py", "not-bool", ["the numbers [0, 1, 1, 1]", "True or False"]),
    ("three-families", _replaced(TF_SOLUTION, "tells = gaps > 1e-6", "tells = gaps > 0.2"), "line-too-high", ["far above rounding", "gaps > 1e-6"]),
    ("sinusoidal-table", "mistakes/mismatch__signed-maximum.py", "no-abs", ["0.00789", "0.00837", "no |·|", "a negative difference"]),
    ("sinusoidal-table", "mistakes/mismatch__largest-row-norm.py", "row-norm", ["Euclidean norm", "entry by entry"]),
    ("rope", "mistakes/mismatch__positions-counted-from-the-first.py", "positions-ignored", ["`positions - positions[0]`", "by its own position"]),
    (
        "rope",
        "mistakes/indistinct__float16-angles.py",
        "precision",
        ["float64 computed in float16", "1,000 slots on", "angles computed in float16 (a position times its frequency) are off by up to a quarter"],
    ),
    ("t5-buckets", "mistakes/mismatch__decoder-mask-on-keys-behind.py", "bias", ["wrong triangle", "(j < i)"]),
    ("t5-buckets", "mistakes/mismatch__decoder-bias-from-encoder-buckets.py", "bias", ["off by up to 2.77", "causal mask, which is allowed"]),
    ("permutation-matrix", "mistakes/unfinished__no-print.py", "no-print", ["prints nothing", "lhs against rhs", "pooled_perm against pooled"]),
    ("permutation-matrix", "mistakes/unfinished__prints-self-comparison.py", "self-comparison", ["`np.allclose(lhs, lhs)`", "only say True"]),
    ("permutation-matrix", "mistakes/unfinished__prints-two-checks.py", "not-compared", ["no check of pooled_perm against pooled."]),
    ("permutation-matrix", "mistakes/inverse-perm__lhs-shuffled-wrong-way-round.py", "wrong-way-round", ["softmax(Pᵀ S P)", "Your P is right"]),
]


def _source(exercise_id: str, source: str) -> str:
    exercise = COURSE.exercises[exercise_id]
    if source.startswith("mistakes/"):
        return exercise.mistakes[source.removeprefix("mistakes/")]
    return source


@pytest.mark.parametrize("exercise_id, source, cause, words", CASES, ids=[f"{c[0]}-{c[2] or 'rerun-failed'}-{i}" for i, c in enumerate(CASES)])
def test_the_message_names_what_the_learner_did(checker, exercise_id, source, cause, words):
    verdict = checker.check(COURSE.exercises[exercise_id], _source(exercise_id, source), limits=LIMITS)
    assert not verdict.passed and verdict.details.get("cause", "") == cause, (verdict.diagnosis, verdict.details, verdict.message)
    for word in words:
        assert word in verdict.message, (word, verdict.message)
    assert "your own arrays give" not in verdict.message  # a rerun's figure is never passed off as the learner's


def test_a_true_false_matrix_and_x_set_again_after_use_pass(checker):
    """Right answers the brief-only writer found failing (F17, F23), kept in right/ too: here also an X set again in a loop-free style."""
    exercise = COURSE.exercises["permutation-matrix"]
    rebound = _replaced(PM_SOLUTION, "_, out_perm = head(P @ X)", "X = P @ X                                  # the shuffled tokens\n_, out_perm = head(X)")
    for source in (rebound, exercise.right["boolean-matrix.py"]):
        verdict = checker.check(exercise, source, limits=LIMITS)
        assert verdict.passed, verdict.message


def test_an_assert_of_the_identity_stops_the_no_shuffle_rerun_before_or_after_the_last_name(checker):
    """The rerun breaks the identity on purpose, so an assert of it fails that run wherever it stands (issue 35: after the last name it once passed)."""
    exercise = COURSE.exercises["permutation-matrix"]
    check = "assert np.allclose(lhs, rhs)\n"
    early = _replaced(PM_SOLUTION, "rhs = P @ softmax(S) @ P.T\n", "rhs = P @ softmax(S) @ P.T\n" + check)
    verdict = checker.check(exercise, early, limits=LIMITS)
    assert verdict.diagnosis == "rerun-failed" and verdict.details.get("cause") == "assert", verdict.message
    assert "no shuffle" in verdict.message and "print your checks" in verdict.message
    late = checker.check(exercise, PM_SOLUTION + check, limits=LIMITS)
    assert late.diagnosis == "rerun-failed" and late.details.get("cause") == "assert", late.message
    assert "after every name was set" in late.message and "no shuffle" in late.message


def test_the_reruns_change_what_a_typed_answer_would_keep():
    """t5: no exact range divides the rerun's max_distance, and T changes; permutation-matrix: more tokens, a wider head, and a perm that is no shuffle."""
    for learner in (128, 90, 64):
        distance = substitutes.other_max_distance(learner)
        assert distance != learner and all(distance % exact for exact in (4, 8, 16))
    assert substitutes.other_token_count(12) == 15 and substitutes.other_token_count(256) == 253
    X = np.arange(20.0).reshape(5, 4)
    assert substitutes.more_tokens(X).shape == (9, 4) and substitutes.more_tokens(np.zeros((64, 4))).shape == (60, 4)
    # the head two wider, its values three: a scale read from Wv's width, from T or from T − 1 shows (round 10)
    assert substitutes.wider_query(X).shape == (5, 6) and substitutes.wider_value(X).shape == (5, 7)
    np.testing.assert_array_equal(substitutes.more_tokens(X), substitutes.more_tokens(X[[2, 0, 4, 1, 3]]))  # X set to its shuffle: the same tokens
    assert substitutes.wider_query(np.ones((4, 4))).shape == (4, 6)
    assert not np.array_equal(substitutes.wider_query(np.ones((4, 4))), substitutes.wider_key(np.ones((4, 4))))
    np.testing.assert_array_equal(substitutes.longer_shift(np.array([2, 0, 4, 1, 3])), [8, 0, 1, 2, 3, 4, 5, 6, 7])
    np.testing.assert_array_equal(substitutes.no_shuffle(np.array([2, 0, 4, 1, 3])), [2, 0, 4, 2, 0])


def test_t5s_second_rerun_parts_a_float16_log_from_float32_and_float64_at_each_of_its_sizes():
    """At every pairing of its bucket counts and distances: a float16 log moves some offsets in both directions, float32
    as PyTorch's T5 computes it moves none, and every offset past the exact buckets has its log ratio off a bucket's edge."""
    from attnpos.core import relative_position_bucket
    from attnpos.lessons.checker.contracts.t5_buckets import LOW_PRECISION_EDGE, _edge_gap, buckets

    offsets = substitutes.far_offsets(np.arange(-200, 201))
    assert offsets.min() == -1700 and offsets.max() == 1700 and substitutes.far_offsets(offsets).max() == 1800
    for N in substitutes.PRECISION_BUCKETS:
        for D in substitutes.PRECISION_DISTANCES:
            assert D < offsets.max() and all(D % exact for exact in (N // 4, N // 2))
            for bidirectional in (True, False):
                right = relative_position_bucket(offsets, bidirectional, N, D)
                assert np.any(buckets(offsets, bidirectional, N, D, log_in=np.float16) != right), (N, D, bidirectional)
                n = N // 2 if bidirectional else N
                distance = np.abs(offsets) if bidirectional else np.maximum(-offsets, 0)
                ratio = np.maximum(distance, n // 2).astype(np.float32) / (n // 2)  # PyTorch's T5: float32 over a Python float
                large = np.minimum(n // 2 + (np.log(ratio) / math.log(D / (n // 2)) * (n - n // 2)).astype(np.int64), n - 1)
                float32 = (offsets > 0) * n * bidirectional + np.where(distance < n // 2, distance, large)
                np.testing.assert_array_equal(float32, right)
                assert 128 * np.finfo(np.float32).eps / 2 < np.min(_edge_gap(offsets, bidirectional, N, D)) < LOW_PRECISION_EDGE


def test_alibis_second_rerun_takes_the_extra_slopes_from_another_doubled_count():
    """Extra slopes from a list of a fixed size fit one doubled count: the second rerun's differs from the learner's and the first rerun's."""

    def below(heads: int) -> int:
        return 2 ** int(np.floor(np.log2(heads)))

    for heads in range(1, 65):
        uneven = substitutes.uneven_head_count(heads)
        assert uneven & (uneven - 1), (heads, uneven)  # no power of two: the branch that borrows from twice the power below
        for other in (heads, substitutes.other_head_count(heads)):
            if other & (other - 1):
                assert below(uneven) != below(other), (heads, other, uneven)
    # under 8 for the starter's 12 (brief-only round 14): the power-of-two formula kept for small counts shows; a power
    # below capped at 16 or a table typed for some counts meets MANY_HEADS, past 1024
    assert substitutes.uneven_head_count(12) < 8 and substitutes.MANY_HEADS > 3072 and substitutes.MANY_HEADS & (substitutes.MANY_HEADS - 1)
    assert substitutes.far_longer(7) > 128 and substitutes.far_longer(130) != 130
