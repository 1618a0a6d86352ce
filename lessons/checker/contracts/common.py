"""What every contract shares: the two runs of an answer, and comparing figures with hypotheses."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

import numpy as np
from msgspec import Struct, field

from attnpos.lessons.checker.rerun import FINISHED, OPTIONAL
from attnpos.lessons.checker.separation import Hypotheses
from attnpos.lessons.checker.values import Precision, Values
from attnpos.lessons.checker.verdicts import INDISTINCT, RUN_DIAGNOSES, Mistake, Passed, figure_pair, shape_text

T = TypeVar("T")
# Where a figure's right value comes from, filled by the verdict: the learner's own arrays, or a rerun's (judged_on_rerun).
WHOSE = "{whose}"
# ... in a message that has already said the figures are a rerun's.
THAT_RUN = "that run's arrays"


class Rerun(Struct, frozen=True):
    """One more run of the script with some inputs replaced, and what that changes in the learner's words."""

    replacements: dict[str, str]  # name → "function(learner names…)" in lessons/checker/substitutes.py (rerun.OPTIONAL, rerun.FINISHED)
    changed: str  # "`pos` set to an offset that differs from slot to slot"

    @property
    def changed_names(self) -> list[str]:
        """The names whose values this rerun changes (not an optional function it only wraps to note something)."""
        return [name.removesuffix(FINISHED) for name in self.replacements if not name.endswith(OPTIONAL)]


class Question(Struct, frozen=True):
    """A question a judge asks of the script's source (``typed_in("max_diff")``), answered True or False.

    Answered inside the learner's own process, before the script runs, by
    the function of ``rerun.QUESTIONS`` that ``function`` names; the app
    never parses learner source. A contract lists its questions, and the
    first run's request carries them.
    """

    function: str
    arguments: tuple[str | tuple[str, ...], ...]

    def as_json(self) -> list[object]:
        return [self.function, *(list(argument) if isinstance(argument, tuple) else argument for argument in self.arguments)]


# What an answer may take from attnpos: the exercises that teach a computation ask for it written, not borrowed.
NUMPY_ONLY = Question("borrows", ((),))  # anything of attnpos borrowed
NUMPY_AND_SOFTMAX = Question("borrows", (("softmax",),))  # anything but the softmax the starter imports
IMPORTS_BY_NAME = Question("imports_by_name", ())  # importlib, __import__, sys.modules, exec: a name no question can follow
# Asked of every answer, whatever its contract: the narrow float types its source names, narrowest first (values.COMPUTED_IN).
# What a failure says of a rerun that raised after setting every name (its arrays judged, the run failed all the same).
RAISED_AFTER_NAMES = ", raised after every name was set"
COMPUTED_IN_QUESTIONS = ((np.float16, Question("names_float", ("16",))), (np.float32, Question("names_float", ("32",))))


class StarterSizes(Struct, frozen=True):
    """The sizes a starter sets, by value (``{6: "T", 8: "C"}``), and the names its own lines set (left out of the search).

    Each size is a question of its own (``types_number``): whether the
    learner's code writes that number, so that a message about a size typed
    in names the ones the script did type, and only those.
    """

    sizes: dict[int, str]
    kept: tuple[str, ...]
    # A given array of whole numbers by the names of its sizes ({"ids": ("B", "T")}): written out in the script's own
    # lines at that shape, it is a copy of the starter's, whose numbers are no sizes typed in (``types_whole_numbers``).
    copies: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def questions(self) -> tuple[Question, ...]:
        return tuple(Question("types_number", (str(number), self.kept)) for number in self.sizes) + tuple(self._copy_questions().values())

    def _copy_questions(self) -> dict[str, Question]:
        number = {name: str(n) for n, name in self.sizes.items()}
        return {name: Question("types_whole_numbers", (tuple(number[size] for size in shape), self.kept)) for name, shape in self.copies.items()}

    def copied(self, runs: Runs) -> str:
        """The given array the script writes out a copy of ("ids"); "" when it writes none."""
        return next((name for name, question in self._copy_questions().items() if runs.says(question)), "")

    def typed(self, runs: Runs, among: Collection[int] | None = None) -> str:
        """The sizes the script writes as numbers, in words ("6 for T and 8 for C"), only those ``among`` when given; ""
        when it writes none."""
        found = [
            f"{number} for {name}"
            for number, name in self.sizes.items()
            if (among is None or number in among) and runs.says(Question("types_number", (str(number), self.kept)))
        ]
        return " and ".join(found) if len(found) < 3 else ", ".join(found[:-1]) + " and " + found[-1]


