"""alibi: slopes for any head count by the official rule, the causal bias, added before the softmax.

The slopes, the bias and the weights are each compared with what the
learner's own n_heads, T and scores give, and, when they differ, with each
misconception: heads counted from 0, the power-of-two formula used for any
count, the symmetric unmasked bias, the sign flipped, the mask forgotten
(with or without the +m·j shortcut, or kept out of the bias and put in the
weights), the bias added after the softmax (plain, renormalised, or through
a second softmax), the mask on the wrong triangle or too weak to hide. The
+m·j shortcut *with* the mask passes, as the brief says; any other constant
per row (−m·(i − j + 1), +5 on every visible key) gives the same weights
but is named, not passed. The reruns ask for another
head count on each branch of the rule (the second 6 heads, under 8, and 130 tokens, past a
capped distance and int8 positions), which typed slopes cannot follow, however many digits
they have, for other scores from 1000 up and far apart from head to head and row to row, with a later key far
above its row (which a mask weaker than the brief's −1e4 lets through), which the
weights must follow and a softmax must not overflow or underflow on, for 3584 heads (past a table for 1 … 64 or for powers up to 1024, a power below
capped, and too many for extra slopes taken from the first half of twice the power below),
and for one head of 600 tokens (past a window, a distance clipped or uint8 positions at 256
or 512).
"""

from __future__ import annotations

import math

import numpy as np

from attnpos.core import alibi_bias, alibi_slopes, softmax
from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_AND_SOFTMAX,
    Contract,
    Question,
    Rerun,
    Runs,
    judged_on_rerun,
    refuse_borrowing,
    worst_entry,
    zero_weight,
)
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.substitutes import FEW_TOKENS, LONG_LENGTH, MANY_HEADS, SCORE_AHEAD, SCORE_OFFSET, SCORE_PEAK, SCORE_STEP
from attnpos.lessons.checker.values import MAX_ELEMENTS, SAFETY, Values, count, describe, dtype_roundoff, reported_rounding, too_large
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text

NAMES = ("n_heads", "T", "scores", "slopes", "bias", "weights")
CHANGED = "another number of heads and two more tokens"
# The second rerun: a count that is no power of two, with another power below it than the learner's (substitutes.uneven_head_count).
UNEVEN = "a number of heads that is not a power of two and has another power of two below it than yours, and more than 128 tokens"
# The third rerun: the learner's own sizes, other scores from SCORE_OFFSET up, far apart from head to head and row to row
# and a later key SCORE_AHEAD above its row (substitutes.redrawn_large): weights that do not change with them were
# computed from scores of the script's own (drawn
# again from the starter's seed), not from `scores`; weights that come out NaN or inf there took np.exp without
# subtracting each row's largest (_unstable_softmax tells what they subtracted instead).
SCORES = (
    f"other scores of your own shape, from {SCORE_OFFSET:.0f} up: {SCORE_STEP:.0f} higher in odd-numbered heads and again in "
    f"odd-numbered query rows, {SCORE_PEAK:.0f} higher still on each head's last score, and {SCORE_AHEAD:.0f} higher on "
    "the last key of each head's first query row, a key that query must not see"
)
# The fourth rerun: more heads than a table typed for 1 … 64 or for powers up to 1024 holds, and so many above the power
# below that every other slope of only the first half of twice that power gives too few extra slopes
# (substitutes.many_head_count).
MANY = f"{MANY_HEADS} heads (more than 1024, and no power of two) and {FEW_TOKENS} tokens"
# The fifth rerun: past 512 tokens, where a window or a distance clipped at 256 or 512, or uint8 positions, show.
LONG = f"a single head and {LONG_LENGTH} tokens"
# The largest n_heads and T this exercise judges (an ALiBi answer of its own size, not the checker-wide ANSWER_MAX_*):
# the reruns' own.
ALIBI_MAX_HEADS, ALIBI_MAX_T = MANY_HEADS, LONG_LENGTH
# A masked entry of the hypotheses' bias figures: a finite stand-in for −inf, so figures can be compared. Whether an
# answer's own mask hides a key is not a number but what the softmax makes of it (common.zero_weight): a weight of exactly 0.
HIDDEN = -1e4


def _array(values: Values, name: str, shape: tuple[int, ...], H: int) -> np.ndarray:
    """The named array as float64, infinities allowed (a bias has −inf), in the shape given."""
    value = values[name]
    if value.dtype.kind not in "iuf":
        raise Mistake("bad-type", "not-numeric", name=name, got=describe(value))
    if value.shape != shape:
        wanted = shape_text(shape)
        raise Mistake("bad-shape", "heads", name=name, shape=shape_text(value.shape), heads=H, wanted=wanted)
    return value.astype(np.float64)


def naive_slopes(H: int) -> np.ndarray:
    """(H,) 2^(−8h/H) for h = 1 … H: right only when H is a power of two."""
    return 2.0 ** (-8.0 * np.arange(1, H + 1) / H)


def _from_zero(H: int) -> np.ndarray:
    """(H,) the official rule with every power-of-two block counted from h = 0: the first slope is 1."""

    def block(n: int) -> np.ndarray:
        return 2.0 ** (-8.0 * np.arange(n) / n)

    if math.log2(H).is_integer():
        return block(H)
    lower = 2 ** math.floor(math.log2(H))
    return np.concatenate([block(lower), block(2 * lower)[0::2][: H - lower]])


def _slope_tolerance(H: int, roundoff: float) -> float:
    """How far from the rule, relative to the largest slope, rounding alone moves H slopes: a few roundings for one
    power, plus one for each factor of a power taken as start ** (h + 1) or as a running product (up to H of them:
    float32 slopes of 3584 heads are off by about 1e-4 of the largest)."""
    return SAFETY * (8 + H) * roundoff


def _bias_kind(bias: np.ndarray, scores: np.ndarray, slopes: np.ndarray, T: int, tolerance: float) -> str:
    """Which bias this is: "right", "shortcut" (+m·j under the mask), "row-offset" (another constant per row), a misconception, or ""."""
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    visible = np.broadcast_to(j <= i, bias.shape)
    m = slopes[:, None, None]
    hidden = bool(np.all(zero_weight(bias, scores)[~visible]))
    finite_visible = np.all(np.isfinite(bias[visible]))
    distance = (i - j).astype(np.float64)

    def agrees(expected: np.ndarray, where: np.ndarray) -> bool:
        wanted = np.broadcast_to(expected, bias.shape)[where]
        return bool(np.all(np.isfinite(bias[where]))) and bool(np.all(np.abs(bias[where] - wanted) <= tolerance + reported_rounding(wanted)))

    everywhere = np.ones(bias.shape, dtype=bool)
    if hidden and finite_visible:
        if agrees(-m * distance, visible):
            return "right"
        if agrees(m * j, visible):
            return "shortcut"  # −m·(i − j) + m·i: the official shortcut, which the brief accepts
        row_constant = bias - (-m * distance)  # (H, T, T)
        diagonal = np.diagonal(row_constant, axis1=1, axis2=2)[..., None]  # (H, T, 1)
        if agrees(-m * distance + diagonal, visible):
            return "row-offset"  # the same weights, but a bias the brief does not ask for
        if agrees(m * distance, visible):
            return "sign-flipped"
        if agrees(-distance / m, visible):
            return "divided"  # −(i − j)/m: slopes below 1 make the penalty steeper, not gentler
    if agrees(-m * np.abs(distance), everywhere):
        return "symmetric"
    if agrees(m * j, everywhere):
        return "mask-forgotten/shortcut"
    if agrees(-m * distance, everywhere):
        return "mask-forgotten/plain"
    if agrees(m * distance, everywhere) or agrees(m * np.abs(distance), everywhere):
        return "sign-flipped"
    return ""


