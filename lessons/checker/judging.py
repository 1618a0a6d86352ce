"""From a check's runs to a verdict: what each run reads of its script, and judging what they gave.

A check is the script run as written and once per rerun of its contract,
all at once (lessons/checker/engine.py runs them), so it costs about one
run's time. Each run's learner process reads its own script first (the
first answers the contract's questions about the source, each rerun
rewrites it: lessons/checker/rerun.py); nothing here parses learner
source. Run diagnoses (the script did not run, a name is missing) come from
the first run alone; the contract's judge sees every run.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
from msgspec import Struct
from msgspec.structs import replace

from attnpos.lessons.checker.contracts import CONTRACTS, Contract, Question, Runs
from attnpos.lessons.checker.contracts.common import COMPUTED_IN_QUESTIONS, RAISED_AFTER_NAMES
from attnpos.lessons.checker.learner_modules import GIVEN_PREFIX, READING_MODULE
from attnpos.lessons.checker.plans import Plan
from attnpos.lessons.checker.rerun import GIVEN, UNCHANGED
from attnpos.lessons.checker.separation import COARSEST_ROUNDOFF, RIGHT, TYPED, Hypotheses, every_reading, indistinct, unseparated
from attnpos.lessons.checker.values import COMPUTED_IN, MAX_ELEMENTS, too_large
from attnpos.lessons.checker.verdicts import CHECKER_ERROR, ExerciseSpec, Mistake, Passed, Verdict, render, shape_text
from attnpos.lessons.sandbox import ConfinementUnavailable, Reading, RunResult, ScriptRefused, printable

SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")  # Python could not read the script: nothing ran


def plan(exercise: ExerciseSpec) -> Plan:
    """The runs that check an answer to ``exercise``: the script as written, then once per rerun of its contract."""
    contract = CONTRACTS[exercise.contract]
    asked = (*contract.questions, *(question for _, question in COMPUTED_IN_QUESTIONS))
    kept_as_given = {name + GIVEN: f"{UNCHANGED}({name})" for name in contract.given}
    first = Reading(READING_MODULE, questions=tuple(question.as_json() for question in asked), rewrite=kept_as_given or None, lines_kept=bool(kept_as_given))
    reruns = (Reading(READING_MODULE, rewrite=_rerun_rewrite(contract, planned.replacements)) for planned in contract.reruns)
    copies = dict.fromkeys(GIVEN_PREFIX + name for name in (*contract.kept, *contract.given))
    return Plan((*contract.names, *contract.probes, *copies), (first, *reruns))


def _rerun_rewrite(contract: Contract, replacements: Mapping[str, str]) -> dict[str, str]:
    """A rerun's replacements as its reading takes them: each given input marked (rerun.GIVEN), and every given input
    it does not replace kept unchanged, so that the rerun keeps a copy of each as given."""
    marked = {name + GIVEN if name in contract.given else name: call for name, call in replacements.items()}
    return {**marked, **{name + GIVEN: f"{UNCHANGED}({name})" for name in contract.given if name not in replacements}}


def judge(exercise: ExerciseSpec, first: Callable[[], RunResult], reruns: Sequence[Callable[[], RunResult]]) -> Verdict:
    """The verdict on a check's ended runs, each given as what returns its result (or raises the sandbox's failure).

    A failure of the checker's own is a ``checker-error`` verdict, never
    raised; :class:`ScriptRefused` and :class:`ConfinementUnavailable` from
    the first run are raised (the file, or the machine, is at fault).
    """

    def verdict() -> Verdict:
        run = first()
        return judge_runs(exercise, run, [_rerun_result(result) for result in reruns])

    return _guarded(exercise, verdict)


def _rerun_result(result: Callable[[], RunResult]) -> RunResult | str:
    """A rerun's result, or why the sandbox could not make it."""
    try:
        return result()
    except (OSError, RuntimeError) as error:  # the sandbox could not start the run
        return f"the sandbox could not rerun it ({error})"


