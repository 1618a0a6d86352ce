"""t5-buckets: T5's bucket of every offset (key slot − query slot), bidirectional and causal, and the bias it indexes.

The buckets are compared with ``relative_position_bucket`` on the learner's
own offsets, number of buckets and max_distance, and, when they differ, with
each misconception: the offset's sign flipped (query − key), the causal
buckets halved as if they had two directions, the causal half forgotten
(the bidirectional rule reused, or keys ahead folded in like keys behind),
``log`` of 0 dodged with ``log(n + 1)``, rounding instead of the floor, and
the cap on the last bucket left out or set at num_buckets − 1 in the
encoder, and ``max_distance // n_e`` (integer division) in the log. The
biases are ``table[h, bucket(j − i)]``; a decoder bias with the causal mask
already in it passes too. The rerun asks for another number of buckets,
a max_distance that no exact range divides, and another T, which typed
buckets and sizes cannot follow. A second rerun asks for 128 buckets (64 if
the learner has 128), a max_distance past 1,500 and offsets out to 1,700:
there a log ratio taken in float16 floors some offsets into the neighbouring
bucket (float32, PyTorch's T5's type, and float64 give T5's buckets), and a
lookup table or a range sized from the starter's offsets (−200 to 200) falls
short. The rule is the learner's to write: the course's own
``relative_position_bucket`` is refused.
"""

from __future__ import annotations

import math

import numpy as np

from attnpos.core import relative_position_bucket
from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_ONLY,
    Contract,
    Rerun,
    Runs,
    StarterSizes,
    refuse_borrowing,
    sized_for_the_starter,
    zero_weight,
)
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.values import COMPUTED_IN, SAFETY, Values, count, describe, dtype_roundoff
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text

NAMES = ("num_buckets", "max_distance", "n_heads", "T", "offsets", "table", "encoder_buckets", "decoder_buckets", "encoder_bias", "decoder_bias")
CHANGED = "another number of buckets, another max_distance, another number of tokens T and two more heads"
# The second rerun: sizes where a log ratio in float16 floors some offsets into the neighbouring bucket (float32 and
# float64 agree at all of them: substitutes.PRECISION_BUCKETS), and offsets reaching well past the starter's 200.
CHANGED_FAR = "more buckets, a max_distance past 1,500 and offsets reaching past it"
# The starter's offsets, −200 to 200, as a number a lookup table or a range might be typed with (its own line left out).
OFFSET_SIZES = StarterSizes(
    {200: "the offsets' reach", 201: "distances 0 to 200", 401: "the number of offsets"}, ("num_buckets", "max_distance", "n_heads", "T", "offsets", "table")
)
MAX_BUCKETS, MAX_DISTANCE, MAX_HEADS, MAX_T, MAX_OFFSETS = 256, 4096, 64, 256, 100_000
BUCKET_TOLERANCE = 0.1  # buckets are whole numbers: a gap of 1 is another bucket, and the separation test asks 8 times this to stay below 1


def buckets(
    offsets: np.ndarray,
    bidirectional: bool,
    num_buckets: int,
    max_distance: int,
    *,
    rounding: str = "floor",
    log_shift: int = 0,
    cap: str = "last",
    whole_ratio: bool = False,
    log_in: type[np.floating] = np.float64,
) -> np.ndarray:
    """(same shape) a bucket rule with one misconception chosen by keyword, float64 (uncapped buckets may pass the table).

    rounding: "floor" (right), "round"; log_shift: 1 for log((n + 1)/n_e);
    cap: "last" (right, N − 1), "none", "table" (num_buckets − 1 whatever the direction);
    whole_ratio: log(max_distance // n_e), the ratio cut to a whole number;
    log_in: the float type the log ratio is computed in (np.float16: too coarse for the floor at large sizes).
    """
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    first = np.where(offsets > 0, per_direction, 0) if bidirectional else np.zeros(offsets.shape)
    distance = np.abs(offsets) if bidirectional else np.maximum(-offsets, 0)
    max_exact = per_direction // 2
    far = np.maximum(distance + log_shift, max_exact).astype(log_in)
    ratio = max_distance // max_exact if whole_ratio else max_distance / max_exact
    growth = (np.log(far / log_in(max_exact)) / log_in(math.log(ratio)) * log_in(per_direction - max_exact)).astype(np.float64)
    large = max_exact + (np.floor(growth) if rounding == "floor" else np.round(growth))
    if cap == "last":
        large = np.minimum(large, per_direction - 1)
    elif cap == "table":
        large = np.minimum(large, num_buckets - 1)
    return (first + np.where(distance < max_exact, distance, large)).astype(np.float64)