def _hidden(bias: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """(H, T, T) the keys ``bias`` hides: a later key that softmax(scores + bias) gives a weight of exactly 0, a key its
    query may see that the bias alone gives 0 beside the others that query may see. A score far above the rest (the
    scores rerun's peak, or a later key the mask leaves through) takes all the weight, which says nothing of the bias."""
    T = bias.shape[-1]
    visible = np.broadcast_to(np.arange(T)[None, :] <= np.arange(T)[:, None], bias.shape)
    return np.where(visible, zero_weight(np.where(visible, bias, -np.inf)), zero_weight(bias, scores))


def _weights(values: Values, H: int, T: int) -> np.ndarray:
    weights = values["weights"]
    if weights.shape != (H, T, T) or weights.dtype.kind not in "iuf":
        _array(values, "weights", (H, T, T), H)
    return weights.astype(np.float64)


def _bias_tolerance(H: int, T: int, roundoff: float) -> float:
    """The bias's own rounding, plus what the slopes' rounding (:func:`_slope_tolerance`) moves it by at distance T."""
    largest_bias = float(np.max(alibi_slopes(H))) * T
    return SAFETY * 4 * roundoff * (1 + largest_bias) * T + _slope_tolerance(H, roundoff) * largest_bias


def _weight_tolerance(scores: np.ndarray, H: int, T: int, roundoff: float) -> float:
    """The softmax's own rounding, plus what slopes rounded (to seven digits, or by the dtype) move a score by (a weight
    moves by at most twice that)."""
    largest_bias = float(np.max(alibi_slopes(H))) * T
    rounded_slopes = 2 * (float(reported_rounding(largest_bias)) + _slope_tolerance(H, roundoff) * largest_bias)
    return SAFETY * roundoff * (4 * T + 8) * (1 + float(np.max(np.abs(scores))) + largest_bias) + rounded_slopes


def _weights_right(values: Values, scores: np.ndarray, H: int, T: int, roundoff: float) -> bool:
    """Whether the weights are ALiBi's, whatever the bias (the mask may have been put in the weights instead)."""
    return _weights_of(values, scores, alibi_bias(H, T), H, T, roundoff)


def _weights_of(values: Values, scores: np.ndarray, bias: np.ndarray, H: int, T: int, roundoff: float) -> bool:
    """Whether the weights are softmax(scores + bias) for this bias."""
    weights = _weights(values, H, T)
    return bool(np.all(np.isfinite(weights)) and np.max(np.abs(weights - softmax(scores + bias))) <= _weight_tolerance(scores, H, T, roundoff))


def _bias_after_softmax(weights: np.ndarray, scores: np.ndarray, bias: np.ndarray, tolerance: float, roundoff: float) -> str | None:
    """How the weights add the bias to softmax(scores), or None.

    "" as they are; "renormalised": masked, each row divided by its sum; "twice": through a softmax again;
    "multiplied": the weights times exp(bias), never renormalised.
    """
    H, T = bias.shape[0], bias.shape[-1]
    causal = np.isfinite(alibi_bias(H, T))  # (H, T, T) the keys a query may see
    masked = np.where(causal, softmax(scores) + np.where(causal, bias, 0.0), 0.0)
    candidates = (
        ("", softmax(scores) + bias),
        ("", softmax(scores + np.where(causal, 0.0, -np.inf)) + bias),
        ("", softmax(scores) + np.where(causal, bias, 0.0)),  # the bias's −inf left out (nan_to_num, or a finite bias)
        ("", masked),  # added after the softmax, then the later keys zeroed
        ("renormalised", masked / masked.sum(axis=-1, keepdims=True)),
        ("twice", softmax(softmax(scores) + bias)),
        ("multiplied", softmax(scores) * np.exp(bias)),  # exp(bias) applied to the weights: the rows no longer sum to 1
    )
    for how, late in candidates:
        same_infinities = np.array_equal(np.isfinite(late), np.isfinite(weights))
        finite = np.isfinite(late)
        allowed = tolerance + 8 * roundoff * np.abs(np.where(finite, late, 0.0))  # the bias is added once more
        if same_infinities and np.all(np.abs(np.where(finite, late - weights, 0.0)) <= allowed):
            return how
    return None


def _leading_instead_of_every_other(H: int) -> np.ndarray | None:
    """The slopes of a head count that is not a power of two with the extra heads' slopes taken from the front of the
    doubled sequence (``get_slopes(2 * closest)[: H - closest]``) instead of every other one (``[0::2]``); None for a power of two."""
    closest = 2 ** math.floor(math.log2(H))
    if closest == H:
        return None
    return np.concatenate([alibi_slopes(closest), alibi_slopes(2 * closest)[: H - closest]])


def _judge_run(values: Values) -> tuple[int, np.ndarray]:
    H = count(values, "n_heads", 1, ALIBI_MAX_HEADS)
    T = count(values, "T", 2, ALIBI_MAX_T)
    scores = _array(values, "scores", (H, T, T), H)
    if not np.all(np.isfinite(scores)):
        raise Mistake("bad-type", "not-finite", name="scores")
    slopes = _array(values, "slopes", (H,), H)
    roundoff = dtype_roundoff(values, NAMES)
    right = alibi_slopes(H)
    slope_tolerance = _slope_tolerance(H, roundoff)
    if not np.all(np.isfinite(slopes)) or np.any(np.abs(slopes - right) > slope_tolerance * np.max(right) + reported_rounding(right)):
        if np.all(np.isfinite(slopes)) and abs(slopes[0] - 1.0) <= slope_tolerance:
            raise Mistake("heads-from-zero", name="slopes")
        if np.all(np.isfinite(slopes)) and np.max(np.abs(slopes - naive_slopes(H))) <= slope_tolerance:
            raise Mistake("naive-slopes", name="slopes", heads=H)
        if np.all(np.isfinite(slopes)) and (leading := _leading_instead_of_every_other(H)) is not None:
            if np.max(np.abs(slopes - leading)) <= slope_tolerance * np.max(right) + float(np.max(reported_rounding(right))):
                closest = 2 ** math.floor(math.log2(H))
                raise Mistake("mismatch", "every-other", name="slopes", heads=H, closest=closest, last=H - 1, extra=H - closest, doubled=2 * closest)
        raise Mistake("mismatch", "array", name="slopes", **worst_entry("slopes", slopes, right, f"the official rule for {H} heads"))

    bias = _array(values, "bias", (H, T, T), H)
    if np.any(np.isnan(bias)):  # 0 * -inf: a mask made by multiplying
        raise Mistake("mismatch", "nan-bias", name="bias", count=int(np.count_nonzero(np.isnan(bias))), total=bias.size)
    bias_tolerance = _bias_tolerance(H, T, roundoff)
    kind = _bias_kind(bias, scores, right, T, bias_tolerance)
    if kind in ("symmetric", "sign-flipped"):
        raise Mistake(kind, name="bias")
    if kind == "divided":
        visible = np.broadcast_to(np.arange(T)[None, :] <= np.arange(T)[:, None], bias.shape)
        raise Mistake("mismatch", "divided", name="bias", **worst_entry("bias", np.where(visible, bias, 0.0), np.where(visible, alibi_bias(H, T), 0.0)))
    if kind.startswith("mask-forgotten"):
        cause = kind.split("/")[1]
        detail = (
            "You use the +m·j shortcut, which is only right with the mask: without it the later keys get "
            "the largest bias of their row, so every query leans on the future."
            if cause == "shortcut"
            else "With −m·(i − j) everywhere, a later key gets +m·(j − i): the further ahead, the higher its score."
        )
        if _weights_right(values, scores, H, T, roundoff):
            form = "the +m·j shortcut" if cause == "shortcut" else "−m·(i − j)"
            raise Mistake("mask-forgotten", "in-weights", name="bias", form=form)
        raise Mistake("mask-forgotten", cause, name="bias", detail=detail)
    if kind == "row-offset":
        raise _row_offset(bias, right)
    if kind == "":
        if (far := _far_keys_wrong(bias, scores, right, T, bias_tolerance)) is not None:
            raise far
        i, j = np.arange(T)[:, None], np.arange(T)[None, :]
        hidden = _hidden(bias, scores)  # (H, T, T)
        # masked as a mask masks: a row of query 0 all at −1e9 hides nothing (its one key gets the whole weight), yet says the same
        masked = hidden | (bias <= HIDDEN)
        if np.any(masked & (j <= i)) and np.array_equal(masked & (j <= i), np.broadcast_to(j == i, hidden.shape)):
            raise Mistake("mismatch", "hides-diagonal", name="bias", value=f"{float(bias[0, 0, 0]):.4g}")  # a strict mask: j >= i hidden
        # a key the query may see, hidden by a mask's value; a finite penalty too steep to leave it weight is the array's
        hidden_by_a_mask = hidden & (j <= i) & ((bias <= HIDDEN) | ~np.isfinite(bias))
        if np.any(hidden_by_a_mask):
            if np.all(hidden[:, j < i]) and not np.any(hidden[:, j > i]):
                raise Mistake("mismatch", "wrong-triangle", name="bias")
            h, row, key = (int(index[0]) for index in np.nonzero(hidden_by_a_mask))
            raise Mistake("mismatch", "hides-earlier", name="bias", entry=f"bias[{h}, {row}, {key}]", value=f"{bias[h, row, key]:.4g}")
        visible = np.broadcast_to(j <= i, bias.shape)
        if _bias_kind(np.where(visible, bias, -np.inf), scores, right, T, bias_tolerance) in ("right", "shortcut"):
            # weights that are ALiBi's, with every later key exactly 0, came from a mask that hides, not from this bias,
            # whose later keys keep some weight however little (−100 set in place of −inf once the weights were made)
            hid_exactly = not np.any(_weights(values, H, T)[_later_keys((H, T, T))])
            if _weights_right(values, scores, H, T, roundoff) and (hid_exactly or not _weights_of(values, scores, bias, H, T, roundoff)):
                raise Mistake("mask-forgotten", "weights-masked", name="bias", **_least_hidden(bias, hidden)[1])
            raise _mask_leaks(bias, scores, hidden, right, bias_tolerance)
        # the keys a query may see: where a later key is wrongly finite, the mask's own message above says so
        expected = np.where(visible, alibi_bias(H, T), 0.0)
        raise Mistake("mismatch", "array", name="bias", **worst_entry("bias", np.where(visible & np.isfinite(bias), bias, 0.0), expected))

    weights = _weights(values, H, T)
    expected = softmax(scores + alibi_bias(H, T))
    weight_tolerance = _weight_tolerance(scores, H, T, roundoff)
    if np.all(np.isfinite(weights)) and np.max(np.abs(weights - expected)) <= weight_tolerance:
        if not np.any(weights[_later_keys(weights.shape)]):
            return H, slopes
        raise _later_keys_weighted(weights, expected, weight_tolerance)
    how = _bias_after_softmax(weights, scores, bias, weight_tolerance, roundoff)
    if how is not None:
        raise Mistake("after-softmax", how, name="weights")
    if not np.all(np.isfinite(weights)):
        raise Mistake("bad-type", "not-finite", name="weights")
    if np.max(np.abs(weights - softmax(scores))) <= weight_tolerance:
        raise Mistake("mismatch", "bias-unused", name="weights")
    raise _weights_mistake(weights, scores, bias, expected, weight_tolerance)


# Where a narrow integer position wraps round, largest first: a uint8's 255 + 1 is 0, an int8's 127 + 1 is −128. A bias
# right on the first this many tokens and wrong past them.
WRAPS = {256: "a uint8 wraps round (255 + 1 gives 0)", 128: "an int8 wraps round (127 + 1 gives −128)"}
NARROW_INT = Question("names_narrow_int", ())


def _far_keys_wrong(bias: np.ndarray, scores: np.ndarray, slopes: np.ndarray, T: int, tolerance: float) -> Mistake | None:
    """A bias right on near keys and wrong on far ones: the distance clipped (−m·min(i − j, c)), the keys w or more back
    hidden (a window), or right on the first 128 or 256 tokens alone (positions wrapped past an int8's or a uint8's
    largest); None for any other."""
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    distance = (i - j).astype(np.float64)
    visible = np.broadcast_to(j <= i, bias.shape)
    m = slopes[:, None, None]
    if np.all(zero_weight(bias, scores)[~visible]) and np.all(np.isfinite(bias[visible])):
        implied = np.where(visible, -bias / m, 0.0)  # the distance each visible entry stands for
        cap = float(np.round(np.max(implied), 6))
        clipped = -m * np.minimum(distance, cap)
        if 0 < cap < T - 1 and np.all(np.abs(bias - clipped)[visible] <= tolerance + reported_rounding(np.broadcast_to(clipped, bias.shape)[visible])):
            return Mistake(
                "mismatch",
                "distance-capped",
                name="bias",
                cap=f"{cap:.4g}",
                **worst_entry("bias", np.where(visible, bias, 0.0), np.where(visible, -m * distance, 0.0)),
            )
    if (window := _window(bias, scores, slopes, T, tolerance)) is not None:
        return window
    if _bias_kind(np.where(visible, bias, -np.inf), scores, slopes, T, tolerance) in ("right", "shortcut"):
        return None  # right on every key a query may see: what is wrong is the mask alone (_mask_leaks names it)
    for wrap, wraps in WRAPS.items():
        if T > wrap and _bias_kind(bias[:, :wrap, :wrap], scores[:, :wrap, :wrap], slopes, wrap, tolerance) in ("right", "shortcut"):
            right = np.where(visible, -m * distance, -np.inf)
            h, row, key = np.unravel_index(int(np.argmax(np.where(bias == right, 0.0, np.nan_to_num(np.abs(bias - right), nan=np.inf)))), bias.shape)
            return Mistake(
                "mismatch", "positions-wrap", name="bias", tokens=T, wrap=wrap, wraps=wraps,
                entry=f"bias[{h}, {row}, {key}]", value=f"{bias[h, row, key] + 0.0:.4g}", expected=f"{right[h, row, key]:.4g}",
            )  # fmt: skip
    return None


def _window(bias: np.ndarray, scores: np.ndarray, slopes: np.ndarray, T: int, tolerance: float) -> Mistake | None:
    """A bias that hides every key w or more back from its query as well as the later ones (a sliding window), and is
    right (or the +m·j shortcut) on the nearer keys; None for any other."""
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    distance = np.broadcast_to(i - j, bias.shape)
    hidden_before = (_hidden(bias, scores) | (bias <= HIDDEN)) & (distance >= 0)
    if not np.any(hidden_before):
        return None
    window = int(np.min(distance[hidden_before]))
    far = distance >= window
    if window < 1 or not np.array_equal(hidden_before, far):
        return None
    m = slopes[:, None, None]
    if not any(_bias_kind(np.where(far, near, bias), scores, slopes, T, tolerance) in ("right", "shortcut") for near in (-m * distance, m * j)):
        return None
    return Mistake(
        "mismatch", "window", name="bias", window=window,
        entry=f"bias[0, {window}, 0]", value=f"{bias[0, window, 0]:.4g}", expected=f"{-slopes[0] * window:.4g}",
    )  # fmt: skip


def _mask_leaks(bias: np.ndarray, scores: np.ndarray, hidden: np.ndarray, slopes: np.ndarray, tolerance: float) -> Mistake:
    """A bias right on every key a query may see, with some later keys not hidden: left at −m·(i − j) (the mask begun
    too late or too narrow), missing from some query rows, or masked by a number too small: too small for any score,
    or hiding ordinary scores and outscored by a later key scoring far above the keys its query sees."""
    H, T = bias.shape[0], bias.shape[-1]
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    leaking = ~hidden & _later_keys(bias.shape)  # (H, T, T)
    unmasked = -slopes[:, None, None] * (i - j)
    if np.all(np.abs(bias[leaking] - np.broadcast_to(unmasked, bias.shape)[leaking]) <= tolerance + reported_rounding(unmasked[leaking])):
        h, row, key = (int(index[0]) for index in np.nonzero(leaking))
        heads = np.any(leaking, axis=(1, 2))  # (H,) the heads whose later keys leak
        if not np.all(heads) and np.array_equal(leaking, _later_keys(bias.shape) & heads[:, None, None]):  # the others wholly masked
            return Mistake(
                "mismatch", "mask-missing-heads", name="bias", entry=f"bias[{h}, {row}, {key}]", value=f"{bias[h, row, key]:.4g}",
                masked=_listed("head", [int(m) for m in np.flatnonzero(~heads)]), unmasked=_listed("head", [int(m) for m in np.flatnonzero(heads)]),
            )  # fmt: skip
        step = np.unique(np.broadcast_to(j - i, bias.shape)[leaking])
        late = "some of them"
        if np.array_equal(step, [1]):
            late = "the key right after each query (j = i + 1)"
        elif np.array_equal(step, np.arange(1, step[-1] + 1)):
            late = f"the keys up to j = i + {int(step[-1])}"
        return Mistake(
            "mismatch", "mask-late", name="bias", count=int(np.count_nonzero(leaking)), total=H * T * (T - 1) // 2, late=late,
            entry=f"bias[{h}, {row}, {key}]", value=f"{bias[h, row, key]:.4g}",
        )  # fmt: skip
    ahead = np.broadcast_to(j - i, bias.shape)
    reach = int(np.max(ahead[leaking]))
    if reach < T - 1 and np.array_equal(leaking, (ahead >= 1) & (ahead <= reach)):  # keys up to j = i + reach visible, those past it hidden
        late = "the key right after each query (j = i + 1)" if reach == 1 else f"the keys up to j = i + {reach}"
        h, row, key = (int(index[0]) for index in np.nonzero(leaking))
        return Mistake(
            "mismatch", "mask-narrow", name="bias", count=int(np.count_nonzero(leaking)), total=H * T * (T - 1) // 2, late=late,
            entry=f"bias[{h}, {row}, {key}]", value=f"{bias[h, row, key] + 0.0:.4g}", reach=reach, first=reach + 1,
        )  # fmt: skip
    (h, row, key), least = _least_hidden(bias, hidden)
    if bias[h, row, key] < np.log(np.finfo(np.float64).smallest_subnormal):  # e^value is 0 on its own: a later key's score outweighs it
        logits = scores[h, row] + bias[h, row]
        top = float(np.max(logits[: row + 1]))  # the best key the query sees
        gap = float(scores[h, row, key]) - top
        weight = float(softmax(logits)[key])
        return Mistake(
            "mismatch", "weak-mask-outscored", name="bias", **least, gap=f"{gap:.4g}", weight=f"{weight:.4g}",
            exponent=f"{float(bias[h, row, key]) + gap:.4g}",
        )  # fmt: skip
    later = _later_keys(bias.shape)
    rows = np.any(leaking, axis=-1)  # (H, T) the query rows whose later keys leak
    unmasked_rows = np.array_equal(leaking, later & rows[..., None]) and not np.all(rows[:, : T - 1])  # the others hidden
    if unmasked_rows and np.all(bias[leaking] >= 0):  # left as they were, not masked by a weaker number
        heads, skipped = np.flatnonzero(np.any(rows, axis=1)), np.flatnonzero(np.any(rows, axis=0))
        of_heads = " of every head" if len(heads) == H else " of " + _listed("head", [int(h) for h in heads])
        mask = float(np.max(bias[later & hidden]))
        return Mistake(
            "mismatch", "mask-missing-rows", name="bias", **least, rows="query " + _listed("row", [int(q) for q in skipped]) + of_heads,
            mask=f"{mask + 0.0:.4g}", first=int(skipped[0]),
        )  # fmt: skip
    return Mistake("mismatch", "weak-mask", name="bias", **least)


def _least_hidden(bias: np.ndarray, hidden: np.ndarray) -> tuple[tuple[int, int, int], dict[str, str]]:
    """The later key (j > i) that ``bias`` hides least, where it should be −inf: its index, and ``entry`` and its ``value``."""
    leaking = ~hidden & _later_keys(bias.shape)
    h, row, key = (int(index) for index in np.unravel_index(int(np.argmax(np.where(leaking, bias, -np.inf))), bias.shape))
    return (h, row, key), {"entry": f"bias[{h}, {row}, {key}]", "value": f"{float(bias[h, row, key]) + 0.0:.4g}"}  # + 0.0: −0 is shown as 0


def _later_keys(shape: tuple[int, ...]) -> np.ndarray:
    """(H, T, T) booleans: the keys after their query (j > i), which the mask hides."""
    T = shape[-1]
    return np.broadcast_to(np.arange(T)[None, :] > np.arange(T)[:, None], shape)


def _heaviest_later_key(weights: np.ndarray) -> dict[str, str]:
    """The later key (j > i) with the most weight: its ``entry`` and ``value``, for a message."""
    h, row, key = np.unravel_index(int(np.argmax(np.where(_later_keys(weights.shape), weights, -np.inf))), weights.shape)
    return {"entry": f"`weights[{h}, {row}, {key}]`", "value": f"{weights[h, row, key]:.4g}"}


def _later_keys_weighted(weights: np.ndarray, expected: np.ndarray, tolerance: float) -> Mistake:
    """Weights within rounding of softmax(scores + bias) that still give a later key some weight: a floor under them
    (np.clip), or some other small leak. With −inf, or any mask the brief allows (−1e4 and below), a later key's weight
    is exactly 0 in float64 and float32 alike, so no tolerance is owed there."""
    count = int(np.count_nonzero(weights[_later_keys(weights.shape)]))
    return _floor_under(weights, expected, tolerance) or Mistake("mismatch", "weights-leak", name="weights", count=count, **_heaviest_later_key(weights))


def _floor_under(weights: np.ndarray, expected: np.ndarray, tolerance: float) -> Mistake | None:
    """The right weights with every one below some floor raised to it (np.clip; a small number added to each, then
    renormalised, gives the same within rounding), or None."""
    floor = float(np.min(weights[_later_keys(weights.shape)]))
    if floor <= 0 or np.max(np.abs(weights - np.clip(expected, floor, None))) > tolerance:
        return None
    return Mistake("mismatch", "weights-floor", name="weights", floor=f"{floor:.4g}", **_heaviest_later_key(weights))


def _weights_mistake(weights: np.ndarray, scores: np.ndarray, bias: np.ndarray, expected: np.ndarray, tolerance: float) -> Mistake:
    """Weights that are not softmax(scores + bias), with a right bias: what they are instead, as far as they show it.

    A softmax over another axis; weight on the later keys (the mask lost between the bias and the softmax); one head's
    bias for every head; the softmax's input scaled; else which heads or query rows are wrong, the others being right.
    """
    H, T = expected.shape[0], expected.shape[-1]
    worst = worst_entry("weights", weights, expected)
    right_bias = alibi_bias(H, T)
    for axis in (0, 1):
        if np.max(np.abs(weights - np.nan_to_num(softmax(scores + right_bias, axis=axis)))) <= tolerance:  # a column all masked is NaN
            return Mistake("mismatch", "weights", name="weights", axis="the heads" if axis == 0 else "the queries", **worst)
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    later = _later_keys(weights.shape)
    m = -right_bias[:, 1:2, :1]  # (H, 1, 1) the slopes: bias[h, 1, 0] is −slopes[h]
    for form, unmasked in (("−slopes[h]·(i − j)", -m * (i - j)), ("the +m·j shortcut", m * j)):
        if np.any(weights[later] > tolerance) and np.max(np.abs(weights - softmax(scores + np.where(later, unmasked, bias)))) <= tolerance:
            return Mistake("mismatch", "weights-before-mask", name="weights", form=form, **_heaviest_later_key(weights))
    if np.any(weights[later] > tolerance):
        if (floored := _floor_under(weights, expected, tolerance)) is not None:
            return floored
        return Mistake("mismatch", "weights-see-future", name="weights", **_heaviest_later_key(weights))
    for head in range(H):
        if np.max(np.abs(weights - softmax(scores + bias[head]))) <= tolerance:
            return Mistake("mismatch", "weights-one-head-bias", name="weights", head=head)
    visible = ~later[0]
    logits = scores + right_bias  # (H, T, T), −inf at the later keys
    with np.errstate(divide="ignore"):
        logs = np.log(weights)
    centred_in = np.where(visible, logits - np.sum(np.where(visible, logits, 0.0), axis=-1, keepdims=True) / np.sum(visible, axis=-1, keepdims=True), 0.0)
    centred_out = np.where(visible, logs - np.sum(np.where(visible, logs, 0.0), axis=-1, keepdims=True) / np.sum(visible, axis=-1, keepdims=True), 0.0)
    if np.all(np.isfinite(centred_out)):
        factor = float(np.sum(centred_in * centred_out) / np.sum(centred_in * centred_in))
        if factor > 0 and np.max(np.abs(weights - softmax(factor * logits))) <= tolerance:
            scaled = f"divided by {1 / factor:.4g}" if factor < 1 else f"times {factor:.4g}"
            return Mistake("mismatch", "weights-scaled", name="weights", scaled=scaled, **worst)
    if (changed := _changed_after_softmax(weights, scores, bias, expected, tolerance)) is not None:
        return changed
    wrong_rows = np.any(np.abs(weights - expected) > tolerance, axis=-1)  # (H, T): each head's query rows
    heads = [int(h) for h in np.flatnonzero(np.any(wrong_rows, axis=1))]
    rows = [int(row) for row in np.flatnonzero(np.any(wrong_rows, axis=0))]
    if _loop_cut_short(heads, H):
        where = f"on {_listed('head', heads)} only; your other heads' weights are right"
        return Mistake("mismatch", "weights-where", name="weights", where=where, **worst)
    if len(heads) == H and _loop_cut_short(rows, T) and any(0 < row < T - 1 for row in set(range(T)) - set(rows)):
        where = f"on query {_listed('row', rows)} only, of every head; your other rows are right"
        return Mistake("mismatch", "weights-where", name="weights", where=where, **worst)
    # no loop cut short: a right row 0 (one key, weight 1 whatever the scores) or last row (no later key) says nothing
    count = int(np.count_nonzero(wrong_rows))
    if count == wrong_rows.size:
        extent = f"every one of your {count} query rows differs from it"
    else:
        in_heads = "every head" if len(heads) == H else _listed("head", heads)
        in_rows = "every query row" if len(rows) == T else f"query {_listed('row', rows)}"
        extent = f"{count} of your {wrong_rows.size} query rows differ from it, {in_rows} of {in_heads}"
        if rows == list(range(1, T)):
            extent += " (row 0 sees one key, so any weights that sum to 1 give it 1)"
    return Mistake("mismatch", "weights-differ", name="weights", extent=extent, **worst)


def _loop_cut_short(indices: list[int], size: int) -> bool:
    """Whether the wrong heads (or query rows) ``indices`` are what a loop stopped early or begun late leaves: some, not
    all, and a run from the first or to the last."""
    return 0 < len(indices) < size and indices == list(range(indices[0], indices[-1] + 1)) and (indices[0] == 0 or indices[-1] == size - 1)


def _changed_after_softmax(weights: np.ndarray, scores: np.ndarray, bias: np.ndarray, expected: np.ndarray, tolerance: float) -> Mistake | None:
    """Weights that are some other thing done to every row: the softmax of the scores transposed, the softmax of the
    unmasked bias with the later keys set to 0 afterwards (never renormalised), or the right weights rounded, or with
    their smallest set to 0 (through another name for the same array, say); None for any other."""
    H, T = expected.shape[0], expected.shape[-1]
    worst = worst_entry("weights", weights, expected)
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    if np.max(np.abs(weights - softmax(np.swapaxes(scores, -1, -2) + bias))) <= tolerance:
        return Mistake("mismatch", "scores-transposed", name="weights", **worst)
    m = -alibi_bias(H, T)[:, 1:2, :1]  # (H, 1, 1) the slopes: bias[h, 1, 0] is −slopes[h]
    for form, unmasked in (("−slopes[h]·(i − j)", -m * (i - j)), ("the +m·j shortcut", m * j)):
        if np.max(np.abs(weights - np.where(j > i, 0.0, softmax(scores + unmasked)))) <= tolerance:
            sums = weights.sum(axis=-1)  # (H, T)
            h, row = np.unravel_index(int(np.argmin(sums)), sums.shape)
            return Mistake("mismatch", "zeroed-after-softmax", name="weights", form=form, row=f"`weights[{h}, {row}]`", total=f"{sums[h, row]:.4g}")
    for digits in range(1, 7):
        if np.max(np.abs(weights - np.round(expected, digits))) <= tolerance:
            return Mistake("mismatch", "weights-rounded", name="weights", digits=digits, **worst)
    wrong = np.abs(weights - expected) > tolerance
    cut = float(np.max(expected[wrong]))
    if np.any(expected > cut) and np.all(np.abs(weights[wrong]) <= tolerance) and np.all(np.abs(weights[expected <= cut]) <= tolerance):
        h, row, key = np.unravel_index(int(np.argmax(np.where(wrong, expected, -np.inf))), expected.shape)
        count = int(np.count_nonzero(wrong))
        what = f"its smallest weight ({cut:.4g})" if count == 1 else f"its {count} smallest weights, {cut:.4g} and less,"
        return Mistake("mismatch", "small-weights-zeroed", name="weights", what=what, cut=f"{cut:.4g}", entry=f"`weights[{h}, {row}, {key}]`")
    return None


def _listed(what: str, indices: list[int]) -> str:
    """ "head 3", "heads 8 … 11" (a run), "heads 1, 4, 6" (else)."""
    if len(indices) == 1:
        return f"{what} {indices[0]}"
    if indices == list(range(indices[0], indices[-1] + 1)):
        return f"{what}s {indices[0]} … {indices[-1]}"
    return f"{what}s " + ", ".join(str(index) for index in indices)


def _row_offset(bias: np.ndarray, slopes: np.ndarray) -> Mistake:
    """A bias that is −m·(i − j) plus a constant in each row other than the +m·j shortcut's m·i: what that constant is, in words."""
    diagonal = np.diagonal(bias, axis1=1, axis2=2)  # (H, T): the offset of each row, as −m·(i − i) = 0
    m = slopes[:, None]
    if np.allclose(diagonal, -m, rtol=1e-6, atol=0.0):
        what = "−slopes[h]·(i − j + 1), one step too many (every diagonal entry is −slopes[h])"
    elif np.allclose(diagonal, diagonal[0, 0], rtol=1e-6, atol=1e-12):
        what = f"−slopes[h]·(i − j) {'+' if diagonal[0, 0] > 0 else '−'} {abs(diagonal[0, 0]):.4g} on every key a query may see"
    else:
        what = "−slopes[h]·(i − j) plus a constant of its own in each row"
    h, row = np.unravel_index(int(np.argmax(diagonal != 0)), diagonal.shape)  # the first diagonal entry that is not 0
    entry = f"`bias[{h}, {row}, {row}]` is {diagonal[h, row]:.4g}"
    return Mistake("mismatch", "row-offset", name="bias", what=what, entry=entry)


def _split_power_of_two(slopes: np.ndarray, H: int) -> bool:
    """Slopes for a power-of-two H given by the other branch, as if the power below H were H/2: H/2's slopes, then every other of H's."""
    if H < 2 or H & (H - 1) or slopes.shape != (H,):
        return False
    geometric = [2.0 ** (-8.0 * np.arange(1, n + 1) / n) for n in (H // 2, H)]
    split = np.concatenate([geometric[0], geometric[1][0::2][: H // 2]])
    return bool(np.allclose(slopes.astype(np.float64), split, rtol=1e-6, atol=0.0))


def judge(runs: Runs) -> Passed:
    try:
        return _judge(runs)
    except Mistake as mistake:
        if mistake.cause == "positions-wrap" and not runs.says(NARROW_INT):  # no integer type of the script's own to blame
            raise Mistake(mistake.diagnosis, "past-position", **mistake.fields) from None
        raise


def _judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, NUMPY_AND_SOFTMAX, "slopes")
    try:
        H, slopes = _judge_run(runs.first)
    except Mistake as mistake:
        if mistake.diagnosis == "mismatch" and mistake.fields.get("name") == "slopes" and _slopes_typed(runs):
            raise Mistake("mismatch", "typed", name="slopes") from None  # the fundamental mistake, not their rounding
        raise
    first_scores = runs.first["scores"].astype(np.float64)
    shortcut = _bias_kind(runs.first["bias"].astype(np.float64), first_scores, alibi_slopes(H), int(runs.first["T"].reshape(-1)[0]), 1e-6) == "shortcut"
    if runs.reruns[0] is None and runs.says(SLOPES_TYPED):
        raise Mistake("mismatch", "typed", name="slopes")  # typed for this head count, they cannot fit another
    second = runs.second(CHANGED)
    for name in ("slopes", "bias", "weights"):
        if second[name].shape == runs.first[name].shape and np.array_equal(second[name], runs.first[name]):
            raise Mistake("mismatch", "typed", name=name)
    try:
        judged_on_rerun(lambda: _judge_run(second), CHANGED)
    except Mistake as mistake:
        rerun_heads = count(second, "n_heads", 1, ALIBI_MAX_HEADS)
        if mistake.fields.get("name") == "slopes" and _split_power_of_two(second["slopes"], rerun_heads):  # right for the learner's count only
            raise Mistake("mismatch", "power-split", name="slopes", heads=rerun_heads, half=rerun_heads // 2, own=H, changed=CHANGED) from None
        if mistake.diagnosis == "heads-from-zero":  # the learner's own slopes are right: the 1 is the rerun's, for its head count
            raise Mistake("heads-from-zero", "rerun", name="slopes", heads=rerun_heads, own=H, changed=CHANGED) from None
        raise
    _judge_head_rerun(runs, H, UNEVEN)
    _judge_scores_rerun(runs)
    _judge_head_rerun(runs, H, MANY)
    judged_on_rerun(lambda: _judge_run(runs.second(LONG)), LONG)
    first_bias = runs.first["bias"].astype(np.float64)
    large_negative = bool(np.all(np.isfinite(first_bias)))  # masked by a number such as −1e9, not −inf: the same weights
    return Passed("shortcut" if shortcut else "large-negative" if large_negative else "")


def _judge_head_rerun(runs: Runs, H: int, changed: str) -> None:
    """A rerun of a count that is no power of two (the second, the fourth): slopes wrong there alone are named with that
    count's own, and so are too few or too many after the right ones of the power below."""
    index = runs.changed.index(changed)
    second = runs.reruns[index] or (runs.partial[index] if runs.partial else {})  # slopes set before a run stopped are named too
    if not {"n_heads", "slopes"} <= set(second):
        second = runs.second(changed)
    heads = count(second, "n_heads", 1, ALIBI_MAX_HEADS)
    slopes, right = second["slopes"], alibi_slopes(heads)
    if slopes.ndim == 1 and slopes.dtype.kind in "iuf" and np.all(np.isfinite(slopes)):
        slopes = slopes.astype(np.float64)
        tolerance = _slope_tolerance(heads, dtype_roundoff(second, NAMES)) * np.max(right) + reported_rounding(right)
        if slopes.shape != right.shape and (extra := _extra_count(slopes, right, tolerance, H, changed)) is not None:
            raise extra
        wrong = np.abs(slopes - right) > tolerance if slopes.shape == right.shape else np.zeros(0, dtype=bool)
        if np.any(wrong):
            raise _uneven_slopes(slopes, right, tolerance, int(np.flatnonzero(wrong)[0]), H, changed)
    rerun = runs.second(changed)
    judged_on_rerun(lambda: _judge_run(rerun), changed)


def _extra_count(slopes: np.ndarray, right: np.ndarray, tolerance: np.ndarray, H: int, changed: str) -> Mistake | None:
    """Slopes right on the power below a rerun's count and on the extra slopes they have, but too few or too many of
    those; None for any other."""
    heads = len(right)
    closest = 2 ** math.floor(math.log2(heads))
    shared = min(len(slopes), heads)
    if len(slopes) <= closest or np.any(np.abs(slopes[:shared] - right[:shared]) > tolerance[:shared]):
        return None
    extra = len(slopes) - closest
    half = f": get_slopes({2 * closest})[0:{closest}:2], every other slope of the first half alone, gives only {extra}" if extra == closest // 2 else ""
    return Mistake(
        "mismatch", "extra-count", name="slopes", heads=heads, own=H, changed=changed, closest=closest, doubled=2 * closest,
        count=len(slopes), extra=extra, needed=heads - closest, half=half,
    )  # fmt: skip


def _uneven_slopes(slopes: np.ndarray, right: np.ndarray, tolerance: np.ndarray, first_wrong: int, H: int, changed: str) -> Mistake:
    """What a rerun's slopes are, for a count that is no power of two, wrong from head ``first_wrong`` on: the
    power-of-two formula for that count, the slopes of a smaller power than the one below it, or right up to it and then
    other extra slopes."""
    heads = len(right)
    closest = 2 ** math.floor(math.log2(heads))
    rerun = changed if changed.startswith(f"{heads} heads") else f"{heads} heads ({changed})"  # the count said once
    fields = {"name": "slopes", "heads": heads, "own": H, "changed": changed, "rerun": rerun, "closest": closest, "doubled": 2 * closest}
    if np.all(np.abs(slopes - naive_slopes(heads)) <= tolerance):
        return Mistake("naive-slopes", "rerun", **fields)
    if first_wrong < closest:
        smaller = [
            power for power in (2**k for k in range(int(math.log2(closest)))) if np.all(np.abs(slopes[:power] - alibi_slopes(power)) <= tolerance[:power])
        ]
        begun = f"begin with the {smaller[-1]}-head slopes" if smaller else f"are wrong from head {first_wrong}, one of the first {closest}"
        return Mistake(
            "mismatch", "uneven-power-below", **fields, begun=begun, got=f"{slopes[first_wrong]:.4g}", expected=f"{right[first_wrong]:.4g}", head=first_wrong
        )
    shown, rule = _listed_slopes(slopes[closest:]), _listed_slopes(right[closest:])
    fixed = alibi_slopes(16)[0::2][: heads - closest]  # the list that suits the starter's 12
    cause = "uneven-rerun" if fixed.shape == slopes[closest:].shape and np.all(np.abs(slopes[closest:] - fixed) <= tolerance[closest:]) else "uneven-extra"
    return Mistake("mismatch", cause, **fields, got=shown, expected=rule)


# The most extra slopes a message lists: 100 heads have 36.
LISTED_SLOPES = 8


def _listed_slopes(slopes: np.ndarray) -> str:
    """ "0.9170, 0.7711, …" to four figures, the first LISTED_SLOPES of them."""
    listed = ", ".join(f"{slope:.4g}" for slope in slopes[:LISTED_SLOPES])
    return listed + (f", … ({len(slopes)} in all)" if len(slopes) > LISTED_SLOPES else "")


def _judge_scores_rerun(runs: Runs) -> None:
    """The third rerun, other scores of the same shape: the weights must change with them."""
    third = runs.second(SCORES)
    if third["weights"].shape == runs.first["weights"].shape and np.array_equal(third["weights"], runs.first["weights"]):
        raise Mistake("mismatch", "scores-unused", name="weights", changed=SCORES)
    weights = third["weights"]
    if weights.dtype.kind == "f" and not np.all(np.isfinite(weights)) and np.all(np.isfinite(third["scores"])):
        raise _unstable_softmax(third, runs.says(STARTER_SOFTMAX))
    judged_on_rerun(lambda: _judge_run(third), SCORES)


def _unstable_softmax(third: Values, starter_softmax: bool) -> Mistake:
    """Weights NaN or inf on the scores rerun, right on the script's own scores: what their softmax subtracted before
    np.exp in place of each row's largest, told by where the NaN and inf fall. Nothing (the exponentials of the rows
    from 1000 up overflow), one number for the whole array or for each head (the rows far below it underflow to 0 / 0),
    or each row's mean (the row of each head's last score overflows, as it does for any number of the row's own far
    enough below its largest: its first score, say); each in float64 and in the weights' own dtype.

    Each row's largest taken without the mask is also what the starter's softmax subtracts when it is given the scores
    with the later keys unmasked and the mask comes after (set to 0, each row renormalised): a script that calls that
    softmax (``starter_softmax``) is told so (masked-after-softmax), the starter's softmax being stable."""
    weights = third["weights"]
    scores = third["scores"].astype(np.float64)
    bias = third["bias"].astype(np.float64) if third["bias"].shape == scores.shape else alibi_bias(scores.shape[0], scores.shape[-1])
    fields = {"name": "weights", "changed": SCORES, "count": int(np.count_nonzero(~np.isfinite(weights))), "total": weights.size}
    h, row = (int(index) for index in np.argwhere(~np.isfinite(weights))[0][:2])
    for dtype in dict.fromkeys((np.dtype(np.float64), weights.dtype)):
        logits = (scores + bias).astype(dtype)
        with np.errstate(all="ignore"):
            visible = np.where(np.isfinite(logits), logits, 0.0)
            row_mean = visible.sum(axis=-1, keepdims=True) / np.isfinite(logits).sum(axis=-1, keepdims=True)
        subtracted = (
            ("softmax-overflow", "", np.zeros_like(logits)),
            ("softmax-one-max", "one number from every score, the largest of the whole array", np.max(logits, keepdims=True)),
            ("softmax-one-max", "one number from every score of a head, that head's largest", np.max(logits, axis=(-2, -1), keepdims=True)),
            ("softmax-row-overflow", "", row_mean),  # or any other number far enough below a row's largest: the same NaN
            # each row's largest taken without the mask (of the scores alone, or of an unmasked bias, renormalised after):
            # a later key's score, far above the rest
            ("softmax-one-max", "each row's largest taken without the mask, a later key's score", np.max(scores.astype(dtype), axis=-1, keepdims=True)),
        )
        for cause, what, shift in subtracted:
            with np.errstate(all="ignore"):
                exponentials = np.exp(logits - shift)
                late = exponentials / exponentials.sum(axis=-1, keepdims=True)
            if not np.array_equal(np.isfinite(late), np.isfinite(weights)):
                continue
            if cause == "softmax-overflow":
                largest = float(np.max(np.where(np.isfinite(logits), logits, -np.inf)))  # a masked key's score never reaches np.exp
                return Mistake("mismatch", cause, **fields, largest=f"{largest:.4g}")
            ordered = np.sort(logits[h, row][np.isfinite(logits[h, row])])
            largest, number = float(ordered[-1]), float(np.broadcast_to(shift, logits.shape)[h, row, 0])
            if starter_softmax and what.startswith("each row's largest taken without the mask"):
                key = int(np.argmax(scores[h, row]))
                return Mistake(
                    "mismatch", "masked-after-softmax", **fields, entry=f"`scores[{h}, {row}, {key}]`", head=h, row=row,
                    score=f"{float(scores[h, row, key]):.4g}", largest=f"{largest:.4g}", gap=f"{abs(largest - number):.4g}", dtype=dtype.name,
                )  # fmt: skip
            return Mistake(
                "mismatch", cause, **fields, what=what, entry=f"`scores[{h}, {row}] + bias[{h}, {row}]`", largest=f"{largest:.4g}",
                subtracted=f"{number:.4g}", gap=f"{abs(largest - number):.4g}", dtype=dtype.name, limit=f"{math.log(float(np.finfo(dtype).max)):.1f}",
                above=f"{largest - float(ordered[-2]) if ordered.size > 1 else 0.0:.4g}",
            )  # fmt: skip
    return Mistake("mismatch", "softmax-unstable", **fields, entry=f"`weights[{h}, {row}]`")


SLOPES_TYPED = Question("typed_in", ("slopes",))
STARTER_SOFTMAX = Question("calls_borrowed", ("softmax",))  # the weights may come from the starter's (stable) softmax


def _slopes_typed(runs: Runs) -> bool:
    """Whether slopes stayed the same when the rerun changed n_heads (or are typed in the source, when it could not run)."""
    second = runs.reruns[runs.changed.index(CHANGED)]
    if second is None:
        return runs.says(SLOPES_TYPED)
    first_slopes, second_slopes = runs.first["slopes"], second["slopes"]
    heads_changed = not np.array_equal(second["n_heads"], runs.first["n_heads"])
    return heads_changed and first_slopes.shape == second_slopes.shape and np.array_equal(first_slopes, second_slopes)


def hypotheses(values: Values) -> Hypotheses:
    """slopes, bias and weights on one run's n_heads, T and scores, right and under each mistake the judge names.

    A masked entry of a bias is shown as HIDDEN, not −inf, so that figures can be compared.
    """
    H = count(values, "n_heads", 1, ALIBI_MAX_HEADS)
    T = count(values, "T", 2, ALIBI_MAX_T)
    if H * T * T > MAX_ELEMENTS:  # a copy of the first run's 12 heads with the long rerun's 600 tokens: arrays no judge reads
        raise too_large("bias", (H, T, T))
    scores = values["scores"].astype(np.float64)
    if scores.shape != (H, T, T):  # the separation test changes n_heads alone, where a real rerun redraws the scores
        scores = np.resize(scores, (H, T, T))
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    distance = (i - j).astype(np.float64)  # (T, T)
    visible = j <= i

    def head(slopes: np.ndarray, bias: np.ndarray) -> dict[str, Figure]:
        return {"slopes": slopes, "bias": np.where(np.isfinite(bias), bias, HIDDEN), "weights": softmax(scores + bias)}

    def causal(bias: np.ndarray) -> np.ndarray:
        return np.where(visible, bias, -np.inf)

    right_slopes = alibi_slopes(H)
    m = right_slopes[:, None, None]
    right = head(right_slopes, causal(-m * distance))
    wrong: dict[str, dict[str, Figure]] = {
        "heads-from-zero": head(_from_zero(H), causal(-_from_zero(H)[:, None, None] * distance)),
        "symmetric": head(right_slopes, -m * np.abs(distance)),
        "sign-flipped": head(right_slopes, causal(m * distance)),
        "mask-forgotten/shortcut": head(right_slopes, m * np.broadcast_to(j, (T, T))),
        "mask-forgotten/plain": head(right_slopes, -m * distance),
        "after-softmax": {"weights": softmax(scores) + np.asarray(right["bias"])},
        "after-softmax/renormalised": {"weights": _renormalised(softmax(scores) + causal(-m * distance))},
        "after-softmax/twice": {"weights": softmax(softmax(scores) + causal(-m * distance))},
        "mask-forgotten/in-weights": {"slopes": right_slopes, "bias": -m * distance, "weights": right["weights"]},
        "mismatch/wrong-triangle": {"bias": np.where(j >= i, -m * (j - i), HIDDEN)},
        "mismatch/divided": head(right_slopes, causal(-distance / m)),
    }
    if not math.log2(H).is_integer():  # for a power of two the formula is the official rule
        naive = naive_slopes(H)
        wrong["naive-slopes"] = head(naive, causal(-naive[:, None, None] * distance))
    if (leading := _leading_instead_of_every_other(H)) is not None:
        wrong["mismatch/every-other"] = head(leading, causal(-leading[:, None, None] * distance))
    for name, slopes in _one_branch_wrong(H).items():  # right on the learner's own count, wrong on a rerun's branch
        wrong[name] = head(slopes, causal(-slopes[:, None, None] * distance))
    wrong["after-softmax/mask-dropped"] = {"weights": softmax(scores) + np.where(visible, -m * distance, 0.0)}
    roundoff = dtype_roundoff(values, NAMES)
    tolerance = {  # the judge's, without the allowance for rounded slopes
        "slopes": _slope_tolerance(H, roundoff) * float(np.max(right_slopes)),
        "bias": _bias_tolerance(H, T, roundoff),
        "weights": SAFETY * roundoff * (4 * T + 8) * (1 + float(np.max(np.abs(scores))) + float(np.max(right_slopes)) * T)
        + 2 * _slope_tolerance(H, roundoff) * float(np.max(right_slopes)) * T,
    }
    return Hypotheses.of(right, wrong, tolerance)


def _one_branch_wrong(H: int) -> dict[str, np.ndarray]:
    """Slopes right on one branch of the rule and wrong on the other, on H heads (right where H is on the right branch):
    the power-of-two branch counted from 0, or split like a count that is none; the extra slopes of any other count
    taken from a fixed 16-head list, which suits 8 to 15 heads only."""
    right = alibi_slopes(H)
    closest = 2 ** math.floor(math.log2(H))
    if closest == H:
        split = np.concatenate([alibi_slopes(H // 2), alibi_slopes(H)[0::2][: H // 2]]) if H >= 2 else right
        return {"heads-from-zero/rerun": _from_zero(H), "mismatch/power-split": split}
    fixed = np.concatenate([alibi_slopes(closest), alibi_slopes(16)[0::2][: H - closest]])
    return {"heads-from-zero/rerun": right, "mismatch/power-split": right, "mismatch/uneven-rerun": fixed if fixed.shape == right.shape else right}


def _renormalised(late: np.ndarray) -> np.ndarray:
    """(H, T, T) weights with the masked keys set to 0 and every row divided by its sum."""
    kept = np.where(np.isfinite(late), late, 0.0)
    return kept / kept.sum(axis=-1, keepdims=True)


ALIBI = Contract(
    names=NAMES,
    reruns=(
        Rerun({"n_heads": "other_head_count(n_heads)", "T": "longer(T)"}, CHANGED),
        Rerun({"n_heads": "uneven_head_count(n_heads)", "T": "far_longer(T)"}, UNEVEN),
        Rerun({"scores": "redrawn_large(scores)"}, SCORES),
        Rerun({"n_heads": "many_head_count(n_heads)", "T": "few_tokens(T)"}, MANY),
        Rerun({"n_heads": "one_head(n_heads)", "T": "long_length(T)"}, LONG),
    ),
    judge=judge,
    diagnoses=("bad-value", "heads-from-zero", "naive-slopes", "symmetric", "sign-flipped", "mask-forgotten", "after-softmax", "mismatch", "changed-input"),
    given=("n_heads", "T", "scores"),
    hypotheses=hypotheses,
    typed=("slopes", "bias", "weights"),
    questions=(SLOPES_TYPED, NUMPY_AND_SOFTMAX, IMPORTS_BY_NAME, NARROW_INT, STARTER_SOFTMAX),
    seen_only=frozenset({"mismatch/power-split"}),  # one head has no half to split: no run of a 1-head answer shows it
    described={
        "heads-from-zero": "heads counted from 0",
        "naive-slopes": "the power-of-two formula for any head count",
        "mismatch/every-other": "the extra heads' slopes from the front of the doubled sequence",
        "heads-from-zero/rerun": "a power of two's heads counted from 0",
        "mismatch/power-split": "a power of two's slopes split like another count's",
        "mismatch/uneven-rerun": "the extra heads' slopes from a fixed 16-head list",
        "after-softmax/mask-dropped": "the bias added after the softmax with its mask left out",
        "symmetric": "the symmetric unmasked bias",
        "sign-flipped": "the sign flipped",
        "mask-forgotten/shortcut": "+m·j without the mask",
        "mask-forgotten/plain": "no causal mask",
        "after-softmax": "the bias added after the softmax",
        "after-softmax/renormalised": "the bias added after the softmax, then masked and renormalised",
        "after-softmax/twice": "the bias added after the softmax, then a second softmax",
        "mask-forgotten/in-weights": "the mask in the weights but not in the bias",
        "mismatch/wrong-triangle": "the mask on the earlier keys",
        "mismatch/divided": "the distance divided by the slope",
        "typed-slopes": "slopes typed in",
        "typed-bias": "a bias typed in",
        "typed-weights": "weights typed in",
        "stale-n_heads": "a copy of n_heads made before the checker changed it",
    },
)