def checker_error(exercise: ExerciseSpec, error: BaseException) -> Verdict:
    """The verdict for a failure of the checker's own code: a bug of attnpos, never the learner's."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    text = printable(f"{type(error).__name__}: {str(error)[:200]}{where}")
    return Verdict(exercise.id, False, CHECKER_ERROR, render(exercise, CHECKER_ERROR, error=text), {"error": text})


def _guarded(exercise: ExerciseSpec, judge: Callable[[], Verdict]) -> Verdict:
    """``judge()``, or a ``checker-error`` verdict if it raises (a bug in a judge, a sandbox fault)."""
    try:
        return judge()
    except (ConfinementUnavailable, ScriptRefused):
        raise
    except Exception as error:
        return checker_error(exercise, error)


class ReadingFailed(RuntimeError):
    """The checker's reading of a script failed in the learner's process: a fault of the checker's, said as one."""


def _rerun_values(rerun: RunResult | str, names: tuple[str, ...]) -> tuple[dict[str, np.ndarray] | None, str]:
    """The rerun's values if it gave every name, else None and why not."""
    if isinstance(rerun, str):
        return None, rerun
    if rerun.status == "reading-failed":
        raise ReadingFailed(rerun.detail)
    if rerun.status == "not-rewritten":
        return None, rerun.detail
    unread = [name for name in names if name not in rerun.values]
    if unread:
        if rerun.error:  # the script stopped at the error: the names it sets further down were never reached
            return None, f"{rerun.error.type}: {rerun.error.message} (the rerun stopped there, before the line that sets `{unread[0]}`)"
        return None, f"{rerun.detail} (`{unread[0]}` was never set)"
    oversized = [name for name in names if rerun.values[name].size > MAX_ELEMENTS]
    if oversized:
        return None, f"`{oversized[0]}` came out larger than the checker judges"
    return dict(rerun.values), ""


def _error_cause(kind: str, message: str) -> str:
    """Which family of error, so the advice follows it (the sentences are verdicts.PROBLEMS' and the exercise's)."""
    if kind in ("ModuleNotFoundError", "ImportError"):
        return "import"
    if kind in ("NameError", "UnboundLocalError"):
        return "name"
    if kind == "IndexError":
        # out[4] on a (1, 6, 8) array: the batch axis of one comes first
        if re.search(r"axis 0 with size 1\b", message):
            return "batch-axis"
        # floats as indices (np.add.at's arguments swapped, ids made with / …): not a position past the end
        return "index-type" if re.search(r"must be of integer|only integers, slices", message) else "index"
    if kind == "NotImplementedError":
        return "not-implemented"
    if kind == "KeyError":
        return "key"
    if kind == "TypeError":
        return "arguments" if "argument" in message else "type"
    if kind == "ValueError":
        if _unequal_row_ranges(message):
            return "row-ranges"
        if _axes_reordered(message):
            return "axes-order"
        return "shapes" if any(word in message for word in ("shape", "broadcast", "dimension", "axis")) else "value"
    if kind == "RecursionError":
        return "recursion"
    if kind == "AttributeError":
        return "attribute"
    if kind == "ZeroDivisionError":
        return "zero-division"
    return ""


def _axes_reordered(message: str) -> bool:
    """Two shapes with the same sizes in another order ("shapes (12,7,7) (7,7,12)"): an axis put last that belongs first."""
    found = re.search(r"broadcast together with shapes \(([\d,]+)\) \(([\d,]+)\)", message)
    if not found:
        return False
    first, second = (tuple(int(n) for n in group.split(",") if n) for group in found.groups())
    return len(first) > 1 and first != second and sorted(first) == sorted(second)


def _unequal_row_ranges(message: str) -> bool:
    """Two tables of one width but unequal numbers of rows ("shapes (9,8) (8,8)"): two slices of unequal length, pe[k:] - pe[:-k-1]."""
    found = re.search(r"broadcast together with shapes \((\d+),(\d+)\) \((\d+),(\d+)\)", message)
    if not found:
        return False
    rows_a, width_a, rows_b, width_b = (int(n) for n in found.groups())
    return width_a == width_b and rows_a != rows_b and min(rows_a, rows_b) > 1