class Runs(Struct, frozen=True):
    """An answer as the checker saw it: the script run as written, and once per :class:`Rerun` with other inputs."""

    first: Mapping[str, np.ndarray]
    reruns: tuple[Mapping[str, np.ndarray] | None, ...]  # in the contract's order; None when that rerun could not give the names
    failures: tuple[str, ...]  # why not, in a few words ("" when it could)
    changed: tuple[str, ...]  # each rerun's Rerun.changed
    answers: Mapping[Question, bool]  # what the source says, for each of the contract's questions
    printed: str = ""  # what the script as written printed (stdout and stderr), for a brief that asks for a print
    reprinted: tuple[str, ...] = ()  # what each rerun printed, in the contract's order ("" where it did not run)
    # the names each rerun set, in the contract's order, also those of one that stopped before setting the others
    partial: tuple[Mapping[str, np.ndarray], ...] = ()
    # what each rerun that gave every name raised after setting them, in the contract's order ("" where it ran to its end)
    raised: tuple[str, ...] = ()

    def says(self, question: Question) -> bool:
        """The answer to one of the contract's questions (a KeyError, so a checker error, for one it never asked)."""
        return self.answers[question]

    def second(self, changed: str) -> Mapping[str, np.ndarray]:
        """The values of the rerun that made ``changed``; a Mistake when the script could not be rerun with it."""
        index = self.changed.index(changed)
        values = self.reruns[index]
        if values is None:
            failure = self.failures[index]
            # an assert on the starter's values fails by design once the checker substitutes others: that is the advice;
            # memory running out on the rerun's larger values is no value kept from the first run
            cause = "assert" if failure.startswith("AssertionError") else "memory" if failure.startswith("MemoryError") else ""
            raise Mistake("rerun-failed", cause, changed=changed, failure=failure)
        return values

    @property
    def every(self) -> list[Mapping[str, np.ndarray]]:
        """The first run and every rerun that gave its names."""
        return [self.first, *(values for values in self.reruns if values is not None)]


def refuse_borrowing(runs: Runs, allowed: Question, name: str) -> None:
    """The brief's rule on imports: NumPy (and the starter's softmax, ``allowed`` says) only, each by a plain import."""
    if runs.says(allowed):
        raise Mistake("mismatch", "borrowed", name=name)
    if runs.says(IMPORTS_BY_NAME):
        raise Mistake("mismatch", "imports-by-name", name=name)


class Contract(Struct, frozen=True):
    """The names an exercise's answer must define, its rerun, its judge, and every diagnosis it can give.

    ``hypotheses`` and ``typed`` declare what the judge tells apart (see
    :mod:`separation`): the right computation and each anticipated mistake,
    as figures on one run's inputs, plus "typed-NAME" for each name in
    ``typed``. The ``reruns`` must be chosen so that every pair is far apart
    on the starter's arrays, except the pairs in ``told_by_source``
    (``tests/checker/test_separation.py``); a second rerun only where one is not enough.
    """

    names: tuple[str, ...]
    reruns: tuple[Rerun, ...]
    judge: Callable[[Runs], Passed]
    diagnoses: tuple[str, ...]  # besides passed, the run diagnoses, rerun-failed and indistinct
    hypotheses: Callable[[Values], Hypotheses]
    typed: tuple[str, ...]  # the reported names a typed-in value could stand for
    told_by_source: dict[frozenset[str], str] = field(default_factory=dict)  # pair -> how the judge tells them apart instead
    # Hypotheses the substitutions separate on the starter's arrays but not on every learner's, and that a pass is not
    # held to: a signed max equals the max of |…| whenever the largest entry is positive (named when the arrays show
    # it); a stale copy of constant-offset's perm is the right gap of the learner's own shuffle. No `indistinct` for them.
    seen_only: frozenset[str] = frozenset()
    described: dict[str, str] = field(default_factory=dict)  # hypothesis -> the mistake in the learner's words, for `indistinct`
    questions: tuple[Question, ...] = ()  # what the judge asks of the source (Runs.says)
    # Names a rerun's substitutes set in the script (substitutes.REFUSAL), read back from every run like the names but
    # never asked of the learner: what a run saw that no array of the answer holds.
    probes: tuple[str, ...] = ()
    # The tables (a model's parameters) the script must leave as a rerun gives them even after using them: a training
    # step on the table, or a gradient that is the table under another name (`grad = table` then `grad[:] = 0`), leaves
    # no table for the arrays to agree with. Judged on each rerun that gives them, by the copy it keeps
    # (learner_modules.GIVEN_PREFIX). Inputs changed *before* they are used are `given`'s.
    kept: tuple[str, ...] = ()
    # Inputs the starter gives (of the names): every run keeps a copy of each as the starter's line (or the rerun)
    # gave it, and an answer is judged on those copies, so a script that changes one before using it (`grad_out /= n`,
    # `positions = np.arange(T)`, `hs = 128` again) is judged on the exercise's inputs, not its own.
    given: tuple[str, ...] = ()

    @property
    def changed(self) -> str:
        """What the first rerun changes: the default ``{changed}`` of a message."""
        return self.reruns[0].changed

    @property
    def every_diagnosis(self) -> tuple[str, ...]:
        """Every id a check of this exercise can end in, passed first."""
        return ("passed", *RUN_DIAGNOSES, "rerun-failed", INDISTINCT, *self.diagnoses)