def _count_of(values: Values) -> tuple[int, int, int, int]:
    num_buckets = count(values, "num_buckets", 4, MAX_BUCKETS, even=True)
    max_distance = count(values, "max_distance", num_buckets, MAX_DISTANCE)
    return num_buckets, max_distance, count(values, "n_heads", 1, MAX_HEADS), count(values, "T", 2, MAX_T)


def _offsets(values: Values) -> np.ndarray:
    offsets = values["offsets"]
    if offsets.dtype.kind not in "iu" or offsets.ndim != 1 or not 1 <= offsets.size <= MAX_OFFSETS:
        raise Mistake("bad-type", "offsets", name="offsets", got=describe(offsets))
    return offsets.astype(np.int64)


def _array(values: Values, name: str, shape: tuple[int, ...]) -> np.ndarray:
    value = values[name]
    if value.dtype == bool:
        raise Mistake("bad-type", "bools", name=name)
    if value.dtype.kind not in "iuf":
        raise Mistake("bad-type", "not-numeric", name=name, got=f"{value.dtype} array")
    if value.shape != shape:
        raise Mistake("bad-shape", "array-shape", name=name, shape=shape_text(value.shape), wanted=shape_text(shape))
    return value.astype(np.float64)


def _bucket_mistakes(offsets: np.ndarray, bidirectional: bool, N: int, D: int) -> dict[str, np.ndarray]:
    """Each misconception's buckets, in the order the judge names them (the most fundamental first)."""
    wrong = {"sign-flipped": buckets(-offsets, bidirectional, N, D)}
    if not bidirectional:
        wrong["causal-half/same-as-encoder"] = buckets(offsets, True, N, D)
        wrong["causal-half/ahead-as-behind"] = buckets(-np.abs(offsets), False, N, D)
        wrong["halving"] = buckets(offsets, False, N // 2, D)
    wrong["log-of-zero"] = buckets(offsets, bidirectional, N, D, log_shift=1)
    wrong["truncation"] = buckets(offsets, bidirectional, N, D, rounding="round")
    wrong["mismatch/whole-ratio"] = buckets(offsets, bidirectional, N, D, whole_ratio=True)
    wrong["max-distance/none"] = buckets(offsets, bidirectional, N, D, cap="none")
    if bidirectional:
        wrong["max-distance/table"] = buckets(offsets, bidirectional, N, D, cap="table")
    return wrong


def _bucket_kind(values: Values, name: str, offsets: np.ndarray, bidirectional: bool, N: int, D: int) -> str:
    """ "right", the misconception these buckets are (the first in the judge's order), or a Mistake for any other."""
    got = _array(values, name, offsets.shape)
    candidates = {"right": buckets(offsets, bidirectional, N, D), **_bucket_mistakes(offsets, bidirectional, N, D)}
    for hypothesis, expected in candidates.items():
        if np.all(np.isfinite(got)) and np.max(np.abs(got - expected)) < BUCKET_TOLERANCE:
            return hypothesis
    right = candidates["right"]
    off = ~(np.abs(np.nan_to_num(got) - right) < BUCKET_TOLERANCE)
    first = int(np.flatnonzero(off)[0])
    fields = {"name": name, "offset": int(offsets[first]), "got": f"{got[first]:g}", "expected": f"{right[first]:g}"}
    edge = _edge_gap(offsets, bidirectional, N, D)
    if np.all(np.abs(got[off] - right[off]) < 1 + BUCKET_TOLERANCE) and np.all(edge[off] < LOW_PRECISION_EDGE):
        # one bucket over or under, and only where the log ratio sits at a bucket's edge: the floor of a coarse log
        raise Mistake("mismatch", "precision", **fields, edge=f"{edge[first]:.1g}", computed=_computed_in(values), count=int(np.count_nonzero(off)))
    raise Mistake("mismatch", "buckets", **fields)


# A log ratio this close to a whole number (relative to its size: 8 float16 unit roundoffs) may floor either way in
# float16, whose floor moves buckets only there; float32's rounding is 2^13 times finer.
LOW_PRECISION_EDGE = 2.0**-8


def _edge_gap(offsets: np.ndarray, bidirectional: bool, N: int, D: int) -> np.ndarray:
    """(same shape) how far each offset's log ratio (in buckets past n_e) lies from a whole number, relative to its size;
    infinite where the bucket is exact or capped, so that no rounding can move it."""
    per_direction = N // 2 if bidirectional else N
    max_exact = per_direction // 2
    distance = np.abs(offsets) if bidirectional else np.maximum(-offsets, 0)
    growth = np.log(np.maximum(distance, max_exact) / max_exact) / math.log(D / max_exact) * (per_direction - max_exact)
    gap = np.abs(growth - np.round(growth)) / np.maximum(growth, 1.0)
    return np.where((distance > max_exact) & (growth < per_direction - max_exact), gap, np.inf)


def _computed_in(values: Values) -> str:
    """The float type the script names for its arithmetic, as words for a message ("in float16"), or the plain cause."""
    marker = values.get(COMPUTED_IN)
    return f"in {marker.dtype}" if marker is not None else "in a float type too coarse for it"


def _judge_buckets(values: Values, offsets: np.ndarray, N: int, D: int) -> None:
    encoder = _bucket_kind(values, "encoder_buckets", offsets, True, N, D)
    if encoder == "sign-flipped" and _bucket_kind(values, "decoder_buckets", offsets, False, N, D) == "right":
        # the decoder reads the offset key − query rightly: the encoder's fault is which half it gives the keys ahead
        raise Mistake("sign-flipped", "upper-half", name="encoder_buckets", half=N // 2)
    if encoder.startswith("max-distance"):
        # Below num_buckets − 1 no cap and a cap at the table's width agree in the encoder; the decoder's cap says which it was.
        decoder_capped = _bucket_kind(values, "decoder_buckets", offsets, False, N, D) != "max-distance/none"
        encoder = "max-distance/table" if decoder_capped else "max-distance/none"
    for name, kind in (("encoder_buckets", encoder), ("decoder_buckets", None)):
        kind = kind or _bucket_kind(values, name, offsets, False, N, D)
        if kind != "right":
            diagnosis, _, cause = kind.partition("/")
            raise Mistake(diagnosis, cause, name=name)


def _judge_bias(values: Values, name: str, table: np.ndarray, bidirectional: bool, N: int, D: int, T: int) -> None:
    H = table.shape[0]
    got = _array(values, name, (H, T, T))
    slots = np.arange(T)
    ahead = slots[None, :] - slots[:, None]  # (T, T) j − i
    right = table[:, relative_position_bucket(ahead, bidirectional, N, D)]
    tolerance = SAFETY * 4 * dtype_roundoff(values, NAMES) * (1 + float(np.max(np.abs(table))))
    masked = zero_weight(got) & (ahead > 0)[None]  # a decoder bias may carry the causal mask: −inf, or a number as low as −1e9
    if not bidirectional and np.all(np.isfinite(got) | masked) and np.all(np.abs(np.where(masked, 0.0, got - right)) <= tolerance):
        return
    if np.all(np.isfinite(got)) and np.max(np.abs(got - right)) <= tolerance:
        return
    if np.all(np.isfinite(got)) and np.max(np.abs(got - table[:, relative_position_bucket(-ahead, bidirectional, N, D)])) <= tolerance:
        raise Mistake("sign-flipped", "bias", name=name)
    _weak_mask(name, got, right, ahead, bidirectional, tolerance)
    finite = np.isfinite(got)
    largest = float(np.max(np.abs(np.where(finite, got, right) - right), initial=0.0))
    difference = _bias_difference(name, got, right, masked, ahead, bidirectional)
    raise Mistake("mismatch", "bias", name=name, got=f"{largest:.3g}", difference=difference)


def _weak_mask(name: str, got: np.ndarray, right: np.ndarray, ahead: np.ndarray, bidirectional: bool, tolerance: float) -> None:
    """A decoder bias right at every key at or before its query, and a mask at the keys ahead that is too small to hide
    them (−10, say): named as the mask it is, not as a lookup off by that much."""
    later = np.broadcast_to(ahead > 0, got.shape)
    if bidirectional or not later.any() or not np.all(np.isfinite(got)) or np.max(np.abs(got - right)[~later], initial=0.0) > tolerance:
        return
    if np.all(got[later] < right[later] - 1) and not np.any(zero_weight(got)[later]):  # every key ahead pushed down, none hidden
        index = tuple(np.argwhere(later & (got == np.max(got[later])))[0])
        entry = f"{name}[{', '.join(str(int(i)) for i in index)}]"
        raise Mistake("mismatch", "weak-mask", name=name, entry=entry, value=f"{float(got[index]):.4g}")


def _bias_difference(name: str, got: np.ndarray, right: np.ndarray, masked: np.ndarray, ahead: np.ndarray, bidirectional: bool) -> str:
    """How a bias differs from the right one, in words: the −inf entries where a number belongs (a mask on the wrong
    triangle named as such), then the largest difference where both are numbers; a decoder's causal −inf is allowed,
    an encoder's is a causal mask on a bidirectional bias."""

    def entry(index: tuple[np.intp, ...]) -> str:
        return f"`{name}[{', '.join(str(int(i)) for i in index)}]`"

    parts = []
    hidden = np.isneginf(got) & ~masked  # (H, T, T) −inf where a number belongs
    behind = np.broadcast_to(ahead < 0, got.shape)
    if np.any(hidden) and np.array_equal(hidden, behind) and np.all(np.isfinite(got[np.broadcast_to(ahead > 0, got.shape)])):
        parts.append("its −inf is on the wrong triangle, at every key behind its query (j < i), where the decoder hides the keys ahead (j > i)")
    elif np.any(hidden):
        first = tuple(np.argwhere(hidden)[0])
        parts.append(f"−inf at {int(np.count_nonzero(hidden))} entries where a number belongs, such as {entry(first)}, where {right[first]:.4g} belongs")
    unread = ~np.isfinite(got) & ~np.isneginf(got)
    if np.any(unread):
        parts.append(f"{int(np.count_nonzero(unread))} entries are +inf or NaN")
    difference = np.where(np.isfinite(got), np.abs(got - right), 0.0)
    if np.max(difference, initial=0.0) > 0:
        worst = np.unravel_index(int(np.argmax(difference)), difference.shape)
        where = "where both are numbers, " if parts or np.any(masked) else ""
        parts.append(f"{where}it is off by up to {difference[worst]:.3g}, at {entry(worst)}: {got[worst]:.4g} where {right[worst]:.4g} belongs")
    if np.any(masked) and bidirectional:
        parts.insert(0, "it has −inf at the keys ahead (j > i), a causal mask, but the encoder is bidirectional: each query reads the keys ahead too")
    elif np.any(masked):
        parts.append("its −inf (or large negative number) at the keys ahead (j > i) is the causal mask, which is allowed")
    return "; ".join(parts)


def _judge_run(values: Values) -> None:
    N, D, H, T = _count_of(values)
    offsets = _offsets(values)
    table = _array(values, "table", (H, N))
    if not np.all(np.isfinite(table)):
        raise Mistake("bad-type", "not-finite", name="table")
    _judge_buckets(values, offsets, N, D)
    if np.all(table == table[:, :1]):  # every bucket's scalar alike: a bias read at any bucket, or at none, looks the same
        raise Mistake("indistinct", "flat-table", confused="a bias read at the wrong buckets")
    _judge_bias(values, "encoder_bias", table, True, N, D, T)
    _judge_bias(values, "decoder_bias", table, False, N, D, T)


# A mistake seen only on the rerun, its own run right: told as the rerun's, since the learner never saw those figures.
RERUN_CAUSES = {
    ("mismatch", "buckets"): "buckets-rerun",
    ("mismatch", "bias"): "bias-rerun",
    ("mismatch", "whole-ratio"): "whole-ratio-rerun",
    ("mismatch", "precision"): "precision-rerun",
    ("bad-shape", "array-shape"): "shape-rerun",
}


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, NUMPY_ONLY, "encoder_buckets")  # the course's relative_position_bucket is the answer itself
    _judge_run(runs.first)
    second = runs.second(CHANGED)
    if count(second, "num_buckets", 4, MAX_BUCKETS, even=True) == count(runs.first, "num_buckets", 4, MAX_BUCKETS, even=True):
        raise Mistake("rerun-failed", "set-again", changed=CHANGED, failure="the script sets num_buckets again after using it", reset="num_buckets")
    before, after = (hypotheses(values).figures["right"] for values in (runs.first, second))
    for name in ("encoder_buckets", "decoder_buckets"):
        moved = not np.array_equal(np.asarray(before[name]), np.asarray(after[name]))  # offsets all below the exact buckets do not move
        if moved and np.array_equal(second[name], runs.first[name]):
            raise Mistake("mismatch", "typed", name=name)
    _judge_rerun(second)
    try:
        far = runs.second(CHANGED_FAR)
    except Mistake as mistake:  # a lookup table over the starter's distances 0 to 200, a range typed from its offsets
        sized_for_the_starter(runs, OFFSET_SIZES, mistake, CHANGED_FAR)
        raise
    for name in ("encoder_buckets", "decoder_buckets"):  # their own run gave them the offsets' shape: they were not of `offsets`
        if far[name].shape != far["offsets"].shape:
            shapes = {"shape": shape_text(far[name].shape), "wanted": shape_text(far["offsets"].shape)}
            raise Mistake("mismatch", "offsets-typed", name=name, changed=CHANGED_FAR, **shapes, **_rerun_settings(far))
    _judge_rerun(far)
    return Passed()


def _judge_rerun(values: Values) -> None:
    """Judge one rerun; a mistake of the kinds only a rerun shows is told with that rerun's sizes."""
    try:
        _judge_run(values)
    except Mistake as mistake:
        cause = RERUN_CAUSES.get((mistake.diagnosis, mistake.cause))
        if cause is None:
            raise
        heads = _count_of(values)[2]
        if cause == "shape-rerun" and str(mistake.fields.get("shape", "")).startswith("(") and _heads_short(mistake.fields, heads):
            cause = "heads-rerun"  # the heads' axis kept at a count typed in (`range(4)`), the slots right
        kept = str(mistake.fields.get("shape", "")).strip("()").split(",")[0].strip()
        raise Mistake("mismatch", cause, **mistake.fields, **_rerun_settings(values), heads=heads, kept=kept) from None


def _heads_short(fields: dict[str, object], heads: int) -> bool:
    """Whether a bias's shape differs from the one wanted in its first axis (the heads) alone."""
    got, wanted = (str(fields.get(key, "")).strip("()").split(",") for key in ("shape", "wanted"))
    return len(got) == len(wanted) == 3 and got[1:] == wanted[1:] and got[0].strip() != str(heads)


def _rerun_settings(rerun: Values) -> dict[str, int]:
    """The rerun's num_buckets, max_distance, T and the offsets' reach, which its message quotes."""
    N, D, _, T = _count_of(rerun)
    return {"buckets": N, "distance": D, "tokens": T, "reach": int(np.max(np.abs(_offsets(rerun))))}


def hypotheses(values: Values) -> Hypotheses:
    """The buckets and biases on one run's inputs, right and under each mistake the judge names."""
    N = count(values, "num_buckets", 4, MAX_BUCKETS, even=True)
    D = count(values, "max_distance", N, MAX_DISTANCE)
    T = count(values, "T", 2, MAX_T)
    offsets = values["offsets"].astype(np.int64)
    table = values["table"].astype(np.float64)
    if table.shape[1] != N:  # the separation test changes num_buckets alone, where a real rerun redraws the table
        table = np.resize(table, (table.shape[0], N))
    H = count(values, "n_heads", 1, MAX_HEADS)
    if table.shape[0] != H:  # a stale n_heads (the first run's, beside the rerun's table of two more heads): its first rows
        table = np.resize(table, (H, N))
    slots = np.arange(T)
    ahead = slots[None, :] - slots[:, None]  # (T, T) j − i

    def bias(bidirectional: bool, **mistake: object) -> np.ndarray:
        index = buckets(ahead, bidirectional, N, D, **mistake).astype(np.int64)  # type: ignore[arg-type]
        return table[:, np.clip(index, 0, N - 1)]

    right: dict[str, Figure] = {
        "encoder_buckets": buckets(offsets, True, N, D),
        "decoder_buckets": buckets(offsets, False, N, D),
        "encoder_bias": bias(True),
        "decoder_bias": bias(False),
    }
    wrong: dict[str, dict[str, Figure]] = {}
    for bidirectional, name in ((True, "encoder_buckets"), (False, "decoder_buckets")):
        for hypothesis, figure in _bucket_mistakes(offsets, bidirectional, N, D).items():
            wrong.setdefault(hypothesis, {})[name] = figure
        wrong.setdefault("mismatch/precision", {})[name] = buckets(offsets, bidirectional, N, D, log_in=np.float16)
    wrong["sign-flipped"].update(
        encoder_bias=table[:, relative_position_bucket(-ahead, True, N, D)], decoder_bias=table[:, relative_position_bucket(-ahead, False, N, D)]
    )
    tolerance = SAFETY * 4 * dtype_roundoff(values, NAMES) * (1 + float(np.max(np.abs(table))))
    return Hypotheses.of(
        right, wrong, {"encoder_buckets": BUCKET_TOLERANCE, "decoder_buckets": BUCKET_TOLERANCE, "encoder_bias": tolerance, "decoder_bias": tolerance}
    )


T5_BUCKETS = Contract(
    names=NAMES,
    reruns=(
        Rerun(
            {
                "num_buckets": "other_bucket_count(num_buckets)",
                "max_distance": "other_max_distance(max_distance)",
                "T": "other_token_count(T)",
                "n_heads": "more_heads(n_heads)",
            },
            CHANGED,
        ),
        Rerun(
            {
                "num_buckets": "precision_bucket_count(num_buckets)",
                "max_distance": "precision_max_distance(max_distance)",
                "offsets": "far_offsets(offsets)",
            },
            CHANGED_FAR,
        ),
    ),
    judge=judge,
    diagnoses=("sign-flipped", "causal-half", "halving", "log-of-zero", "truncation", "max-distance", "mismatch"),
    questions=(NUMPY_ONLY, IMPORTS_BY_NAME, *OFFSET_SIZES.questions),
    hypotheses=hypotheses,
    typed=("encoder_buckets", "decoder_buckets"),
    described={
        "sign-flipped": "the offset taken as query − key",
        "causal-half/same-as-encoder": "the bidirectional rule used for the decoder",
        "causal-half/ahead-as-behind": "keys ahead folded in like keys behind",
        "halving": "the causal buckets halved",
        "log-of-zero": "log(n + 1) in place of log(n)",
        "truncation": "rounding in place of the floor",
        "max-distance/none": "no cap on the last bucket",
        "max-distance/table": "the cap at num_buckets − 1",
        "mismatch/whole-ratio": "max_distance // n_e in the log",
        "mismatch/precision": "the log ratio taken in float16",
        "typed-encoder_buckets": "encoder buckets typed in",
        "typed-decoder_buckets": "decoder buckets typed in",
        "stale-num_buckets": "a copy of num_buckets made before the checker changed it",
        "stale-max_distance": "a copy of max_distance made before the checker changed it",
        "stale-T": "a copy of T made before the checker changed it",
    },
)