# The learner's own raise or assert: its type is the learner's choice, so the advice is about that choice, not the type.
OWN_RAISE = re.compile(r"(raise|assert)\b")
TYPES_THEIR_OWN_RAISE_KEEPS = ("NotImplementedError", "ValueError", "IndexError", "KeyError")


# A failed allocation at least this large is the mistake itself (a shape typed with too many zeros); a smaller one
# failed because memory had already been used up, little by little. The exercises' arrays are a few KiB.
ONE_HUGE_ALLOCATION_MIB = 256.0
_UNITS_MIB = {"B": 2.0**-20, "KiB": 2.0**-10, "MiB": 1.0, "GiB": 2.0**10, "TiB": 2.0**20, "PiB": 2.0**30, "EiB": 2.0**40}


def _allocated_mib(message: str) -> float:
    """The size NumPy could not allocate ("Unable to allocate 358. GiB for an array …"); infinite when the message does not say."""
    found = re.search(r"Unable to allocate ([\d.]+) ?([KMGTPE]?i?B)", message)
    return float(found.group(1)) * _UNITS_MIB.get(found.group(2), 1.0) if found else float("inf")


def _syntax_cause(kind: str, message: str) -> str:
    """Which kind of unreadable line: indentation, a Python 2 print, an unclosed bracket or string, a missing colon."""
    if kind in ("IndentationError", "TabError"):
        return "indent"
    if "Missing parentheses in call to 'print'" in message:
        return "print"
    if any(words in message for words in ("was never closed", "unexpected EOF", "unterminated", "EOF while scanning")):
        return "unclosed"
    if "expected ':'" in message:
        return "colon"
    return "other"