def close(got: np.ndarray, expected: np.ndarray, tolerance: float) -> bool:
    return got.shape == expected.shape and bool(np.max(np.abs(got - expected)) <= tolerance)


def matching(figure: float, hypotheses: dict[str, float], precision: Precision, tolerance: float) -> str | None:
    """The first hypothesis (in the order given) that the learner's figure agrees with."""
    for cause, value in hypotheses.items():
        if precision.agrees(figure, value, tolerance):
            return cause
    return None


def figure_off(label: str, got: str, expected: str, source: str) -> str:
    """The one sentence for a figure that is not what it should be, and where the right one comes from.

    "`inv_freq` pair 63 is 0.0107; from your hs = 128 and rope_theta = 10000
    it should be 0.000115". ``source`` may be ``{whose}``, which the verdict
    fills (your own arrays, or the rerun's).
    """
    return f"{label} is {got}; from {source} it should be {expected}"


def worst_entry(name: str, got: np.ndarray, expected: np.ndarray, source: str = WHOSE) -> dict[str, str]:
    """Where ``got`` is furthest from what the arrays give, in words: ``got`` the difference, ``worst`` the entry.

    "`x[0, 2, 1]` is 0.5123; from your own arrays it should be 0.4621"
    (:func:`figure_off`): the learner's own value beside the right one, so a
    message says what their array holds. Infinite or NaN entries count as
    furthest.
    """
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    if got.shape != expected.shape:  # ``got`` then counts what the shapes are off by, to read as a difference does
        worst = figure_off(f"the shape of `{name}`", shape_text(got.shape), shape_text(expected.shape), source)
        return {"got": _shapes_apart(got.shape, expected.shape), "worst": worst}
    difference = np.nan_to_num(np.abs(got - expected), nan=np.inf)
    index = np.unravel_index(int(np.argmax(difference)), difference.shape)
    at = "[" + ", ".join(str(int(i)) for i in index) + "]" if index else ""
    largest = float(difference[index]) if np.isfinite(difference[index]) else float(np.max(difference, initial=0.0))
    shown_expected, shown_got = figure_pair(float(expected[index]), float(got[index]), least=4)  # as many digits as show the two apart
    return {"got": f"{largest:.3g}", "worst": figure_off(f"`{name}{at}`", shown_got, shown_expected, source)}


def _shapes_apart(got: tuple[int, ...], expected: tuple[int, ...]) -> str:
    """What one shape is off by from another, as "2 along axis 0 and 6 along axis 1", or "1 axis" in their number."""
    if len(got) != len(expected):
        axes = abs(len(got) - len(expected))
        return f"{axes} axis" if axes == 1 else f"{axes} axes"
    apart = [f"{abs(a - b)} along axis {axis}" for axis, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b]
    return ", ".join(apart[:-1]) + " and " + apart[-1] if len(apart) > 1 else apart[0]


def judged_on_rerun(judge: Callable[[], T], changed: str) -> T:
    """``judge()`` on a rerun's values; a mistake it finds says whose arrays its figures come from (``{whose}``)."""
    try:
        return judge()
    except Mistake as mistake:
        fields = {"whose": f"the arrays of the checker's rerun ({changed})", **mistake.fields}
        raise Mistake(mistake.diagnosis, mistake.cause, **fields) from None


def sized_for_the_first_run(judge: Callable[[], T], changed: str) -> T:
    """``judge()`` on a rerun whose inputs changed size: an array still of the first run's shape was sized by numbers typed in."""
    try:
        return judge()
    except Mistake as mistake:
        if mistake.diagnosis == "bad-shape" and {"name", "shape", "wanted"} <= set(mistake.fields):
            fields = {key: mistake.fields[key] for key in ("name", "shape", "wanted")}
            raise Mistake("mismatch", "unrelated-shape", **fields, changed=changed) from None
        raise


