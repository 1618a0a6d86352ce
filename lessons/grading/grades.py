"""Grading a class: submissions read, every answer checked in a sandbox of its own, points given, a summary made.

A submission is one student's folder or ``.zip``. Its answer files are found
by the exercise id in their names (``constant-offset.py``,
``hw_constant_offset.py``), or listed in a manifest (``attnpos-manifest.toml``,
a ``[files]`` table of exercise id = path). Beside them a student may hand in
the file ``attnpos progress --export`` wrote, which carries the why answers and
the hints used. Every answer goes through the checker (:class:`Checker`, opened
with a fresh sandbox per check: each forked from one warm parent,
lessons/sandbox/pool.py), so nothing one file does reaches another's row. Points follow the grading
table (``grading.toml``). Nothing here prints: the command line renders.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from attnpos.lessons.checker import Checker, ScriptRefused, Verdict
from attnpos.lessons.checker.judging import checker_error
from attnpos.lessons.course.model import Course, Exercise
from attnpos.lessons.course.progress import ExerciseState, read_export
from attnpos.lessons.sandbox.protocol import MAX_SCRIPT_BYTES

GRADING_TABLE = Path(__file__).with_name("grading.toml")
MANIFEST_NAME = "attnpos-manifest.toml"
# The sandbox's own bound on a script; a bigger file is that row's problem, read no further (a zip bomb stops here too).
MAX_ANSWER_BYTES = MAX_SCRIPT_BYTES
MAX_EXPORT_BYTES = 1 << 20
# Rows for an exercise with no answer to check: not handed in, or handed in but unreadable.
NOT_SUBMITTED = "not-submitted"
UNREADABLE = "unreadable"


class SubmissionError(ValueError):
    """The class's input cannot be graded as given (one line: what and where); the command exits 2."""


# --- the grading table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Grading:
    """Points per exercise, the code and why shares of them, and partial credit per diagnosis."""

    weights: dict[str, float]
    code_share: float
    why_share: float
    partial: dict[str, float]

    def points(self, exercise_id: str) -> float:
        return self.weights.get(exercise_id, 1.0)

    def partial_share(self, exercise_id: str, diagnosis: str) -> float:
        return self.partial.get(f"{exercise_id}/{diagnosis}", self.partial.get(diagnosis, 0.0))