def judge_runs(exercise: ExerciseSpec, run: RunResult, reruns: Sequence[RunResult | str]) -> Verdict:
    """Turn the runs into a verdict, most fundamental mistake first (a rerun the sandbox could not make: why not)."""
    contract = CONTRACTS[exercise.contract]
    if run.status == "reading-failed":
        raise ReadingFailed(run.detail)
    run = _given_where_deleted(contract, run)
    reruns = [_given_where_deleted(contract, rerun) if isinstance(rerun, RunResult) else rerun for rerun in reruns]

    def verdict(diagnosis: str, cause: str = "", **details: object) -> Verdict:
        line = details.pop("line", None)
        changed = str(details.get("changed") or contract.changed)
        # {whose}: where a mistake's figures come from, the learner's own arrays unless the rerun's judge said otherwise
        whose = str(details.get("whose") or "your own arrays")
        details = {key: value.replace("{changed}", changed).replace("{whose}", whose) if isinstance(value, str) else value for key, value in details.items()}
        message = render(exercise, diagnosis, cause, **{"changed": changed, "line": line, "whose": whose, **details})
        clean = {k: v for k, v in details.items() if v not in (None, "")}
        if cause:
            clean["cause"] = cause
        return Verdict(exercise.id, diagnosis == "passed", diagnosis, message, clean, line if isinstance(line, int) else None, run.stdout, run.confinement)

    if run.status == "timeout":
        return verdict("timeout", detail=run.detail)
    if run.status == "memory":
        if run.error is not None and run.error.line is not None:  # a MemoryError raised on a line
            cause = "growing" if _allocated_mib(run.error.message) < ONE_HUGE_ALLOCATION_MIB else "allocation"
            return verdict("memory", cause, line=run.error.line, error=f"{run.error.type}: {run.error.message}", source_line=run.error.source_line)
        return verdict("memory", "killed", detail=run.detail)
    if run.status in ("crash", "cancelled"):
        return verdict("crash", detail=run.detail, signal=run.signal, exit_code=run.exit_code)
    if run.status == "error" and run.error is not None:
        error = run.error
        diagnosis = "syntax-error" if error.type in SYNTAX_ERRORS else "error"
        cause = _syntax_cause(error.type, error.message) if diagnosis == "syntax-error" else _error_cause(error.type, error.message)
        if diagnosis == "error" and error.type not in TYPES_THEIR_OWN_RAISE_KEEPS and OWN_RAISE.match((error.source_line or "").strip()):
            cause = "own-raise"
        if cause in ("row-ranges", "axes-order") and f"error/{cause}" not in exercise.messages:
            cause = "shapes"  # unequal rows, axes reordered: an exercise's own case (pe[k:] - pe[:-k-1]); elsewhere its shape advice fits
        return verdict(diagnosis, cause, line=error.line, error=f"{error.type}: {error.message}", source_line=error.source_line)
    for name in contract.names:
        if name in run.missing:
            return verdict("missing-name", name=name)
        if name in run.bad_types and name not in run.oversized:
            got = run.bad_types[name]
            return verdict("bad-type", "none" if got == "NoneType" else "not-numeric", name=name, got=got)
        oversized = run.oversized.get(name) or (run.values[name].shape if run.values[name].size > MAX_ELEMENTS else None)
        if oversized is not None:  # the judge's own budget (or the read-back's), whatever the array is used for
            mistake = too_large(name, oversized)
            return verdict(mistake.diagnosis, mistake.cause, **mistake.fields)
    outcomes = [_rerun_values(rerun, contract.names) for rerun in reruns]
    computed_in = _computed_in(contract, run.answers)
    if computed_in and not _narrow_type_shows(contract, [run.values, *(values for values, _ in outcomes)]):
        computed_in = {}  # a float16 copy only printed, or a side figure: the names read are exact in their own types
    runs = Runs(
        {**run.values, **computed_in},
        tuple(None if values is None else {**values, **computed_in} for values, _ in outcomes),
        tuple(failure for _, failure in outcomes),
        tuple(planned.changed for planned in contract.reruns),
        _answers(contract, run.answers),
        run.stdout,
        tuple(rerun.stdout if isinstance(rerun, RunResult) else "" for rerun in reruns),
        tuple(rerun.values if isinstance(rerun, RunResult) else {} for rerun in reruns),
        tuple(_raised_after_its_names(rerun) if values is not None else "" for rerun, (values, _) in zip(reruns, outcomes, strict=True)),
    )
    changes = _given_inputs_changed(contract, [run.values, *(rerun.values if isinstance(rerun, RunResult) else None for rerun in reruns)])
    as_given = _as_given(runs, changes)
    try:
        with np.errstate(all="ignore"):
            if any(change.run and runs.reruns[change.run - 1] is None for change in changes):
                raise _changed_before_use(changes, contract)  # the rerun failed on what the script did to its input
            try:
                outcome: Passed = contract.judge(as_given)
            except Mistake as mistake:
                # the change, not another mistake, is what fails it: as left, the judge finds no mistake or another, or the
                # array it blames fits the input as the script left it (`ids` sorted between the gradient and the lookup)
                if changes and (_other_mistake(contract, runs, mistake) or _blamed_fits_as_left(contract, runs, as_given, changes[0].name, mistake)):
                    raise _changed_before_use(changes, contract, _which_fit(contract, runs, as_given, changes[0].name)) from None
                if mistake.diagnosis == "unfinished":  # every array right: arrays that tell nothing, or a rerun that failed, come first
                    _require_separation(contract, as_given)
                    _require_reruns_ended(contract, reruns)
                raise
            runs = as_given
            _require_separation(contract, runs)
            _require_reruns_ended(contract, reruns)
            _require_inputs_kept(contract, reruns)  # every array agrees: but with the inputs as the script left them?
    except Mistake as mistake:
        return verdict(mistake.diagnosis, mistake.cause, **mistake.fields)
    except Exception as error:  # a bug in a judge: never the learner's fault, and never passed off as theirs
        return replace(checker_error(exercise, error), output=run.stdout, confinement=run.confinement)
    return verdict("passed", outcome.cause)


def _given_where_deleted(contract: Contract, result: RunResult) -> RunResult:
    """``result`` with each given input the script deleted (``del grad_out`` once done with it) as it was given."""
    deleted = [name for name in contract.given if name in result.missing and GIVEN_PREFIX + name in result.values]
    if not deleted:
        return result
    values = {**result.values, **{name: result.values[GIVEN_PREFIX + name] for name in deleted}}
    return replace(result, values=values, missing=tuple(name for name in result.missing if name not in deleted))