def sized_for_the_starter(runs: Runs, sizes: StarterSizes, mistake: Mistake, changed: str, failed: str = "rerun-failed") -> None:
    """A rerun that changed the sizes went wrong where a size typed in would make it: raise that, naming what was typed.

    ``typed-copy`` when the script writes out a copy of one of the given
    arrays (``{copied}``: which), ``typed-size`` when it writes one of the starter's sizes as a
    number (``{typed}``: which), else ``sized``, as ``failed`` (the
    exercise's diagnosis for a rerun stopped by what was typed in) when the
    run failed and a ``mismatch`` when it gave arrays that do not fit;
    ``{what}`` says what went wrong on the rerun. Returns (the caller
    re-raises ``mistake``) for a mistake no size explains: an assert of the
    learner's own, or one that names nothing.
    """
    fields = mistake.fields
    if mistake.diagnosis == "rerun-failed" and not mistake.cause:
        what = f"that run failed: {fields['failure']}"
    elif mistake.diagnosis in ("bad-shape", "mismatch") and {"name", "shape", "wanted"} <= set(fields):
        what = f"`{fields['name']}` still had shape {fields['shape']} where that run needs {fields['wanted']}"
    elif mistake.diagnosis != "rerun-failed" and "worst" in fields:
        what = f"there {str(fields['worst']).replace(WHOSE, THAT_RUN)} (off by {fields['got']})"
    elif mistake.diagnosis != "rerun-failed" and {"name", "got", "expected"} <= set(fields):
        what = f"there your `{fields['name']}` was {fields['got']} where that run's arrays give {fields['expected']}"
    else:
        return
    diagnosis = failed if mistake.diagnosis == "rerun-failed" else "mismatch"
    copied = sizes.copied(runs)
    if copied:  # the starter's array written out: its numbers, a 2 among them, are no size typed in
        raise Mistake(diagnosis, "typed-copy", copied=copied, what=what, changed=changed, name=fields.get("name", "")) from None
    typed = sizes.typed(runs)
    if {"shape", "wanted"} <= set(fields):  # a size that stayed in the shape: only those are named (a 10 typed for B·T is no V)
        stale = {
            int(got) for got, wanted in zip(re.findall(r"\d+", str(fields["shape"])), re.findall(r"\d+", str(fields["wanted"])), strict=False) if got != wanted
        }
        typed = sizes.typed(runs, stale) or typed
    raise Mistake(diagnosis, "typed-size" if typed else "sized", typed=typed, what=what, changed=changed, name=fields.get("name", "")) from None


def figure_mistake(diagnosis: str, cause: str, name: str, expected: float, got: float, rerun: bool = False) -> Mistake:
    """A figure that is not what the arrays give, both shown with the digits that differ.

    ``rerun``: the figures are the rerun's, and ``{yours}`` says so ("with the
    checker's rerun, your max_diff is 2.3"); else they are the learner's own.
    """
    shown_expected, shown_got = figure_pair(expected, got)
    yours = f"with the checker's rerun ({{changed}}), your {name} is {shown_got}" if rerun else f"your {name} ({shown_got})"
    # {off}: the whole sentence, as every figure that is off is told (figure_off)
    label = f"with the checker's rerun ({{changed}}), your `{name}`" if rerun else f"your `{name}`"
    off = figure_off(label, shown_got, shown_expected, THAT_RUN if rerun else "your arrays")
    return Mistake(diagnosis, cause, name=name, expected=shown_expected, got=shown_got, yours=yours, off=off, run="the rerun's" if rerun else "your")


def first_reading(readings: tuple[np.ndarray, ...], judge: Callable[[np.ndarray], Passed]) -> Passed:
    """Judge with each reading of perm (a permutation matrix has two); the first that passes wins, else the first's mistake."""
    first: Mistake | None = None
    for perm in readings:
        try:
            return judge(perm)
        except Mistake as mistake:
            first = first or mistake
    assert first is not None
    raise first


def follows_scaling(first: float, rerun: float, scale: float, noise: float) -> bool:
    """Whether a rounding-noise figure moved with the value matrix, as gaps between outputs must.

    Scaling Wv by a power of two scales every output, so an honest noise
    figure comes back about ``scale`` times larger (exactly, unless the
    arithmetic took another path; a factor of 16 either way allows for
    that); a typed or copied figure comes back unchanged. A figure that was
    exactly 0 must stay within the rerun's ``noise``.
    """
    if first == 0:
        return 0 <= rerun <= noise
    return rerun == 0 or scale / 16 <= rerun / first <= scale * 16


def zero_weight(bias: np.ndarray, scores: np.ndarray | float = 0.0) -> np.ndarray:
    """(..., T, T) the keys softmax(scores + bias) gives a weight of exactly 0 in float64: the one rule for a mask in
    alibi and t5-buckets. −inf, or a number so far below its row's largest that its exponential underflows (−1e4 or
    −1e9 at any score these exercises draw; not −100, whose e^−100 is no 0)."""
    total = scores + bias
    top = np.max(np.where(np.isfinite(total), total, -np.inf), axis=-1, keepdims=True)  # (..., T, 1)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.isneginf(bias) | (np.exp(total - top) == 0)