def load_grading(course: Course, path: Path | None = None) -> Grading:
    """The grading table at ``path`` (default: the course's ``grading.toml``); raises SubmissionError when unusable."""
    path = GRADING_TABLE if path is None else path
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SubmissionError(f"cannot read the grading table {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SubmissionError(f"the grading table {path} is not valid TOML: {error}") from None

    def numbers(name: str) -> dict[str, float]:
        section = table.get(name, {})
        if not isinstance(section, dict) or not all(_is_number(v) and v >= 0 for v in section.values()):
            raise SubmissionError(f"[{name}] in {path} must hold non-negative numbers")
        return {key: float(value) for key, value in section.items()}

    weights, parts, partial = numbers("weights"), numbers("parts"), numbers("partial")
    unknown = [key for key in weights if key not in course.exercises]
    unknown += [key for key in partial if "/" in key and key.split("/")[0] not in course.exercises]
    if unknown:
        raise SubmissionError(f"{path} names unknown exercise(s) {', '.join(unknown)}; known: {', '.join(course.exercises)}")
    if set(parts) != {"code", "why"} or abs(parts["code"] + parts["why"] - 1) > 1e-9:
        raise SubmissionError(f"[parts] in {path} must set code and why, adding up to 1")
    if any(share > 1 for share in partial.values()):
        raise SubmissionError(f"[partial] in {path}: a share of the code part is at most 1")
    return Grading(weights, parts["code"], parts["why"], partial)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# --- reading submissions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One answer file: its name inside the submission, and its text or why it could not be read."""

    name: str
    source: str | None
    problem: str = ""


@dataclass
class Submission:
    student: str
    answers: dict[str, Answer] = field(default_factory=dict)  # exercise id -> its answer
    unmatched: list[tuple[str, str]] = field(default_factory=list)  # (file, why it answers no exercise)
    export: dict[str, ExerciseState] | None = None
    export_name: str | None = None


class _Entries:
    """The files of one submission, folder or zip, by their relative POSIX names; read with a size cap."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip: zipfile.ZipFile | None = None
        self.unreadable: list[str] = []  # folders inside that could not be listed
        if path.is_dir():
            self.names = sorted(self._walk(path))
        else:
            try:
                self._zip = zipfile.ZipFile(path)
                infos = [i for i in self._zip.infolist() if not i.is_dir() and not _ignored(PurePosixPath(i.filename))]
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as error:
                raise SubmissionError(f"{path.name} is not a readable zip file ({error})") from None
            self.names = sorted(i.filename for i in infos)

    def _walk(self, root: Path) -> Iterator[str]:
        """Every file below ``root``, links not followed; a loop, not recursion, however deep the folders go."""
        folders = [PurePosixPath()]
        while folders:
            relative = folders.pop()
            try:
                entries = list(os.scandir(root / relative))
            except OSError as error:
                self.unreadable.append(f"{relative}/: {error.strerror or error}")
                continue
            for entry in entries:
                name = relative / entry.name
                if _ignored(name):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    folders.append(name)
                else:
                    yield str(name)

    def read(self, name: str, limit: int) -> bytes:
        """The file's bytes; OSError (with a sentence) when it is a link, not a file, too big or unreadable."""
        if self._zip is not None:
            try:
                with self._zip.open(name) as member:
                    data = member.read(limit + 1)
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as error:
                raise SubmissionError(f"{self.path.name} is not a readable zip file ({error})") from None
        else:
            # Never follow a link: a student's symlink could name any file the grader can read.
            fd = os.open(self.path / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise OSError("it is not a regular file")
                with os.fdopen(fd, "rb", closefd=False) as handle:
                    data = handle.read(limit + 1)
            finally:
                os.close(fd)
        if len(data) > limit:
            raise OSError(f"it is larger than {limit // 1024} KB")
        return data

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()


def _ignored(name: PurePosixPath) -> bool:
    """Hidden files, caches and the folder macOS adds to zips."""
    return any(part.startswith(".") or part in ("__pycache__", "__MACOSX") for part in name.parts)


def exercise_in_name(name: str, course: Course) -> tuple[str | None, str]:
    """The exercise whose id the file's name holds (``_`` read as ``-``), or None and why not."""
    stem = PurePosixPath(name).stem.lower().replace("_", "-")
    found = [exercise_id for exercise_id in course.exercises if exercise_id in stem]
    # An id inside a longer one (were there "order" and "order-checks") is the longer one's.
    found = [a for a in found if not any(a != b and a in b for b in found)]
    if len(found) == 1:
        return found[0], ""
    if found:
        return None, f"its name holds more than one exercise id ({', '.join(found)})"
    return None, "its name holds no exercise id"


def read_submissions(root: Path, course: Course, single: bool = False) -> list[Submission]:
    """Every student's submission under ``root`` (each folder or .zip in it), or ``root`` itself when ``single``."""
    if not root.exists():
        raise SubmissionError(f"no such folder: {root}")
    if single:
        if not root.is_dir() and root.suffix.lower() != ".zip":
            raise SubmissionError(f"{root} is neither a folder nor a .zip")
        return [_read_submission(root, course)]
    if not root.is_dir():
        raise SubmissionError(f"{root} is not a folder (for one student's folder or .zip, add --single)")
    entries = sorted(
        entry
        for entry in root.iterdir()
        if not _ignored(PurePosixPath(entry.name)) and (entry.is_dir() or (entry.is_file() and entry.suffix.lower() == ".zip"))
    )
    if not entries:
        raise SubmissionError(f"no submissions in {root}: it needs a folder or a .zip per student (or --single for one student's)")
    students = [_read_submission(entry, course) for entry in entries]
    seen: dict[str, Path] = {}
    for entry, submission in zip(entries, students, strict=True):
        if submission.student in seen:
            raise SubmissionError(f"two submissions for {submission.student}: {seen[submission.student].name} and {entry.name}")
        seen[submission.student] = entry
    return students


def _read_submission(path: Path, course: Course) -> Submission:
    student = path.stem if path.suffix.lower() == ".zip" else path.name
    entries = _Entries(path)
    try:
        names = _strip_common_folder(entries.names)
        submission = Submission(student, unmatched=[(folder, "the folder could not be read") for folder in entries.unreadable])
        manifest = _manifest(entries, names, course, student)
        claimed: set[str] = set()
        for exercise_id, name in (manifest or {}).items():
            claimed.add(name)
            if name not in names:
                submission.answers[exercise_id] = Answer(name, None, f"the manifest names {name}, which is not in the submission")
            else:
                submission.answers[exercise_id] = _answer(entries, names[name], name)
        for name, real in names.items():
            if name in claimed or name == MANIFEST_NAME:
                continue
            if name.endswith(".json"):
                _take_export(submission, entries, real, name)
            elif name.endswith(".py"):
                found, why = (None, "the manifest does not list it") if manifest is not None else exercise_in_name(name, course)
                if found is None:
                    submission.unmatched.append((name, why))
                elif found in submission.answers:
                    submission.unmatched.append((name, f"{submission.answers[found].name} already answers {found}"))
                else:
                    submission.answers[found] = _answer(entries, real, name)
            else:
                submission.unmatched.append((name, "not a Python file"))
        return submission
    finally:
        entries.close()


def _strip_common_folder(names: list[str]) -> dict[str, str]:
    """Shown name -> stored name, without one top folder every file shares (a zipped folder)."""
    parts = [PurePosixPath(name).parts for name in names]
    if parts and all(len(p) > 1 for p in parts) and len({p[0] for p in parts}) == 1:
        return {str(PurePosixPath(*p[1:])): name for p, name in zip(parts, names, strict=True)}
    return {name: name for name in names}


def _manifest(entries: _Entries, names: dict[str, str], course: Course, student: str) -> dict[str, str] | None:
    if MANIFEST_NAME not in names:
        return None
    try:
        table = tomllib.loads(entries.read(names[MANIFEST_NAME], MAX_ANSWER_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SubmissionError(f"{student}'s {MANIFEST_NAME} cannot be read: {error}") from None
    files = table.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise SubmissionError(f'{student}\'s {MANIFEST_NAME} needs a [files] table of exercise id = "path"')
    unknown = [key for key in files if key not in course.exercises]
    if unknown:
        raise SubmissionError(f"{student}'s {MANIFEST_NAME} names unknown exercise {unknown[0]!r}; known: {', '.join(course.exercises)}")
    return {key: str(PurePosixPath(value)) for key, value in files.items()}


def _answer(entries: _Entries, real: str, name: str) -> Answer:
    try:
        return Answer(name, entries.read(real, MAX_ANSWER_BYTES).decode("utf-8"))
    except OSError as error:
        return Answer(name, None, f"{name} could not be read: {error.strerror or error}")
    except UnicodeDecodeError as error:
        return Answer(name, None, f"{name} is not UTF-8 text (byte {error.start})")


def _take_export(submission: Submission, entries: _Entries, real: str, name: str) -> None:
    try:
        states = read_export(json.loads(entries.read(real, MAX_EXPORT_BYTES).decode("utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        states = None
    if states is None:
        submission.unmatched.append((name, "not a progress export (attnpos progress --export FILE)"))
    elif submission.export is not None:
        submission.unmatched.append((name, f"a second progress export; {submission.export_name} is used"))
    else:
        submission.export, submission.export_name = states, name


# --- grading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExerciseGrade:
    exercise: str
    file: str | None
    diagnosis: str
    passed: bool
    message: str
    code_earned: float  # share of the code part earned: 1 for a pass, a partial share, or 0
    why_choice: int | None
    why_first_choice: int | None
    why_correct: bool
    hints_used: int | None  # None: no progress export
    points: float
    max_points: float


@dataclass(frozen=True)
class StudentGrade:
    student: str
    exercises: tuple[ExerciseGrade, ...]
    unmatched: tuple[tuple[str, str], ...]
    export: str | None

    @property
    def points(self) -> float:
        return round(sum(grade.points for grade in self.exercises), 4)

    @property
    def max_points(self) -> float:
        return round(sum(grade.max_points for grade in self.exercises), 4)


def grade_class(
    course: Course,
    submissions: list[Submission],
    grading: Grading,
    checker: Checker,
    on_checked: Callable[[], None] = lambda: None,
) -> list[StudentGrade]:
    """Check every answer of every submission with ``checker`` (grading's: a fresh sandbox for each, so many at a time).

    ``on_checked`` is called (from a worker thread) after each answer. Ctrl+C
    while they are checked stops the checker's runs and propagates.
    """
    checks: dict[tuple[str, str], Future[Verdict]] = {}
    for submission in submissions:
        for exercise_id, answer in submission.answers.items():
            if answer.source is not None:
                checks[submission.student, exercise_id] = submit_answer(checker, course.exercises[exercise_id], answer.source)
                checks[submission.student, exercise_id].add_done_callback(lambda _: on_checked())
    checker.wait(checks.values())
    verdicts = {key: verdict_or_checker_error(course.exercises[key[1]], check) for key, check in checks.items()}
    return [_student_grade(course, grading, s, verdicts) for s in submissions]


def submit_answer(checker: Checker, exercise: Exercise, source: str) -> Future[Verdict]:
    """The check of one graded answer, run as ``<exercise id>.py``; a script the sandbox refuses is its row's checker error."""
    try:
        return checker.submit(exercise, source, filename=f"{exercise.id}.py")
    except ScriptRefused as refusal:
        return settled(checker_error(exercise, refusal))


def settled(verdict: Verdict) -> Future[Verdict]:
    """A verdict known without a check (a file that could not be read), as the future of one."""
    future: Future[Verdict] = Future()
    future.set_result(verdict)
    return future


def verdict_or_checker_error(exercise: Exercise, check: Future[Verdict]) -> Verdict:
    """The check's verdict; a fault of attnpos or of the machine is this row's checker error, never the class's."""
    try:
        return check.result()
    except Exception as error:
        return checker_error(exercise, error)


def _student_grade(course: Course, grading: Grading, submission: Submission, verdicts: dict[tuple[str, str], Verdict]) -> StudentGrade:
    grades = []
    for exercise in course.exercises.values():
        answer = submission.answers.get(exercise.id)
        verdict = verdicts.get((submission.student, exercise.id))
        state = None if submission.export is None else submission.export.get(exercise.id, ExerciseState())
        grades.append(_exercise_grade(exercise, grading, answer, verdict, state))
    return StudentGrade(submission.student, tuple(grades), tuple(submission.unmatched), submission.export_name)


def _exercise_grade(exercise: Exercise, grading: Grading, answer: Answer | None, verdict: Verdict | None, state: ExerciseState | None) -> ExerciseGrade:
    if verdict is not None:
        diagnosis, passed, message = verdict.diagnosis, verdict.passed, verdict.message
    elif answer is None:
        diagnosis, passed, message = NOT_SUBMITTED, False, "No file answers this exercise."
    else:
        diagnosis, passed, message = UNREADABLE, False, answer.problem
    code_earned = 1.0 if passed else grading.partial_share(exercise.id, diagnosis) if verdict is not None else 0.0
    why_choice = state.why_answer if state else None
    # Judged here from the course's answer: the export is the student's own file, its why_correct is not trusted.
    why_correct = why_choice is not None and why_choice == exercise.why.answer
    weight = grading.points(exercise.id)
    points = weight * (grading.code_share * code_earned + grading.why_share * why_correct)
    return ExerciseGrade(
        exercise.id,
        answer.name if answer else None,
        diagnosis,
        passed,
        message,
        code_earned,
        why_choice,
        state.why_first_answer if state else None,
        why_correct,
        state.hints_used if state else None,
        round(points, 4),
        round(weight, 4),
    )


# --- the class summary ------------------------------------------------------------------------


@dataclass(frozen=True)
class ExerciseSummary:
    exercise: str
    title: str
    submitted: int
    passed: int
    diagnoses: tuple[tuple[str, int], ...]  # of the answers that did not pass, most common first
    wrong_first_choices: tuple[tuple[int, str, int], ...]  # (choice, its text, students), most common first
    why_answered: int
    why_right_first: int
    hints_used: int  # hints taken, over every student with an export
    students_with_hints: int
    mean_points: float
    max_points: float


def summarise(course: Course, students: list[StudentGrade]) -> list[ExerciseSummary]:
    """Per exercise: passes, a histogram of the other diagnoses, wrong first why choices, hints, mean points."""
    summaries = []
    for index, exercise in enumerate(course.exercises.values()):
        grades = [student.exercises[index] for student in students]
        diagnoses = Counter(g.diagnosis for g in grades if not g.passed and g.diagnosis != NOT_SUBMITTED)
        firsts = [g.why_first_choice for g in grades if g.why_first_choice is not None]
        wrong = Counter(choice for choice in firsts if choice != exercise.why.answer)
        choices = exercise.why.choices
        hints = [g.hints_used for g in grades if g.hints_used is not None]
        summaries.append(
            ExerciseSummary(
                exercise.id,
                exercise.title,
                submitted=sum(g.diagnosis != NOT_SUBMITTED for g in grades),
                passed=sum(g.passed for g in grades),
                diagnoses=_most_common(diagnoses),
                wrong_first_choices=tuple((c, choices[c] if 0 <= c < len(choices) else "(no such choice)", n) for c, n in _most_common(wrong)),
                why_answered=len(firsts),
                why_right_first=sum(choice == exercise.why.answer for choice in firsts),
                hints_used=sum(hints),
                students_with_hints=sum(h > 0 for h in hints),
                mean_points=round(sum(g.points for g in grades) / len(grades), 4) if grades else 0.0,
                max_points=grades[0].max_points if grades else 0.0,
            )
        )
    return summaries


def _most_common(counts: Counter) -> tuple:
    """Most common first; ties in a fixed order, so the same class always gives the same report."""
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], str(item[0]))))