class _Change(Struct, frozen=True):
    """A given input the script changed: on which run (0 the first), its name, its copy as given, as the script left it,
    and which entries moved (None where the two hold other numbers of entries)."""

    run: int
    name: str
    given: np.ndarray
    left: np.ndarray
    moved: np.ndarray | None


def _moved(given: np.ndarray, left: np.ndarray) -> np.ndarray | None:
    """Which entries of ``left`` are not ``given``'s (flat), to the rounding of the type ``left`` is in; None when the
    two cannot be told apart as numbers (not numbers, or another size: judged as the names are)."""
    if given.size != left.size or given.dtype.kind not in "biuf" or left.dtype.kind not in "biuf":
        return None
    before, after = given.reshape(-1).astype(np.float64), left.reshape(-1).astype(np.float64)
    roundoff = np.finfo(left.dtype).eps if left.dtype.kind == "f" else 0.0
    return np.abs(after - before) > roundoff * np.maximum(np.abs(before), 1.0)


def _given_inputs_changed(contract: Contract, every_run: Sequence[Mapping[str, np.ndarray] | None]) -> list[_Change]:
    """Each given input that a run's script left other than it was given (the values each run read back, a failed
    rerun's too): other numbers, or another number of them (a reshape, or a narrower float type, changes nothing)."""
    changes = []
    for index, values in enumerate(every_run):
        if values is None:
            continue
        for name in contract.given:
            given, left = values.get(GIVEN_PREFIX + name), values.get(name)
            if given is None or left is None:
                continue
            moved = _moved(given, left)
            if (moved is None and given.size != left.size) or (moved is not None and np.any(moved)):
                changes.append(_Change(index, name, given, left, moved))
    return changes


def _as_given(runs: Runs, changes: Sequence[_Change]) -> Runs:
    """``runs`` with each changed input as it was given: what the answer's arrays are judged against."""
    if not changes:
        return runs
    every = [dict(runs.first), *(None if values is None else dict(values) for values in runs.reruns)]
    for change in changes:
        values = every[change.run]
        if values is not None:  # a rerun that failed gave no names to judge
            values[change.name] = change.given
    return replace(runs, first=every[0], reruns=tuple(every[1:]))


def _other_mistake(contract: Contract, runs: Runs, mistake: Mistake) -> bool:
    """Whether the judge, on the inputs as the script left them, passes the answer or finds another mistake than on
    the inputs as given: then the script's change of an input is what makes its arrays wrong. A rerun whose every
    input the script set back to the first run's (`hs, factor = 128, 4.0` again below the starter's lines) is no rerun
    as left, whose arrays could show that they follow their inputs: the judge sees it as one that gave no names."""
    first = [runs.first.get(name) for name in contract.given]
    undone = [
        values is not None and all(np.array_equal(np.asarray(values.get(name)), np.asarray(kept)) for name, kept in zip(contract.given, first, strict=True))
        for values in runs.reruns
    ]
    if any(undone):
        reruns = tuple(None if reset else values for values, reset in zip(runs.reruns, undone, strict=True))
        failures = tuple("its inputs were set back to the first run's" if reset else failure for failure, reset in zip(runs.failures, undone, strict=True))
        runs = replace(runs, reruns=reruns, failures=failures)
    try:
        contract.judge(runs)
    except Mistake as left:
        return (left.diagnosis, left.cause) != (mistake.diagnosis, mistake.cause)
    return True


def _blamed_fits_as_left(contract: Contract, left: Runs, given: Runs, name: str, mistake: Mistake) -> bool:
    """Whether the array ``mistake`` names fits input ``name`` as the script left it and not as given (:func:`_fitting`)."""
    fitting = _fitting(contract, left, given, name)
    return fitting is not None and mistake.fields.get("name") in fitting[0]


