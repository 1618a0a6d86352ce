"""context-extension: position interpolation and NTK-aware scaling of a RoPE model's inv_freq.

Each array is compared with what the learner's own hs, rope_theta and factor
give, and, when it differs, with each misconception: the scale applied the
wrong way, the NTK exponent hs (or 1, or its inverse) instead of
hs/(hs − 2), NTK scaling applied to every frequency alike, interpolation
applied to the base instead of the positions. The rerun changes ``factor`` (to
1.5, neither whole nor a power of two, so a factor cut to either is named, and below 2),
``hs`` and ``rope_theta``, which typed arrays cannot follow; a second rerun goes the other way: a wider head of 392
channels, no power of two (exponents 2i/hs rounded, to float16 say, show; a float step, ``np.arange(0, 1, 2 / hs)``,
counts one pair too many and is named), a factor of 40.625, which a factor rounded to one or two decimals loses, and a
base of 1000, so that no pair of runs is the only one to get right, and arrays held to the first run's values (a factor
capped at 4, a base held to at least 10000, a buffer of 64 pairs) are named, as are bounds of the script's own that
a rerun goes past (``min(factor, 16)``, ``max(hs, 64)``, ``min(rope_theta, 6e5)``), read back from the arrays. Each rerun's print is judged as the first
run's, so a print with the starter's factor or width typed into it, or one run on the starter's values only (``if hs == 128:``), is ``unfinished``. Right
arrays on values other than the starter's are ``bad-value`` (the exercise is set on the starter's values; the reruns change them). Right arrays
with the brief's last step
left undone (the two ratios never printed, or other numbers printed in
their place: the frequencies, a ratio upside down; the NTK ratio shown at pair 0 only, or as 1 at every pair, printed
before ``inv_freq_ntk`` was set; a ratio printed whole, or pair by pair, that parts
from the final one at any pair) are ``unfinished``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from attnpos.core import rope_inv_freq
from attnpos.core.extension import ntk_base, pi_inv_freq
from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_ONLY,
    Contract,
    Question,
    Rerun,
    Runs,
    figure_off,
    judged_on_rerun,
    refuse_borrowing,
    sized_for_the_first_run,
)
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.values import SAFETY, Values, count, describe, dtype_roundoff, real_array, reported_rounding, scalar
from attnpos.lessons.checker.verdicts import Mistake, Passed, figure_pair, shape_text

NAMES = ("hs", "rope_theta", "factor", "inv_freq", "inv_freq_pi", "base_ntk", "inv_freq_ntk")
CHANGED = "another `factor`, a head a quarter as wide (`hs`) and another `rope_theta`"
UNEVEN = "a wider head whose width is no power of two (`hs`), a larger factor with three decimals (`factor`) and a smaller `rope_theta`"
# Reruns that change one input alone: a branch on one input with the others' figures typed inside it (``if factor ==
# 4.0:`` around an exponent typed for hs = 128) takes the typed branch where that input stays, and its arrays do not
# follow the input that changed. The full reruns change all three, so they always take the other branch. Each takes a
# value the full reruns do not (white-box round 24): a factor of more binary digits than eighths, three decimals or
# float16 keep, a width no multiple of 8, a base no power of ten, so that an input rounded on the way shows.
ALONE = {
    "factor": "`factor` 4778/2048 (4782/2048 where yours is that) alone, `hs` and `rope_theta` the starter's",
    "hs": "`hs` 100 (76 where yours is 100) alone, `factor` and `rope_theta` the starter's",
    "rope_theta": "`rope_theta` 500,000, Llama 3's (10,000 where yours is 500,000) alone, `hs` and `factor` the starter's",
}
# The values the starter sets, on which the brief asks its questions (the reruns change them, not the learner).
STARTER = {"hs": 128, "rope_theta": 10000.0, "factor": 4.0}
MAX_WIDTH = 4096
# The brief's last step: print the two ratios to the trained frequencies. Each is asked of the source.
PRINTED = {name: Question("prints", (name,)) for name in ("inv_freq_pi", "inv_freq_ntk")}


def _above_one(values: Values, name: str) -> float:
    number = scalar(values, name)
    if not number > 1:
        raise Mistake("bad-value", "base", name=name, got=describe(values[name]))
    return number


def _power(s: float, hs: int) -> float:
    """s^hs, the base of the exponent-hs mistake: past float64's range (the second rerun's 40.625^392) it is inf."""
    with np.errstate(over="ignore"):
        return float(np.float64(s) ** hs)


def _frequencies(values: Values, name: str, hs: int, whose: str = "your") -> np.ndarray:
    array = real_array(values, name)
    stepped = np.arange(0, 1, 2 / hs).size  # a float step's count of the exponents: one too many at some widths (98, 196, 392)
    if array.shape == (stepped,) != (hs // 2,):
        raise Mistake("bad-shape", "float-step", name=name, shape=shape_text(array.shape), hs=hs, pairs=hs // 2, whose=whose)
    if array.shape != (hs // 2,):
        raise Mistake("bad-shape", "pairs", name=name, shape=shape_text(array.shape), hs=hs, pairs=hs // 2, wanted=shape_text((hs // 2,)))
    return array


def _agrees(got: np.ndarray | float, expected: np.ndarray | float, tolerance: float) -> bool:
    """Relative agreement, entry by entry (frequencies span many orders of magnitude), a figure rounded to seven digits included.

    A power of a rounded base keeps the base's relative error times the exponent (at most 1), so
    frequencies computed from a rounded base_ntk stay within one rounding too.
    """
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    if got.shape != expected.shape:
        return False
    allowed = tolerance * np.abs(expected) + reported_rounding(expected)
    # an infinite figure (the exponent-hs base past float64's range) agrees only with itself: inf - x <= inf holds for any x
    return bool(np.all(np.where(np.isfinite(expected), np.abs(got - expected) <= allowed, got == expected)))


def _mismatch(name: str, expected: np.ndarray | float, got: np.ndarray | float, source: str) -> Mistake:
    """The entry furthest off, relatively, beside what ``source`` (the run's hs, rope_theta and factor, in words) gives
    (its shape is right: a shape of another kind is ``bad-shape``, so the message says no shape)."""
    expected_arr, got_arr = np.atleast_1d(expected), np.atleast_1d(got)
    worst = int(np.argmax(np.abs(got_arr - expected_arr) / np.abs(expected_arr)))
    shown_expected, shown_got = figure_pair(float(expected_arr[worst]), float(got_arr[worst]))
    label = f"`{name}` pair {worst}" if expected_arr.size > 1 else f"`{name}`"
    sentence = figure_off(label, shown_got, shown_expected, source)
    return Mistake("mismatch", "array" if expected_arr.size > 1 else "figure", name=name, worst=sentence, expected=shown_expected, got=shown_got)


def _tolerance(values: Values, theta: float, s: float) -> float:
    """Relative: powers and divisions each round once or twice; a power of a rounded base keeps the base's relative error times the exponent (at most 1)."""
    return float(SAFETY * 16 * dtype_roundoff(values, NAMES) * np.log2(theta * s**2 + 2))


# The diagnoses that name a rule's mistake (rather than a figure off): on a rerun alone, a branch on the values took it.
RULE_MISTAKES = ("wrong-way", "wrong-exponent", "uniform-ntk", "pi-on-base")


def _judge_run(values: Values, whose: str = "your", first: Values | None = None) -> None:
    """One run's arrays; ``whose`` run they are, in a message ("your", "the rerun's"). A rule's mistake on a rerun whose
    ``first`` run was right is told as the rerun's, beside the learner's own run (``{your}``, ``{branch}``)."""
    try:
        _judge_arrays(values, whose, first is not None)
    except Mistake as mistake:
        if mistake.diagnosis not in RULE_MISTAKES:
            raise
        your, branch = "Your", ""
        if first is not None:
            run = whose.removeprefix("the ").removesuffix("'s")
            your = f"On the checker's {run} ({_inputs(values)}), your"
            branch = (
                f" Your own run ({_inputs(first)}) had it right, so your script takes another path for some values (an `if`"
                " on `factor`, `rope_theta` or `hs`, say), where the rule holds for every value."
            )
        raise Mistake(mistake.diagnosis, mistake.cause, **{**mistake.fields, "your": your, "branch": branch}) from None


def _inputs(values: Values) -> str:
    """A run's hs, rope_theta and factor, in words."""
    return ", ".join(f"{name} = {scalar(values, name):.10g}" for name in ("hs", "rope_theta", "factor"))


def _judge_arrays(values: Values, whose: str, rerun: bool = False) -> None:
    """One run's arrays against the rules on its own hs, rope_theta and factor, and against each rule's mistake; on a
    ``rerun`` (the first run right), also against a factor rounded on the way."""
    hs = count(values, "hs", 4, MAX_WIDTH, even=True)
    theta = _above_one(values, "rope_theta")
    s = _above_one(values, "factor")
    sizes = f"{whose} hs = {hs} and rope_theta = {theta:g}"
    with_factor = f"{whose} hs = {hs}, rope_theta = {theta:g} and factor = {s:g}"
    tolerance = _tolerance(values, theta, s)
    exponents = np.arange(0, hs, 2) / hs  # (hs/2,)

    inv_freq = _frequencies(values, "inv_freq", hs, whose)
    right = rope_inv_freq(hs, theta)
    if not _agrees(inv_freq, right, tolerance):
        pi_values = values.get("inv_freq_pi")
        if pi_values is not None and _agrees(inv_freq, right / s, tolerance) and np.array_equal(inv_freq, pi_values):
            # `inv_freq_pi = inv_freq`, then `inv_freq_pi /= factor`: one array under two names, divided once for both
            raise Mistake("mismatch", "aliased", name="inv_freq", factor=f"{s:g}")
        mismatch = _mismatch("inv_freq", right, inv_freq, sizes)
        _overflowed(values, mismatch, inv_freq, {"rope_theta": theta}, whose)
        raise mismatch

    pi = _frequencies(values, "inv_freq_pi", hs, whose)
    right_pi = pi_inv_freq(right, s)
    if not _agrees(pi, right_pi, tolerance):
        if _agrees(pi, right * s, tolerance):
            raise Mistake("wrong-way", "pi", name="inv_freq_pi", how="multiplies every frequency by the factor, so the turns get faster", factor=f"{s:g}")
        if _agrees(pi, 1.0 / (theta * s) ** exponents, tolerance):
            # pair i is divided by s^(2i/hs): 1 for pair 0, s^((hs−2)/hs) for the slowest, never s itself
            raise Mistake("pi-on-base", name="inv_freq_pi", factor=f"{s:g}", slowest=f"{s ** ((hs - 2) / hs):.3g}", pair=hs // 2 - 1)
        _cut_factor("inv_freq_pi", pi, lambda cut: pi_inv_freq(right, cut), s, tolerance, whose, rerun)
        raise _mismatch("inv_freq_pi", right_pi, pi, with_factor)

    base = scalar(values, "base_ntk")
    right_base = ntk_base(theta, s, hs)
    if not _agrees(base, right_base, tolerance):
        wrong = {
            "wrong-way": theta / s ** (hs / (hs - 2)),
            "hs": theta * _power(s, hs),
            "1": theta * s,
            "(hs−2)/hs": theta * s ** ((hs - 2) / hs),
        }
        for cause, value in wrong.items():
            if _agrees(base, value, tolerance):
                if cause == "wrong-way":
                    divisor = f"factor^(hs/(hs−2)) = {s ** (hs / (hs - 2)):.4g}"
                    how = f"divides the base by {divisor}, where the rule multiplies it by that, so every pair but the first turns faster"
                    raise Mistake("wrong-way", name="base_ntk", how=how)
                consequence = {
                    "hs": f"With s^hs the base jumps to {value:.3g}: the last pair slows by s^(hs−2), far more than the factor {s:g}.",
                    "1": f"With base·s the last pair is divided by s^((hs−2)/hs) = {s ** ((hs - 2) / hs):.4g}, a little less than the factor {s:g}.",
                    "(hs−2)/hs": (
                        f"With s^((hs−2)/hs) the last pair is divided by s^(((hs−2)/hs)²) = {s ** (((hs - 2) / hs) ** 2):.4g}, less than the factor {s:g}."
                    ),
                }[cause]
                if _agrees(_frequencies(values, "inv_freq_ntk", hs, whose), 1.0 / right_base**exponents, tolerance):  # its effect is not in them
                    consequence = (
                        f"Your inv_freq_ntk is right all the same (its last pair divided by the factor {s:g}): it is not computed from this"
                        " base_ntk, which is wrong and not used. Compute inv_freq_ntk from base_ntk, as the brief asks."
                    )
                raise Mistake("wrong-exponent", cause, name="base_ntk", exponent=cause, consequence=consequence)
        _cut_factor("base_ntk", base, lambda cut: ntk_base(theta, cut, hs), s, tolerance, whose)
        raise _mismatch("base_ntk", right_base, base, with_factor)

    ntk = _frequencies(values, "inv_freq_ntk", hs, whose)
    right_ntk = 1.0 / right_base**exponents
    if not _agrees(ntk, right_ntk, tolerance):
        if _agrees(ntk, right / s, tolerance) or _agrees(ntk, right * s ** (-hs / (hs - 2)), tolerance):
            raise Mistake("uniform-ntk", name="inv_freq_ntk")
        if _agrees(ntk, right * s ** (hs / (hs - 2)), tolerance) or _agrees(ntk, right_base**exponents, tolerance):
            raise Mistake("wrong-way", name="inv_freq_ntk", how="makes the frequencies faster instead of slower")
        mismatch = _mismatch("inv_freq_ntk", right_ntk, ntk, with_factor)
        _overflowed(values, mismatch, ntk, {"rope_theta": theta, "base_ntk": base}, whose)
        raise mismatch


def _overflowed(values: Values, mismatch: Mistake, got: np.ndarray, bases: dict[str, float], whose: str) -> None:
    """Frequencies of float16 arrays that are 0 (or inf, or nan) where a base is past float16's largest number (65504):
    the base is inf in float16, and 1 over a power of it 0. Named as float16's range, beside the figure that is off."""
    largest = float(np.finfo(np.float16).max)
    past = [(name, base) for name, base in bases.items() if base > largest]
    if dtype_roundoff(values, NAMES) < np.finfo(np.float16).eps / 2 or not past or np.all(np.isfinite(got) & (got != 0)):
        return
    name, base = past[0]
    raise Mistake("mismatch", "float16-overflow", **mismatch.fields, input=name, value=f"{base:g}", largest=f"{largest:g}", whose=whose)


def _starter_values(values: Values) -> None:
    """Right arrays on values of the learner's own: the exercise asks its questions of the starter's."""
    changed = {name: scalar(values, name) for name, number in STARTER.items() if scalar(values, name) != number}
    if changed:
        said = " and ".join(f"{name} = {number:g}" for name, number in changed.items())
        starter = " and ".join(f"{name} = {STARTER[name]:g}" for name in changed)
        raise Mistake("bad-value", "changed-starter", name=next(iter(changed)), yours=said, starter=starter)


def _cut_factor(
    name: str, got: np.ndarray | float, built_on: Callable[[float], np.ndarray | float], s: float, tolerance: float, whose: str, rerun: bool = False
) -> None:
    """``got`` built on the factor cut to a whole number (``int(factor)``, ``L_new // L``) or to whole doublings
    (``2 ** int(log2(factor))``): right wherever the factor is whole, or a power of two (the rerun's 1.5 is neither);
    or rounded to one, two or three decimals, right wherever the factor has no more (the second rerun's 40.625 has
    three, the factor-alone rerun's 2.3330078125 ten); or, on a ``rerun``, to any other factor near it, for an array
    (eighths, float16)."""
    cuts = {"a whole number": float(np.floor(s)), "a whole number of doublings (a power of two)": float(2 ** np.floor(np.log2(s)))}
    found = {how: cut for how, cut in cuts.items() if cut != s and cut >= 1 and _agrees(got, built_on(cut), tolerance)}
    if found:  # 1.5 cut either way is 1: both are named
        raise Mistake("mismatch", "cut-factor", name=name, cut=f"{min(found.values()):g}", factor=f"{s:g}", whose=whose, how=" or to ".join(found))
    # rounded to a decimal or two (``round(factor, 1)``): the second rerun's 40.625 becomes 40.6 or 40.62
    for decimals, how in ((1, "one decimal"), (2, "two decimals"), (3, "three decimals")):
        cut = round(s, decimals)
        if cut != s and _agrees(got, built_on(cut), tolerance):
            raise Mistake("mismatch", "rounded-factor", name=name, cut=f"{cut:g}", factor=f"{s:g}", whose=whose, how=how, decimals=decimals)
    # any other value near it that the factor became on the way (eighths, float16, a few whole tokens over a short L): told
    # only on a rerun, where the first run's factor was used as it is (a rule with a power of it is wrong there already),
    # and only of an array, where every pair must agree with that factor (any wrong scalar has one)
    if not rerun or np.ndim(got) == 0:
        return
    used = _factor_used(got, built_on, s)
    if used is not None and abs(used - s) <= NEAR_FACTOR * s and not _agrees(used, s, tolerance) and _agrees(got, built_on(used), tolerance):
        raise Mistake("mismatch", "other-factor", name=name, cut=f"{used:.6g}", factor=f"{s:.6g}", whose=whose)


# How far from the factor a rounding of it goes (eighths of 1.3 is 4 % off); a factor further off is another mistake.
NEAR_FACTOR = 0.1


def _factor_used(got: np.ndarray | float, built_on: Callable[[float], np.ndarray | float], s: float) -> float | None:
    """The factor ``got``'s last entry was divided by: the one array rule built on the factor, PI, is ``built_on(1)``
    over it (the result is checked on every pair by the caller); None where that entry is 0 or not finite."""
    last = float(np.ravel(np.asarray(got, dtype=np.float64))[-1])
    if last == 0 or not np.isfinite(last):
        return None
    return float(np.ravel(np.asarray(built_on(1.0), dtype=np.float64))[-1]) / last


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, NUMPY_ONLY, "inv_freq_pi")
    _judge_run(runs.first)
    second = runs.second(CHANGED)
    for name in ("inv_freq_pi", "base_ntk", "inv_freq_ntk"):
        if np.array_equal(second[name], runs.first[name]):
            raise Mistake("mismatch", "typed", name=name)
    _typed_theta(runs.first, second)
    _held(second, runs.first, "the rerun's")
    _judge_rerun(runs, second, CHANGED)
    uneven = runs.second(UNEVEN)
    _held_to_first_run(runs.first, uneven)
    _held(uneven, runs.first, "the second rerun's")
    judged_on_rerun(lambda: _judge_run(uneven, "the second rerun's", runs.first), UNEVEN)
    _starter_values(runs.first)
    unprinted = [name for name, question in PRINTED.items() if not runs.says(question)]
    if unprinted and _ratios_on_every_run(runs):
        unprinted = []  # computed from other names (rows of one table, copied into the arrays): no typed figure follows a rerun
    if len(unprinted) == 2 and _printed_lines(runs.printed):
        raise _typed_print(runs.first, runs.printed)  # numbers printed, none computed from the frequencies
    if unprinted:
        which = "neither ratio" if len(unprinted) == 2 else f"no ratio of `{unprinted[0]}`"
        raise Mistake("unfinished", which=which)
    if not runs.printed.strip():  # a print of the ratios in the source, and no output: that print never ran
        raise Mistake("unfinished", which="nothing, as its print of the ratios never ran (one inside a function that is never called, say)")
    _judge_print(runs.first, runs.printed)
    _judge_labels(runs.first, runs.printed)
    _judge_divisors(runs.printed)
    _print_follows(runs)
    _typed_lines(runs)
    for changed in ALONE.values():
        alone = runs.second(changed)
        _typed_theta(runs.first, alone, changed)
        _judge_rerun(runs, alone, changed)
    return Passed()


def _judge_rerun(runs: Runs, values: Values, changed: str) -> None:
    """A rerun's arrays, judged as the first run's, a mistake told as that rerun's (``changed``: what it changed)."""
    sized_for_the_first_run(lambda: judged_on_rerun(lambda: _judge_run(values, "the rerun's", runs.first), changed), changed)


def _full_reruns(runs: Runs) -> list[tuple[Values | None, str, str]]:
    """The reruns that change all three inputs, each with what it printed and what it changed: a print's figures are
    held to them alone, as a figure of the width stays, rightly, on a rerun that changes the factor alone."""
    return [rerun for rerun in zip(runs.reruns, runs.reprinted, runs.changed, strict=True) if rerun[2] in (CHANGED, UNEVEN)]


def _ratios_on_every_run(runs: Runs) -> bool:
    """Whether each run printed both ratios, each run's own, as the first run's print is judged, and no line of figures
    the same on a rerun as on the first run: then the print is computed, whatever names its expression uses, since the
    reruns change factor and hs and a typed figure stays (``print("PI ratio: 0.25 at every pair")``, beside a print of
    NTK's ratio, whose last pair is PI's figure)."""
    full = _full_reruns(runs)
    every = [(runs.first, runs.printed), *((values, printed) for values, printed, _ in full)]
    first_lines = {line for line, _ in _printed_lines(runs.printed)}
    if any(first_lines & {line for line, _ in _printed_lines(printed)} for _, printed, _ in full):
        return False
    try:
        for values, printed in every:
            if values is None or not _printed_lines(printed):
                return False
            _judge_print(values, printed)
    except Mistake:
        return False
    return True


def _held(values: Values, first: Values, whose: str) -> None:
    """A rerun's arrays built on a factor, base or width held to a bound of the script's own (``min(factor, 16)``,
    ``max(factor, 2)``, ``min(rope_theta, 6e5)``, ``np.arange(0, min(hs, 256), 2)``): right on the first run, inside the
    bound, wrong on a rerun past it. The value they were built on is read back from them and named where it lies
    strictly between the first run's and the rerun's and, rounded to three significant digits (a bound typed in), still
    gives them; a bound at the first run's own value is the typed value's (``_typed_theta``, ``_held_to_first_run``)."""
    hs, theta, s = count(values, "hs", 4, MAX_WIDTH, even=True), _above_one(values, "rope_theta"), _above_one(values, "factor")
    first_hs, first_theta, first_s = count(first, "hs", 4, MAX_WIDTH, even=True), _above_one(first, "rope_theta"), _above_one(first, "factor")

    def between(held: float, given: float, yours: float) -> bool:
        return min(given, yours) < held < max(given, yours)

    def bound(held: float, given: float, name: str) -> dict[str, str]:
        most = held < given
        return {"bound": "most" if most else "least", "example": f"{'min' if most else 'max'}({name}, {held:.10g})"}

    for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk"):
        shape = np.shape(values[name])
        if len(shape) == 1 and between(2 * shape[0], hs, first_hs):
            raise Mistake(
                "mismatch",
                "held-width",
                name=name,
                shape=shape_text(shape),
                held=2 * shape[0],
                hs=hs,
                wanted=shape_text((hs // 2,)),
                first=first_hs,
                whose=whose,
                **bound(2 * shape[0], hs, "hs"),
            )
    if any(np.shape(values[name]) != (hs // 2,) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk")):
        return  # a shape of another kind: the rerun's judging names it
    tolerance = _tolerance(values, theta, s)
    trained = rope_inv_freq(hs, theta)
    got = {name: np.asarray(values[name], dtype=np.float64) for name in ("inv_freq", "inv_freq_pi", "base_ntk")}
    with np.errstate(all="ignore"):  # a zero or negative entry reads back as no value, which agrees with nothing
        read_back: dict[tuple[str, str], tuple[float, Callable[[float], np.ndarray | float], float, float]] = {
            ("inv_freq", "rope_theta"): (float(got["inv_freq"][1] ** (-hs / 2)) if hs > 2 else theta, lambda t: rope_inv_freq(hs, t), theta, first_theta),
            ("base_ntk", "rope_theta"): (float(got["base_ntk"] / s ** (hs / (hs - 2))), lambda t: ntk_base(t, s, hs), theta, first_theta),
            ("inv_freq_pi", "factor"): (float(trained[0] / got["inv_freq_pi"][0]), lambda c: pi_inv_freq(trained, c), s, first_s),
            ("base_ntk", "factor"): (float((got["base_ntk"] / theta) ** ((hs - 2) / hs)), lambda c: ntk_base(theta, c, hs), s, first_s),
        }
    right: dict[str, np.ndarray | float] = {"inv_freq": trained, "inv_freq_pi": pi_inv_freq(trained, s), "base_ntk": ntk_base(theta, s, hs)}
    for (name, given), (value, built_on, at, yours) in read_back.items():
        if not np.isfinite(value) or value <= 0 or _agrees(got[name], right[name], tolerance):
            continue
        held = float(f"{value:.3g}")
        cut = (np.floor(at), 2 ** np.floor(np.log2(at)), round(at, 1), round(at, 2)) if given == "factor" else ()
        if held not in cut and between(held, at, yours) and _agrees(got[name], built_on(held), tolerance):
            raise Mistake(
                "mismatch",
                "held",
                name=name,
                input=given,
                held=f"{held:.10g}",
                value=f"{at:.10g}",
                first=f"{yours:.10g}",
                whose=whose,
                **bound(held, at, given),
            )


def _held_to_first_run(first: Values, uneven: Values) -> None:
    """The second rerun's arrays built on the first run's values where it goes the other way from the first rerun (a
    wider head, a larger factor, a smaller base): arrays that followed the first rerun but are held to the first run's
    values as a bound (``min(factor, 4)``, ``max(rope_theta, 10000)``, a buffer of 64 pairs)."""
    hs, theta, s = count(uneven, "hs", 4, MAX_WIDTH, even=True), _above_one(uneven, "rope_theta"), _above_one(uneven, "factor")
    first_hs, first_theta, first_s = count(first, "hs", 4, MAX_WIDTH, even=True), _above_one(first, "rope_theta"), _above_one(first, "factor")
    for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk"):
        shape = np.shape(uneven[name])
        if hs > first_hs and shape == (first_hs // 2,):
            raise Mistake("mismatch", "capped-pairs", name=name, shape=shape_text(shape), hs=hs, wanted=shape_text((hs // 2,)), pairs=first_hs // 2)
    if any(np.shape(uneven[name]) != (hs // 2,) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk")):
        return  # a shape of another kind: the second rerun's judging names it
    tolerance = _tolerance(uneven, max(theta, first_theta), max(s, first_s))
    trained = rope_inv_freq(hs, theta)
    if theta < first_theta:
        floored: dict[str, np.ndarray | float] = {"inv_freq": rope_inv_freq(hs, first_theta), "base_ntk": ntk_base(first_theta, s, hs)}
        right: dict[str, np.ndarray | float] = {"inv_freq": trained, "base_ntk": ntk_base(theta, s, hs)}
        for name, held in floored.items():
            got = np.asarray(uneven[name], dtype=np.float64)
            if not _agrees(got, right[name], tolerance) and _agrees(got, held, tolerance):
                raise Mistake("mismatch", "floored-theta", name=name, floor=f"{first_theta:g}", theta=f"{theta:g}")
    if s > first_s:
        capped: dict[str, np.ndarray | float] = {"inv_freq_pi": pi_inv_freq(trained, first_s), "base_ntk": ntk_base(theta, first_s, hs)}
        right = {"inv_freq_pi": pi_inv_freq(trained, s), "base_ntk": ntk_base(theta, s, hs)}
        for name, held in capped.items():
            got = np.asarray(uneven[name], dtype=np.float64)
            if not _agrees(got, right[name], tolerance) and _agrees(got, held, tolerance):
                raise Mistake("mismatch", "capped-factor", name=name, cap=f"{first_s:g}", factor=f"{s:g}")


def _print_follows(runs: Runs) -> None:
    """The ratios printed on each rerun, judged as the first run's print is: a print that shows the ratios on the
    starter's values only (a factor or a width typed into it, beside the arrays) shows other numbers there, and one
    that runs on them only (``if hs == 128:``) shows none."""
    for values, printed, changed in _full_reruns(runs):
        if values is None:
            continue
        if not _printed_lines(printed):  # stdout and stderr both: the first run's print showed the ratios, this one no figure
            said = printed.strip().splitlines()
            shown = f"no figure (only `{said[0] if len(said[0]) <= 40 else said[0][:37] + '…'}`)" if said else "nothing"
            raise Mistake("unfinished", "print-not-on-rerun", yours=_inputs(runs.first), rerun=_inputs(values), shown=shown)
        try:
            _judge_print(values, printed)
        except Mistake as mistake:
            if mistake.cause == "rounded-away":  # the rerun's factor (40.625) makes ratios that a rounding fit for the first run's takes to 0
                continue
            inv_freq, pi, ntk = (np.asarray(values[name], dtype=np.float64) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk"))
            ratios = (*(pi / inv_freq), *(ntk / inv_freq))
            line = str(mistake.fields.get("line") or "") or next(
                (line for line, figures in _printed_lines(printed) if not all(any(_shows(f, float(r)) for r in ratios) for f in figures)),
                _printed_lines(printed)[0][0],
            )
            raise Mistake(
                "unfinished",
                "print-not-following",
                changed=changed,
                line=line if len(line) <= 60 else line[:57] + "…",
                pi=f"{float(pi[0] / inv_freq[0]):.4g}",
                ntk_last=f"{float(ntk[-1] / inv_freq[-1]):.4g}",
            ) from None


# A number as a script prints it: 0.25, 1., .5, 2.5e-05, 25.0% (a whole number, a pair's index or a size, is no figure of a ratio).
PRINTED_NUMBER = re.compile(r"(?<![\d.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?%?")
# Printed digits aside, a ratio computed in float32 may sit this far (relatively) from the float64 one.
PRINT_SLACK = 1e-5


def _printed_figures(text: str) -> tuple[float, float] | None:
    """A printed number as (value, half a unit of its last digit), or None for a whole number."""
    percent = text.endswith("%")
    digits = text.rstrip("%")
    mantissa, _, exponent = digits.lower().partition("e")
    if "." not in mantissa and not exponent:
        return None
    decimals = len(mantissa.partition(".")[2])
    # NumPy prints 1.0 in an array as "1.": exact to its eight digits
    half_unit = 0.5 * 10.0 ** -(decimals if decimals or exponent else 8) * 10.0 ** int(exponent or 0)
    scale = 0.01 if percent else 1.0
    return float(digits.rstrip("%")) * scale, half_unit * scale


def _decimals(number: str) -> int:
    """How many decimals a printed number shows (0 for one in scientific notation, whose digits say its precision)."""
    mantissa, _, exponent = number.rstrip("%").lower().partition("e")
    return 0 if exponent else len(mantissa.partition(".")[2])


def _figures(text: str) -> list[tuple[float, float]]:
    """The figures of a printed text, in order. NumPy prints an array's entries to the decimals its finest entry needs and
    one that needs none as "1.": in an array whose entries show decimals (``np.round(ratio, 1)``: ``[1.  0.9 …]``), such
    an entry is read to those decimals; in one of whole entries alone, to eight (a text without brackets is one array)."""
    groups = [match.span() for match in re.finditer(r"\[[^\[\]]*\]", text)] or [(0, len(text))]
    finest = [max((_decimals(n) for n in PRINTED_NUMBER.findall(text[start:end])), default=0) for start, end in groups]
    figures = []
    for match in PRINTED_NUMBER.finditer(text):
        figure = _printed_figures(match.group())
        if figure is None:
            continue
        decimals = next((d for (start, end), d in zip(groups, finest, strict=True) if start <= match.start() < end), 0)
        if match.group().endswith(".") and decimals:
            figure = (figure[0], 0.5 * 10.0**-decimals)
        figures.append(figure)
    return figures


def _printed_lines(printed: str) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each printed line with the figures on it (a NumPy array wrapped over several lines is one), those with figures only."""
    lines: list[str] = []
    for line in printed.splitlines():
        if lines and lines[-1].count("[") > lines[-1].count("]"):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line.strip())
    figured = [(line, _figures(line)) for line in lines]
    return [(line, figures) for line, figures in figured if figures]


def _rows(line: str, figures: list[tuple[float, float]]) -> list[tuple[str, list[tuple[float, float]]]]:
    """A printed line's rows: each bracketed row of a 2-D array printed on it, with its figures; else the line whole."""
    if line.count("[") < 2:
        return [(line, figures)]
    rows = [(row, _figures(row)) for row in re.findall(r"\[([^\[\]]*)\]", line)]
    return [(row, row_figures) for row, row_figures in rows if row_figures] or [(line, figures)]


def _shows(figure: tuple[float, float], value: float) -> bool:
    printed, half_unit = figure
    return abs(printed - value) <= half_unit + PRINT_SLACK * abs(value)


def _in_order(figures: list[tuple[float, float]], array: np.ndarray) -> bool:
    """Whether the figures are entries of ``array``, in its order (some of them: the first and the last pair, say)."""
    index = 0
    for figure in figures:
        while index < array.size and not _shows(figure, float(array[index])):
            index += 1
        if index == array.size:
            return False
        index += 1
    return True


def _judge_print(values: Values, printed: str) -> None:
    """The brief's last step: the print shows both ratios, new over trained; else what it shows in their place."""
    inv_freq, pi, ntk = (np.asarray(values[name], dtype=np.float64) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk"))
    pi_ratio, ntk_ratio = pi / inv_freq, ntk / inv_freq
    lines = _printed_lines(printed)
    # each row of a printed 2-D array apart (the ratios stacked with inv_freq: round 10 refused it), else each line
    segments = [(line, figures) for whole_line, line_figures in lines for line, figures in _rows(whole_line, line_figures)]
    # a line of ratios holds nothing but entries of the two (a table of both, pair by pair, included)
    ratio_lines = [figures for _, figures in segments if all(any(_shows(f, float(r)) for r in (*pi_ratio, *ntk_ratio)) for f in figures)]
    shown = [f for figures in ratio_lines for f in figures]
    pi_shown = any(_shows(f, float(pi_ratio[0])) for f in shown)
    # the NTK ratio shows where it parts from PI's: pair 0, or any pair before the last
    ntk_shown = any(_shows(f, float(r)) and not _shows(f, float(pi_ratio[0])) for f in shown for r in ntk_ratio)
    instead = {
        "`inv_freq / inv_freq_pi`, the PI ratio upside down (trained over new)": inv_freq / pi,
        "`inv_freq / inv_freq_ntk`, the NTK ratio upside down (trained over new)": inv_freq / ntk,
        "`inv_freq_ntk / inv_freq_pi`, NTK's frequencies over PI's rather than over the trained ones": ntk / pi,
        "`inv_freq_pi / inv_freq_ntk`, PI's frequencies over NTK's rather than over the trained ones": pi / ntk,
        "the frequencies `inv_freq_pi` themselves, not their ratio to `inv_freq`": pi,
        "the frequencies `inv_freq_ntk` themselves, not their ratio to `inv_freq`": ntk,
        "the trained frequencies `inv_freq`": inv_freq,
    }
    if pi_shown and ntk_shown:
        _judge_whole_ratios(printed, {"PI": pi_ratio, "NTK": ntk_ratio}, instead)
        _judge_ntk_past_pair_0(lines, ntk_ratio, float(pi_ratio[0]))
        _judge_ntk_last_pair(lines, segments, ntk_ratio, float(pi_ratio[0]))
        return
    found: list[str] = []
    rounded: list[str] = []
    for line, figures in segments:
        if figures in ratio_lines:
            continue
        what = next((words for words, array in instead.items() if _in_order(figures, array)), None)
        quoted = line if len(line) <= 60 else line[:57] + "…"
        rounding = None if what else _rounded_away(line, {"PI": pi_ratio, "NTK": ntk_ratio})
        if rounding:
            rounded.append(f"`{quoted}` {rounding}")
        found.append(what or (f"`{quoted}` {rounding}" if rounding else f"numbers that are neither ratio (`{quoted}`)"))
    if rounded and len(rounded) == len(found):
        raise _too_rounded(rounded, (pi_ratio, ntk_ratio))
    # every figure 1/factor: the PI ratio, and NTK's at the last pair alone, where the two agree; NTK's where a line names
    # it, or where no line names PI alone and two figures stand for the two (`last pair: 0.25 0.25`)
    said = [{ratio for ratio, rx in NAMED.items() if rx.search(line.lower())} for line, figures in segments if figures in ratio_lines]
    if pi_shown and not found and (any("NTK" in named for named in said) or ({"PI"} not in said and len(shown) >= 2)):
        line = next(line for line, figures in segments if figures in ratio_lines)
        raise Mistake(
            "unfinished",
            "last-pair-only",
            line=line if len(line) <= 60 else line[:57] + "…",
            pi=f"{pi_ratio[0]:.4g}",
            ntk_first=f"{ntk_ratio[0]:.4g}",
        )
    ratio_segments = [line for line, figures in segments if figures in ratio_lines]
    if not pi_shown and not found and ratio_segments and all(_shows(f, 1.0) for f in shown):
        # 1 at every pair is neither PI's ratio nor NTK's past pair 0: a ratio of arrays not yet set (placeholders)
        line = ratio_segments[0]
        raise Mistake(
            "unfinished",
            "all-ones",
            line=line if len(line) <= 60 else line[:57] + "…",
            pi=f"{pi_ratio[0]:.4g}",
            ntk_first=f"{ntk_ratio[0]:.4g}",
            ntk_last=f"{ntk_ratio[-1]:.4g}",
        )
    if not found and ratio_segments:  # one ratio printed alone: quoted as what the print shows
        line = ratio_segments[0]
        found.append(f"the {'PI' if pi_shown else 'NTK'} ratio alone (`{line if len(line) <= 60 else line[:57] + '…'}`)")
    missing = "neither ratio" if not (pi_shown or ntk_shown) else "no NTK ratio" if pi_shown else "no PI ratio"
    raise Mistake(
        "unfinished",
        "not-ratios",
        which=missing,
        shown="; ".join(dict.fromkeys(found)) or "no number with a decimal point",
        pi=f"{pi_ratio[0]:.4g}",
        ntk_first=f"{ntk_ratio[0]:.4g}",
        ntk_last=f"{ntk_ratio[-1]:.4g}",
    )


def _too_rounded(rounded: list[str], ratios: tuple[np.ndarray, ...]) -> Mistake:
    """Prints of the ratios rounded away (:func:`_rounded_away`, each in words), with the decimals that would show them."""
    every = np.concatenate(ratios)
    needed = next(d for d in range(1, 17) if np.all(np.round(every, d) != 0))  # the ratios lie in [1/factor, 1]: none is 0
    return Mistake("unfinished", "rounded-away", shown="; ".join(rounded), decimals=needed, s="" if needed == 1 else "s")


def _rounded_away(line: str, ratios: dict[str, np.ndarray]) -> str:
    """A print of a ratio rounded so far that it shows 0 (``np.round(ratio)``: ``[0. 0. …]``), in words; "" for one of
    other numbers. Its figures are the ratio's entries, in order, each rounded to the decimals the print shows (the
    finest of them), and one at least is 0, which no ratio is: both lie between 1/factor and 1."""
    numbers = [number for number in PRINTED_NUMBER.findall(line) if _printed_figures(number) is not None]
    if any("e" in number.lower() or number.endswith("%") for number in numbers):
        return ""
    decimals = max(map(_decimals, numbers))
    figures = [(float(number), 0.5 * 10.0**-decimals) for number in numbers]
    if not any(value == 0 for value, _ in figures):
        return ""
    for name, ratio in ratios.items():
        pairs, index = [], 0
        for figure in figures:
            while index < ratio.size and not _shows(figure, float(ratio[index])):
                index += 1
            if index == ratio.size:
                break
            pairs.append(index)
            index += 1
        else:
            zero = next(pair for pair, (value, _) in zip(pairs, figures, strict=True) if value == 0)
            at = "" if name == "PI" else f" at pair {zero}"  # PI's ratio is one number at every pair
            return f"is the {name} ratio rounded to {decimals} decimal{'' if decimals == 1 else 's'}: it shows 0{at}, where the ratio is {ratio[zero]:.4g}"
    return ""


def _judge_ntk_past_pair_0(lines: list[tuple[str, list[tuple[float, float]]]], ntk_ratio: np.ndarray, pi_ratio: float) -> None:
    """The NTK ratio shown beyond pair 0, where it is 1 whatever the base (and so is `inv_freq` over a copy of itself):
    a pair between the ends, pair 0 and a later pair on one line, in order (the first and the last, as the brief asks), or
    a later pair in the place where a line printed alike shows pair 0's 1 (a table pair by pair, or the ends a line each)."""
    first = float(ntk_ratio[0])
    later = ntk_ratio[1:]
    for line, figures in lines:
        if any(any(_shows(f, float(r)) for r in later) and not _shows(f, first) and not _shows(f, pi_ratio) for f in figures):
            return
        tails = [figures[start:] for start, figure in enumerate(figures) if _shows(figure, first)]
        if any(not all(_shows(f, first) for f in tail) and _in_order(tail, ntk_ratio) for tail in tails):
            return
        for other, others in lines:
            # one number a line is a row of the same table only where the words say so (the same words, or NTK's name):
            # PI's bare 0.25 printed beside NTK's 1.0 shows no later pair of NTK
            words = _words(other)
            alike = len(others) == len(figures) and (len(figures) > 1 or words == _words(line) != "" or "ntk" in words.lower())
            if not alike or (len(figures) > 1 and all(_shows(f, first) for f in figures)):  # 1 at every pair: no pair 0 alone
                continue
            pairs = list(zip(figures, others, strict=True))
            same_elsewhere = all(_shows(g, f[0]) for f, g in pairs if not _shows(f, first))  # the other ratio's places agree
            if same_elsewhere and any(_shows(f, first) and not _shows(g, first) and any(_shows(g, float(r)) for r in later) for f, g in pairs):
                return
    all_ones = [line for line, figures in lines if len(figures) > 1 and all(_shows(f, first) for f in figures)]
    line = all_ones[0] if all_ones else next(line for line, figures in lines if any(_shows(f, first) for f in figures))
    raise Mistake(
        "unfinished",
        "ntk-all-ones" if all_ones else "ntk-pair-0",
        line=line if len(line) <= 60 else line[:57] + "…",
        ntk_first=f"{first:.4g}",
        ntk_last=f"{ntk_ratio[-1]:.4g}",
    )


def _judge_ntk_last_pair(
    lines: list[tuple[str, list[tuple[float, float]]]],
    segments: list[tuple[str, list[tuple[float, float]]]],
    ntk_ratio: np.ndarray,
    pi_ratio: float,
) -> None:
    """The NTK ratio shown at the last pair, where it divides by exactly the factor (the brief: "the first and the last
    pair"): figures of the NTK ratio, in order, that end at the last pair and show another pair too (the whole ratio, its
    ends, its tail), or the last pair's figure in the place where a line printed alike shows pair 0's 1 (a table pair by
    pair, or the ends a line each, each row of a printed 2-D array a line). A print of pairs 0 to 4 shows NTK's change
    begin, never how far it goes."""
    first, last = float(ntk_ratio[0]), float(ntk_ratio[-1])
    for _, figures in [*lines, *segments]:
        for end, figure in enumerate(figures):
            if not _shows(figure, last):
                continue
            # the figures before it, back as far as they stay in NTK's order (`…, last 0.25, range 0.25..1.0` ends later)
            start = end
            while start > 0 and _in_order(figures[start - 1 : end + 1], ntk_ratio):
                start -= 1
                if not _shows(figures[start], pi_ratio):
                    return
    for line, figures in segments:
        for other, others in segments:
            words = _words(other)
            if len(others) != len(figures) or not (len(figures) > 1 or words == _words(line) != "" or "ntk" in words.lower()):
                continue
            pairs = list(zip(figures, others, strict=True))
            same_elsewhere = all(_shows(g, f[0]) for f, g in pairs if not _shows(f, first))
            if same_elsewhere and any(_shows(f, first) and not _shows(f, last) and _shows(g, last) for f, g in pairs):
                return
    # the furthest pair the print shows of NTK's ratio, where it is not PI's figure
    furthest = [
        (max(pair for pair in range(ntk_ratio.size) if _shows(f, float(ntk_ratio[pair]))), line, f)
        for line, figures in lines
        for f in figures
        if not _shows(f, pi_ratio) and any(_shows(f, float(r)) for r in ntk_ratio)
    ]
    pair, line, figure = max(furthest, key=lambda found: found[0])
    raise Mistake(
        "unfinished",
        "ntk-before-last",
        line=line if len(line) <= 60 else line[:57] + "…",
        pair=pair,
        shown=f"{figure[0]:.4g}",
        last=ntk_ratio.size - 1,
        ntk_last=f"{last:.4g}",
    )


RATIOS = {"PI": ("inv_freq_pi / inv_freq", "inv_freq_pi"), "NTK": ("inv_freq_ntk / inv_freq", "inv_freq_ntk")}
# A line names the ratio it prints: PI, inv_freq_pi, NTK, inv_freq_ntk (not "pair" or "pipe").
NAMED = {ratio: re.compile(rf"(?<![a-z]){ratio.lower()}(?![a-z])") for ratio in RATIOS}


def _whole_prints(printed: str, pairs: int) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each print of a whole array (one figure a pair): a NumPy array (each row of one printed 2-D) or a line of figures,
    with the words of its line; and each column of a table printed pair by pair, a row a pair alike."""
    whole = []
    for line, _ in _printed_lines(printed):
        rows = re.findall(r"\[([^\[\]]*)\]", line) or [line]
        for row in rows:
            figures_of_row = _figures(row)
            if len(figures_of_row) == pairs:
                whole.append((line, figures_of_row))
    rows = _printed_lines(printed)
    start = 0
    while start + pairs <= len(rows):
        table = rows[start : start + pairs]
        if not all(_words(line) == _words(table[0][0]) and len(figures) == len(table[0][1]) for line, figures in table):
            start += 1
            continue
        whole.extend((f"{table[0][0]} … {table[-1][0]}", [figures[column] for _, figures in table]) for column in range(len(table[0][1])))
        start += pairs  # the next table (one ratio a line each, printed one after the other) starts where this one ends
    return whole


def _judge_whole_ratios(printed: str, ratios: dict[str, np.ndarray], instead: dict[str, np.ndarray]) -> None:
    """A ratio printed whole (or pair by pair) is compared with its final value pair by pair.

    Where no print of a ratio agrees at every pair, the print that stands for it (its line names it; else the one left
    when the other ratio's print agrees; else the first print, for PI, as the brief orders them) is named, with the pairs
    where it parts from the final ratio. Prints of other arrays (the frequencies) are let be: a print stands for a ratio
    only if its line names it or its figures lie where ratios and their inverses do, between 1/factor and factor.
    """
    pairs = next(iter(ratios.values())).size
    whole = _whole_prints(printed, pairs)
    shown = {name: any(all(map(_shows, figures, ratio)) for _, figures in whole) for name, ratio in ratios.items()}
    unshown = [name for name, done in shown.items() if not done]
    if not unshown:
        return
    span = max(float(np.max(1 / ratio)) for ratio in ratios.values())
    candidates = [
        (line, figures)
        for line, figures in whole
        if not any(all(map(_shows, figures, ratio)) for ratio in ratios.values())
        and (any(rx.search(line.lower()) for rx in NAMED.values()) or all(_within(f, 1 / span, span) for f in figures))
    ]
    for name in unshown:
        # a line that names both ratios (a table's row) says not which of its prints is which
        names = [{other for other, rx in NAMED.items() if rx.search(line.lower())} for line, _ in candidates]
        named = [c for c, said in zip(candidates, names, strict=True) if said == {name}]
        unnamed = [c for c, said in zip(candidates, names, strict=True) if len(said) != 1]
        # unnamed, the print left over when the other ratio's agrees; else PI's is the first, NTK's the second
        place = 0 if name == "PI" or len(unshown) == 1 else 1
        stand_in = named[0] if named else unnamed[place] if len(unnamed) > place else None
        # NTK's ratio at 1 for every pair is left to _judge_ntk_past_pair_0, which names it as a copy of inv_freq
        if stand_in is not None and not (name == "NTK" and all(_shows(f, 1.0) for f in stand_in[1])):
            rounding = _rounded_away(stand_in[0], {name: ratios[name]})
            if rounding:
                quoted = stand_in[0] if len(stand_in[0]) <= 60 else stand_in[0][:57] + "…"
                raise _too_rounded([f"`{quoted}` {rounding}"], tuple(ratios.values()))
            raise _ratio_off(name, ratios[name], *stand_in, instead)


def _judge_labels(values: Values, printed: str) -> None:
    """A ratio printed whole under the other rule's name (``print("NTK / trained:", inv_freq_pi / inv_freq)``): the
    line names one rule alone (PI, NTK), and its numbers are the other's ratio at every pair. A line that names both (a
    table's row, a comparison) says not which is which."""
    inv_freq, pi, ntk = (np.asarray(values[name], dtype=np.float64) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk"))
    ratios = {"PI": pi / inv_freq, "NTK": ntk / inv_freq}
    for line, figures in _whole_prints(printed, inv_freq.size):
        said = {name for name, rx in NAMED.items() if rx.search(line.lower())}
        shown = [name for name, ratio in ratios.items() if all(map(_shows, figures, ratio))]
        if len(said) == 1 and len(shown) == 1 and said != set(shown):
            raise Mistake(
                "unfinished",
                "mislabelled",
                line=line if len(line) <= 60 else line[:57] + "…",
                said=next(iter(said)),
                shown=shown[0],
                expression=RATIOS[shown[0]][0],
                pi=f"{float(ratios['PI'][0]):.4g}",
                ntk_last=f"{float(ratios['NTK'][-1]):.4g}",
            )


# A printed claim that a rule divides by a number: "PI divides every pair by 0.250" (the number after "by", past "divide").
DIVIDES_BY = re.compile(r"divid\w*(.*)", re.IGNORECASE)
BY_NUMBER = re.compile(rf"\bby\s+({PRINTED_NUMBER.pattern})")


def _typed_lines(runs: Runs) -> None:
    """A line that names a rule (PI, NTK) and writes one of the first run's figures that every rerun changes (the
    factor, its inverse, hs, the number of pairs, the last pair's index), printed the same on a rerun: that figure is
    typed, and says the first run's value where the rerun's is another ("PI divides all 64 pairs by 4")."""
    hs, s = count(runs.first, "hs", 4, MAX_WIDTH, even=True), _above_one(runs.first, "factor")
    figures = {"factor": s, "1 / factor": 1 / s, "hs": hs, "number of pairs": hs // 2, "last pair's index": hs // 2 - 1}
    for values, printed, changed in _full_reruns(runs):
        if values is None:
            continue
        again = set(printed.splitlines())
        for line in runs.printed.splitlines():
            if line not in again or not any(rx.search(line.lower()) for rx in NAMED.values()):
                continue
            for number in PRINTED_NUMBER.findall(line):
                shown = _printed_figures(number) or (float(number), 0.0)
                what = next((what for what, figure in figures.items() if _shows(shown, float(figure))), None)
                if what is not None:
                    line = line.strip()
                    raise Mistake("unfinished", "typed-line", line=line if len(line) <= 60 else line[:57] + "…", number=number, what=what, changed=changed)


def _judge_divisors(printed: str) -> None:
    """A line that says a rule divides by a number below 1: both rules divide every pair by 1 or more (the factor, or
    less than it), so that number is a ratio, new over trained, which the frequencies are multiplied by; divided by
    it, they would turn faster."""
    for line, _ in _printed_lines(printed):
        claim = DIVIDES_BY.search(line)
        for number in BY_NUMBER.findall(claim.group(1)) if claim else ():
            figure = _printed_figures(number)
            if figure is not None and 0 < figure[0] < 1 and not _shows(figure, 1.0):
                raise Mistake(
                    "unfinished",
                    "divides-by-ratio",
                    line=line if len(line) <= 60 else line[:57] + "…",
                    divisor=number,
                    inverse=f"{1 / figure[0]:.4g}",
                )


def _within(figure: tuple[float, float], low: float, high: float) -> bool:
    """Whether a printed figure may be a number from ``low`` to ``high``, its printed digits and PRINT_SLACK allowed."""
    printed, half_unit = figure
    return low * (1 - PRINT_SLACK) - half_unit <= printed <= high * (1 + PRINT_SLACK) + half_unit


def _ratio_off(name: str, ratio: np.ndarray, line: str, figures: list[tuple[float, float]], instead: dict[str, np.ndarray]) -> Mistake:
    """The print of ``name``'s ratio beside the final ratio: the pairs where they part, and what the print is instead."""
    expression, array_name = RATIOS[name]
    off = [pair for pair, (figure, value) in enumerate(zip(figures, ratio, strict=True)) if not _shows(figure, float(value))]
    first = off[0]
    # runs of consecutive pairs, each from its first pair to its last: 1–31, 40
    starts = [pair for pair in off if pair - 1 not in off]
    ends = [pair for pair in off if pair + 1 not in off]
    spans = [f"{start}" if start == end else f"{start}–{end}" for start, end in zip(starts, ends, strict=True)]
    where = "every pair" if len(off) == ratio.size else f"pair{'s' if len(off) > 1 else ''} {', '.join(spans)}"
    what = next((words for words, array in instead.items() if all(map(_shows, figures, array))), None)
    return Mistake(
        "unfinished",
        "ratio-off",
        ratio=name,
        line=line if len(line) <= 60 else line[:57] + "…",
        expression=expression,
        name=array_name,
        where=where,
        pair=first,
        printed=f"{figures[first][0]:.4g}",
        final=f"{ratio[first]:.4g}",
        instead=(
            f"Its numbers are those of {what}: it prints that, or it was made before `{array_name}` held its final frequencies."
            if what
            else f"That print was made before `{array_name}` held its final frequencies (from a copy, or a loop not yet done, say)."
        ),
    )


def _words(line: str) -> str:
    """A printed line's words, its numbers and spacing left out: the same for each row of a table printed pair by pair."""
    return "".join(PRINTED_NUMBER.sub("", line).split())


def _typed_print(values: Values, printed: str) -> Mistake:
    """A print of numbers that no print of the script computes from the frequencies: how each whole print (an array, a
    line of one figure a pair, a table's column) compares with the ratios, and the other lines, alike ones said once."""
    inv_freq, pi, ntk = (np.asarray(values[name], dtype=np.float64) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk"))
    ratios = {"the PI ratio": pi / inv_freq, "the NTK ratio": ntk / inv_freq}
    pairs = inv_freq.size
    said = []
    whole = _whole_prints(printed, pairs)
    labels = [line for line, _ in whole]
    for index, (line, figures) in enumerate(whole):
        quoted = f"`{line if len(line) <= 40 else line[:37] + '…'}`"
        if labels.count(line) > 1:  # a table's columns, each labelled by its first and last row
            quoted = f"column {labels[:index].count(line) + 1} of {quoted}"
        same = [name for name, ratio in ratios.items() if all(map(_shows, figures, ratio))]
        if same:
            said.append(f"{quoted} has the numbers of {same[0]}, typed rather than computed")
            continue
        name = max((sum(map(_shows, figures, ratio)), name) for name, ratio in ratios.items())[1]  # the one it agrees with most: it stands for it
        ratio = ratios[name]
        pair = next(k for k, (figure, value) in enumerate(zip(figures, ratio, strict=True)) if not _shows(figure, float(value)))
        said.append(f"{quoted} is not {name}: at pair {pair} it shows {figures[pair][0]:.4g} where {name} is {ratio[pair]:.4g}")
    # lines printed alike (the same words, as many figures) are said once; a table's rows were read as its columns above
    alike: dict[tuple[str, int], list[str]] = {}
    for line, figures in _printed_lines(printed):
        alike.setdefault((_words(line), len(figures)), []).append(line)
    read_whole = {part for line, _ in whole for part in line.split(" … ")}
    for lines in alike.values():
        if len(lines) >= pairs or lines[0] in read_whole:
            continue
        quoted = f"`{lines[0] if len(lines[0]) <= 40 else lines[0][:37] + '…'}`"
        more = len(lines) - 1
        said.append(f"{quoted} and {more} more line{'s' if more > 1 else ''} like it are neither ratio" if more else f"{quoted} is neither ratio")
    return Mistake("unfinished", "typed-print", shown="; ".join(said))


def _typed_theta(first: Values, second: Values, changed: str = CHANGED) -> None:
    """The rerun's arrays built on the first run's rope_theta or factor rather than the rerun's: a number typed in
    (``changed``: what that rerun changed)."""
    hs, theta, s = count(second, "hs", 4, MAX_WIDTH, even=True), _above_one(second, "rope_theta"), _above_one(second, "factor")
    typed_theta, typed_factor = _above_one(first, "rope_theta"), _above_one(first, "factor")
    tolerance = _tolerance(second, max(theta, typed_theta), max(s, typed_factor))
    right: dict[str, np.ndarray | float] = {"inv_freq": rope_inv_freq(hs, theta), "base_ntk": ntk_base(theta, s, hs)}
    kept: dict[str, np.ndarray | float] = {"inv_freq": rope_inv_freq(hs, typed_theta), "base_ntk": ntk_base(typed_theta, s, hs)}
    for name in right if typed_theta != theta else ():
        got = np.asarray(second[name], dtype=np.float64)
        if not _agrees(got, right[name], tolerance) and _agrees(got, kept[name], tolerance):
            raise Mistake("mismatch", "typed-theta", name=name, typed_theta=f"{typed_theta:g}", rerun_theta=f"{theta:g}", changed=changed)
    trained = rope_inv_freq(hs, theta)
    right = {"inv_freq_pi": pi_inv_freq(trained, s), "base_ntk": ntk_base(theta, s, hs)}
    kept = {"inv_freq_pi": pi_inv_freq(trained, typed_factor), "base_ntk": ntk_base(theta, typed_factor, hs)}
    for name in right if typed_factor != s else ():
        got = np.asarray(second[name], dtype=np.float64)
        if not _agrees(got, right[name], tolerance) and _agrees(got, kept[name], tolerance):
            raise Mistake("mismatch", "typed-factor", name=name, typed_factor=f"{typed_factor:g}", rerun_factor=f"{s:g}", changed=changed)


def hypotheses(values: Values) -> Hypotheses:
    """The four arrays on one run's hs, rope_theta and factor, right and under each mistake the judge names."""
    hs, theta, s = count(values, "hs", 4, MAX_WIDTH, even=True), _above_one(values, "rope_theta"), _above_one(values, "factor")
    exponents = np.arange(0, hs, 2) / hs
    inv_freq = rope_inv_freq(hs, theta)
    base = ntk_base(theta, s, hs)

    def ntk(base_ntk: float) -> dict[str, Figure]:
        return {"base_ntk": base_ntk, "inv_freq_ntk": 1.0 / base_ntk**exponents}

    right: dict[str, Figure] = {"inv_freq": inv_freq, "inv_freq_pi": pi_inv_freq(inv_freq, s), **ntk(base)}
    wrong: dict[str, dict[str, Figure]] = {
        "wrong-way/pi": {"inv_freq_pi": inv_freq * s},
        "pi-on-base": {"inv_freq_pi": 1.0 / (theta * s) ** exponents},
        "wrong-way/ntk": ntk(theta / s ** (hs / (hs - 2))),
        "wrong-exponent/hs": ntk(theta * _power(s, hs)),
        "wrong-exponent/1": ntk(theta * s),
        "wrong-exponent/(hs−2)/hs": ntk(theta * s ** ((hs - 2) / hs)),
        "uniform-ntk/pi": {"inv_freq_ntk": inv_freq / s},
        "uniform-ntk/lowest": {"inv_freq_ntk": inv_freq * s ** (-hs / (hs - 2))},
        # the factor rounded to one decimal: the starter's 4 and the first rerun's 1.5 as they are, the second's 40.625 not
        "rounded-factor": {"inv_freq_pi": pi_inv_freq(inv_freq, round(s, 1)), **ntk(ntk_base(theta, round(s, 1), hs))},
    }
    relative = _tolerance(values, theta, s)
    return Hypotheses.of(right, wrong, {name: relative * float(np.max(np.abs(value))) for name, value in right.items()})


CONTEXT_EXTENSION = Contract(
    names=NAMES,
    reruns=(
        Rerun({"factor": "other_factor(factor)", "hs": "narrower(hs)", "rope_theta": "higher_theta(rope_theta)"}, CHANGED),
        Rerun({"factor": "finer_factor(factor)", "hs": "uneven_width(hs)", "rope_theta": "lower_theta(rope_theta)"}, UNEVEN),
        Rerun({"factor": "factor_of_2048ths(factor)"}, ALONE["factor"]),
        Rerun({"hs": "width_of_no_eighth(hs)"}, ALONE["hs"]),
        Rerun({"rope_theta": "llama3_theta(rope_theta)"}, ALONE["rope_theta"]),
    ),
    judge=judge,
    diagnoses=("bad-value", "wrong-way", "wrong-exponent", "uniform-ntk", "pi-on-base", "mismatch", "unfinished", "changed-input"),
    given=("hs", "rope_theta", "factor"),
    hypotheses=hypotheses,
    typed=("inv_freq_pi", "base_ntk", "inv_freq_ntk"),
    questions=(NUMPY_ONLY, IMPORTS_BY_NAME, *PRINTED.values()),
    described={
        "wrong-way/pi": "frequencies multiplied by the factor",
        "pi-on-base": "the base multiplied by the factor",
        "wrong-way/ntk": "the base divided",
        "wrong-exponent/hs": "the exponent hs",
        "wrong-exponent/1": "the exponent 1",
        "wrong-exponent/(hs−2)/hs": "the exponent (hs−2)/hs",
        "uniform-ntk/pi": "every frequency divided by the factor",
        "uniform-ntk/lowest": "every frequency divided alike",
        "rounded-factor": "the factor rounded to one decimal",
        "typed-inv_freq_pi": "inv_freq_pi typed in",
        "typed-base_ntk": "base_ntk typed in",
        "typed-inv_freq_ntk": "inv_freq_ntk typed in",
        "stale-factor": "a copy of factor made before the checker changed it",
        "stale-rope_theta": "rope_theta typed in (or copied before the checker changed it)",
    },
)
