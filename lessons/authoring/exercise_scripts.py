"""What `attnpos lessons --check` says of the exercises, as rustlings lints its own.

Every exercise needs a contract, a message for every diagnosis it can give,
advice only for names it has; its solution and each script in its ``right/``
folder (the same answer in other styles) must pass, its starter must not,
and each script in its ``mistakes/`` folder must get the diagnosis its name
starts with (``added-after-attention__late-offset.py``). Every diagnosis the
exercise can give needs at least one such script. A checker error anywhere
is a problem of the checker, reported here and never shown as the learner's.
"""

from __future__ import annotations

from concurrent.futures import Future

from attnpos.lessons.checker import Checker, Limits, Verdict
from attnpos.lessons.checker.contracts import CONTRACTS
from attnpos.lessons.checker.verdicts import CHECKER_ERROR
from attnpos.lessons.course.model import Exercise

# A mistake that loops for ever is stopped sooner than a learner's own run
# (the answers are tiny: the slowest solution runs in well under 0.5 s).
MISTAKE_LIMITS = Limits(timeout_s=3.0)
MISTAKE_SEPARATOR = "__"


def exercise_problems(exercises: dict[str, Exercise], checker: Checker) -> list[str]:
    """Every problem :func:`exercise_file_problems` finds, then each script run against what its name or place asks."""
    problems, runs = _planned(exercises)
    checks: list[Future[Verdict]] = [
        checker.submit(exercise, source, filename=path.rsplit("/", 1)[-1], limits=Limits() if wanted == "passed" else MISTAKE_LIMITS)
        for exercise, path, source, wanted in runs
    ]
    checker.wait(checks)
    for (exercise, path, _, wanted), check in zip(runs, checks, strict=True):
        verdict = check.result()
        where = f"{exercise.folder.name}/{path}"
        if verdict.diagnosis == CHECKER_ERROR:
            problems.append(f"{where}: the checker failed: {verdict.details.get('error')}")
        elif wanted is None and verdict.passed:
            problems.append(f"{where} already passes; it should leave the learner something to do")
        elif wanted == "passed" and not verdict.passed:
            problems.append(f"{where} does not pass its checker: {verdict.diagnosis}: {verdict.message}")
        elif wanted not in (None, "passed") and verdict.diagnosis != wanted:
            problems.append(f"{where} gets {verdict.diagnosis!r} ({verdict.details.get('cause', '')}), not {wanted!r}: {verdict.message}")
    return problems


def exercise_file_problems(exercises: dict[str, Exercise]) -> list[str]:
    """What the exercises' files get wrong before any script runs: a contract, messages and advice, mistakes' names."""
    return _planned(exercises)[0]


def _planned(exercises: dict[str, Exercise]) -> tuple[list[str], list[tuple[Exercise, str, str, str | None]]]:
    """The files' problems, and the runs to make: (exercise, path, source, the diagnosis wanted, None for the starter)."""
    problems: list[str] = []
    runs: list[tuple[Exercise, str, str, str | None]] = []
    for exercise in exercises.values():
        where = f"{exercise.folder.name}/"
        contract = CONTRACTS.get(exercise.contract)
        if contract is None:
            problems.append(f"{where}exercise.toml: no checker contract {exercise.contract!r}; known: {', '.join(CONTRACTS)}")
            continue
        diagnoses = contract.every_diagnosis
        problems += [f"{where}exercise.toml: no message for the diagnosis {d!r}" for d in diagnoses if d not in exercise.messages]
        problems += [
            f"{where}exercise.toml: message for {key!r}, which this exercise never gives" for key in exercise.messages if key.split("/")[0] not in diagnoses
        ]
        problems += [f"{where}exercise.toml: advice for {name!r}, which the answer does not define" for name in exercise.advice if name not in contract.names]
        expected = {"solution.py": "passed", "starter.py": None}
        expected.update({f"right/{file_name}": "passed" for file_name in exercise.right})
        for file_name in exercise.mistakes:
            diagnosis = file_name.split(MISTAKE_SEPARATOR)[0]
            if MISTAKE_SEPARATOR not in file_name or diagnosis not in diagnoses or diagnosis == "passed":
                problems.append(f"{where}mistakes/{file_name}: name it DIAGNOSIS{MISTAKE_SEPARATOR}what.py with one of: {', '.join(diagnoses[1:])}")
            else:
                expected[f"mistakes/{file_name}"] = diagnosis
        covered = {d for d in expected.values() if d}
        problems += [f"{where}mistakes/: no script that gets {d!r}" for d in diagnoses if d not in covered]
        sources = {"solution.py": exercise.solution, "starter.py": exercise.starter}
        sources.update({f"mistakes/{name}": source for name, source in exercise.mistakes.items()})
        sources.update({f"right/{name}": source for name, source in exercise.right.items()})
        runs += [(exercise, path, sources[path], diagnosis) for path, diagnosis in expected.items()]
    return problems, runs