def _fitting(contract: Contract, left: Runs, given: Runs, name: str) -> tuple[dict[str, int], dict[str, int], dict[str, int]] | None:
    """Which of the answer's arrays fit input ``name`` as the script left it, which as given, and which neither, each by
    the first run it was found so on (0 the script's own): each array checked against the right figures (the contract's
    hypotheses) of both, on every run where the two differ. None where the changed input no longer fits the others."""
    fits_left: dict[str, int] = {}
    fits_given: dict[str, int] = {}
    fits_neither: dict[str, int] = {}
    every = [left.first, *left.reruns], [given.first, *given.reruns]
    for run, (as_left, as_given) in enumerate(zip(*every, strict=False)):
        if as_left is None or as_given is None or np.array_equal(np.asarray(as_left[name]), np.asarray(as_given[name])):
            continue
        try:
            right_left, right_given = contract.hypotheses(as_left), contract.hypotheses(as_given)
        except Mistake:
            return None  # nothing to check the arrays against
        for reported in right_given.figures[RIGHT]:
            got, tol = np.asarray(as_left[reported], dtype=np.float64), right_given.tolerance[reported]
            near_left, near_given = (_agrees(got, np.asarray(figures[reported]), tol) for figures in (right_left.figures[RIGHT], right_given.figures[RIGHT]))
            if near_left and not near_given:
                fits_left.setdefault(reported, run)
            elif near_given and not near_left:
                fits_given.setdefault(reported, run)
            elif not near_left and got.shape == np.shape(right_given.figures[RIGHT][reported]):
                fits_neither.setdefault(reported, run)
    return fits_left, fits_given, fits_neither


def _which_fit(contract: Contract, left: Runs, given: Runs, name: str) -> str:
    """Which of the answer's arrays fit input ``name`` as the script left it, which as given, and which neither, in words
    (:func:`_fitting`), naming the rerun where that is not the script's own run. Arrays computed before the change
    (`x = add_positions(...)`, then `grad_wpe = wpe; grad_wpe[:] = 0`) fit the one given; an array of no right figure's
    shape (a refusal's empty one) fits neither and is not named."""
    fitting = _fitting(contract, left, given, name)
    if fitting is None:
        return ""  # the changed input no longer fits the others: nothing to check the arrays against
    fits_left, fits_given, fits_neither = fitting
    fits_given = {reported: run for reported, run in fits_given.items() if reported not in fits_left and reported not in fits_neither}
    fits_neither = {reported: run for reported, run in fits_neither.items() if reported not in fits_left}
    named = fits_left or fits_neither
    if not named:
        return ""
    runs = set(named.values())  # the rerun they were found so on, said where they all were on the same one
    where = f"on the checker's rerun with {contract.reruns[min(runs) - 1].changed}, " if len(runs) == 1 and min(runs) else ""
    fit = (
        f"{_fit(list(named))} that changed `{name}`, not the one the exercise gives"
        if fits_left
        else f"{_fit(list(named))} neither it nor that changed `{name}`"
    )
    if fits_given:
        return f"Your {_listed(list(fits_given))} {_fit(list(fits_given))} `{name}` as given, but {where}your {_listed(list(named))} {fit}."
    if not fits_left:
        fit = f"{_fit(list(named))} neither `{name}` as given nor that changed `{name}`"
    sentence = f"{where}your {'arrays' if fits_left and len(named) > 1 else _listed(list(named))} {fit}."
    return sentence[0].upper() + sentence[1:]


def _agrees(got: np.ndarray, expected: np.ndarray, tolerance: float) -> bool:
    return got.shape == expected.shape and bool(np.all(np.abs(got - expected.astype(np.float64)) <= tolerance))


def _listed(names: Sequence[str]) -> str:
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _fit(names: Sequence[str]) -> str:
    return "fits" if len(names) == 1 else "fit"


def _changed_before_use(changes: Sequence[_Change], contract: Contract, fits: str = "") -> Mistake:
    """The mistake of an answer right for inputs it changed: the first change, in the script's own run if it shows
    there; ``fits`` says which arrays fit the changed input and which the one given (:func:`_which_fit`)."""
    change = changes[0]
    where = "when your script ran as written" if change.run == 0 else f"when the checker reran your script with {contract.reruns[change.run - 1].changed}"
    moved = change.moved
    if moved is None:
        what = f"`{change.name}` was given with shape {shape_text(change.given.shape)}, and had shape {shape_text(change.left.shape)} when the run ended"
    else:
        first = int(np.flatnonzero(moved)[0])
        index = ", ".join(str(int(i)) for i in np.unravel_index(first, change.left.shape))
        entry = f"`{change.name}[{index}]`" if index else f"`{change.name}`"
        count = f" ({int(np.count_nonzero(moved))} of its {change.left.size} entries changed)" if change.left.size > 1 else ""
        what = f"{entry} was {change.given.reshape(-1)[first]:.4g} as given, and {change.left.reshape(-1)[first]:.4g} when the run ended{count}"
        what += _sorted(change.given, change.left)
    also = list(dict.fromkeys(other.name for other in changes[1:] if other.run == change.run and other.name != change.name))
    if also:  # `hs, rope_theta, factor = 128, 10000.0, 4.0` again: each input it set is named, the first with its figures
        what = f"{what}; it changes {_listed(also)} there too"
    fits = fits or f"Your arrays fit that changed `{change.name}`, not the one the exercise gives."
    return Mistake("changed-input", "before-use", name=change.name, where=where, what=what, fits=fits)


def _sorted(given: np.ndarray, left: np.ndarray) -> str:
    """ ", sorted": ``left`` is ``given``'s entries sorted, all of them or each row's (an `ids.sort()` in place), or ""."""
    if given.shape != left.shape or given.dtype.kind not in "biuf":
        return ""
    if np.array_equal(np.sort(given, axis=None), left.reshape(-1)):
        return ": its entries were sorted"
    if given.ndim > 1 and np.array_equal(np.sort(given, axis=-1), left):
        return ": each row's entries were sorted"
    return ""


def _require_inputs_kept(contract: Contract, reruns: Sequence[RunResult | str]) -> None:
    """Each input the contract keeps holds, when the script ends, what the rerun gave it (a reshape or a narrower
    float type changes nothing: the same numbers, in order, to the rounding of the type the script left)."""
    for planned, rerun in zip(contract.reruns, reruns, strict=True):
        if not isinstance(rerun, RunResult):
            continue
        for name in contract.kept:
            given, left = rerun.values.get(GIVEN_PREFIX + name), rerun.values.get(name)
            if given is None or left is None:
                continue  # not given on this run, or not left at all (judged as the names are)
            moved = _moved(given, left)
            if moved is not None and np.any(moved):
                first = int(np.flatnonzero(moved)[0])
                where = ", ".join(str(int(i)) for i in np.unravel_index(first, left.shape))
                raise Mistake(
                    "changed-input",
                    name=name,
                    entry=f"`{name}[{where}]`",
                    was=f"{given.reshape(-1)[first]:.4g}",
                    now=f"{left.reshape(-1)[first]:.4g}",
                    count=int(np.count_nonzero(moved)),
                    size=int(left.size),
                    changed=planned.changed,
                )


def _require_reruns_ended(contract: Contract, reruns: Sequence[RunResult | str]) -> None:
    """A pass stands only on reruns that ran to their end: one that raised after setting every name (an assert of an
    identity the rerun breaks on purpose, or a check of the script's own that raises) gave its names, and the judge
    judged them, but that run failed all the same. An exercise without a message for either cause tells it as any
    failed rerun."""
    for planned, rerun in zip(contract.reruns, reruns, strict=True):
        said = _raised_after_its_names(rerun)
        if isinstance(rerun, RunResult) and said:
            cause = "assert" if rerun.error and rerun.error.type == "AssertionError" else "raised-after-names"
            raise Mistake("rerun-failed", cause, changed=planned.changed, failure=said + RAISED_AFTER_NAMES)


def _raised_after_its_names(rerun: RunResult | str) -> str:
    """What a rerun raised ("ValueError: …"), in a few words; "" where it ran to its end (or never ran)."""
    if not isinstance(rerun, RunResult) or rerun.status != "error" or rerun.error is None:
        return ""
    return f"{rerun.error.type}: {rerun.error.message}" if rerun.error.message else rerun.error.type


def _answers(contract: Contract, answers: tuple[bool, ...]) -> Mapping[Question, bool]:
    """Each of the contract's questions with the first run's answer to it, asked before the script ran."""
    return dict(zip(contract.questions, answers, strict=False))  # one missing is a checker error where the judge asks it


def _computed_in(contract: Contract, answers: tuple[bool, ...]) -> dict[str, np.ndarray]:
    """``{COMPUTED_IN: an empty array}`` of the narrowest float type the source names (the plan asked after the contract's questions), else none."""
    named = answers[len(contract.questions) :]
    for (dtype, _), says in zip(COMPUTED_IN_QUESTIONS, named, strict=False):
        if says:
            return {COMPUTED_IN: np.empty(0, dtype)}
    return {}


def _held_to_coarser(values: Mapping[str, np.ndarray], names: tuple[str, ...], readings: Sequence[Hypotheses], confused: str) -> str:
    """Where the hypothesis the arrays cannot tell from the right one changes none of the coarse arrays (a float16 `out`
    beside an exact float64 `grad_wte`): which names it changes, held like every figure to the coarsest array's rounding."""
    coarse = [name for name in names if name in values and values[name].dtype.kind == "f" and np.finfo(values[name].dtype).eps / 2 > COARSEST_ROUNDOFF]
    changed = [
        name
        for name in names
        if any(
            confused in reading.figures
            and name in reading.figures[RIGHT]
            and not np.array_equal(np.asarray(reading.figures[confused][name]), np.asarray(reading.figures[RIGHT][name]))
            for reading in readings
        )
    ]
    if not coarse or not changed or set(coarse) & set(changed):
        return ""
    listed = " and ".join(f"`{name}`" for name in changed)
    return f" in {listed} (a figure held, like every other, to the rounding of your coarsest array, {', '.join(f'`{n}`' for n in coarse)})"


def _narrow_type_shows(contract: Contract, runs: Sequence[Mapping[str, np.ndarray] | None]) -> bool:
    """Whether the narrow float type the source names shows in the arrays the checker reads: false only when, on every
    run, each name the contract's hypotheses give (less those a rerun sets itself) is the right figure within the
    tolerance of the arrays' own types (a right float64 answer that also prints a float16 copy). Arrays computed in that
    type carry its rounding, far past that tolerance; any doubt (arrays the hypotheses cannot read) keeps the narrow type."""
    replaced = [(), *(planned.changed_names for planned in contract.reruns)]
    for values, set_by_the_checker in zip(runs, replaced, strict=True):
        if values is None:
            continue
        try:
            with np.errstate(all="ignore"):
                reading = contract.hypotheses(values)
                for name, figure in reading.figures[RIGHT].items():
                    got, right = np.asarray(values[name], dtype=np.float64), np.asarray(figure, dtype=np.float64)
                    if name in set_by_the_checker:
                        continue
                    if got.shape != right.shape or np.any(np.isnan(got)):
                        return True
                    finite = np.isfinite(got)  # a mask's −inf shows no rounding (its place is the judge's to check)
                    if not float(np.max(np.abs(got[finite] - right[finite]), initial=0.0)) <= reading.tolerance[name]:
                        return True
        except Exception:  # a Mistake, or arrays the hypotheses cannot compute with: judged with the narrow type, as before
            return True
    return False


def _require_separation(contract: Contract, runs: Runs) -> None:
    """A pass stands only if the learner's own arrays tell the right computation from every wrong one the judge knows."""
    if any(values is None for values in runs.reruns):
        return  # the judge passed without every rerun (none does today); nothing to hold its figures against
    readings = every_reading(
        contract.hypotheses,
        contract.typed,
        [planned.changed_names for planned in contract.reruns],
        runs.first,
        [values for values in runs.reruns if values is not None],
    )
    pairs = [pair for pair in unseparated(readings, contract.told_by_source, only=RIGHT) if not set(pair) & contract.seen_only]
    if pairs:
        confusions = [name for pair in pairs for name in pair if name != RIGHT]
        confused = next((name for name in confusions if name.startswith(TYPED)), confusions[0])  # typed-in first: the plainest to tell
        words = contract.described.get(confused, confused)
        raise indistinct(runs.first, contract.names, confused, words + _held_to_coarser(runs.first, contract.names, readings, confused))
