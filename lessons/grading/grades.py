"""Grading a class: submissions read, every answer checked in a sandbox of its own, points given, a summary made.

A submission is one student's folder or ``.zip`` (a Moodle download's
``Name_123_assignsubmission_file_`` folder is Name's), or the loose files
Canvas names ``name_12345_67890_file`` in the class folder. Its answer files
are found by the exercise id in their names as a whole (:func:`exercise_in_name`),
or listed in a manifest (``attnpos-manifest.toml``, a ``[files]`` table of
exercise id = path). Beside them a student may hand in
the file ``attnpos progress --export`` wrote, which carries the why answers and
the hints used. Every answer goes through the checker (:class:`Checker`, opened
with a fresh sandbox per check: each forked from one warm parent,
lessons/sandbox/pool.py), so nothing one file does reaches another's row. Points follow the grading
table (``grading.toml``). Nothing here prints: the command line renders.

One student's problem, whatever it is (a zip that cannot be opened, a bad
manifest, two submissions under one name), is that student's row; only the
instructor's own input (the class folder, the grading table) raises
:class:`SubmissionError`. Every text a row carries is made printable here
(:func:`shown`), so no format can carry a terminal escape or a lone surrogate.
"""

from __future__ import annotations

import errno
import json
import lzma
import os
import re
import stat
import sys
import unicodedata
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from pathlib import Path, PurePosixPath

from msgspec import Struct, field
from msgspec.structs import replace

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from attnpos.lessons.checker import Checker, ScriptRefused, Verdict, decode_answer, printable
from attnpos.lessons.checker.judging import checker_error
from attnpos.lessons.course.model import Course, Exercise
from attnpos.lessons.course.progress import ExerciseState, read_export
from attnpos.lessons.sandbox.protocol import MAX_SCRIPT_BYTES

GRADING_TABLE = Path(__file__).with_name("grading.toml")
MANIFEST_NAME = "attnpos-manifest.toml"
# The sandbox's own bound on a script; a bigger file is that row's problem, read no further (a zip bomb stops here too).
MAX_ANSWER_BYTES = MAX_SCRIPT_BYTES
MAX_EXPORT_BYTES = 1 << 20
# What one submission may cost in total, read and decompressed (a zip of many small bombs stops here), and how many files it may hold.
MAX_SUBMISSION_BYTES = 4 << 20
MAX_SUBMISSION_FILES = 200
# Rows for an exercise with no answer to check: not handed in, or handed in but unreadable.
NOT_SUBMITTED = "not-submitted"
UNREADABLE = "unreadable"


class SubmissionError(ValueError):
    """The instructor's input cannot be graded as given (one line: what and where); the command exits 2."""


class _Unusable(Exception):
    """One student's submission cannot be read at all: that student's row says why."""


def shown(text: str) -> str:
    """Text safe in every report: controls and invisible format characters escaped (the sandbox's ``printable``),
    a name's undecodable byte (a surrogate escape) as ``\\xNN`` and any other lone surrogate as ``\\uXXXX``."""
    return _SURROGATE.sub(_surrogate_escape, printable(text))


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def natural_key(text: str) -> tuple:
    """A sort key reading digits as numbers and letters without case or accents ("Zoë" after "ada", "s10" after "s9")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold() or text.casefold()
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", plain) if part), text


def course_order(course: Course) -> list[str]:
    """The exercises in the order the lessons place them; any not placed last, in their id order."""
    placed = [exercise_id for lesson in course.lessons for exercise_id in lesson.exercise_ids if exercise_id in course.exercises]
    return list(dict.fromkeys(placed)) + sorted(set(course.exercises) - set(placed))


# --- the grading table ----------------------------------------------------------------------


class Grading(Struct, frozen=True):
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

# What opening or reading a zip member can raise: a password (RuntimeError), Deflate64 (NotImplementedError), a bad CRC, a truncated stream.
ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, RuntimeError, NotImplementedError, zlib.error, lzma.LZMAError)
# Canvas's bulk download: lastfirst[_LATE]_userid_submissionid_original-name, loose in one folder.
CANVAS_FILE = re.compile(r"^(?P<student>[^_]+?)(?:_LATE)?_\d+_\d+_(?P<file>.+)$")
# Moodle's "Download all submissions", unpacked: a folder per student, "Full Name_participantid_assignsubmission_file_".
MOODLE_FOLDER = re.compile(r"^(?P<student>.+?)_\d+_assignsubmission_[a-z]+_?$")


class Answer(Struct, frozen=True):
    """One answer file: its name inside the submission, and its text or why it could not be read."""

    name: str
    source: str | None
    problem: str = ""


class Submission(Struct):
    student: str
    answers: dict[str, Answer] = field(default_factory=dict)  # exercise id -> its answer
    unmatched: list[tuple[str, str]] = field(default_factory=list)  # (file, why it is not graded)
    export: dict[str, ExerciseState] | None = None
    export_name: str | None = None
    problem: str = ""  # why nothing of it could be read: every exercise's row says so


class _Entries:
    """The files of one submission (a folder, a zip, or loose files) by their relative POSIX names.

    Every read is capped per file and, over the whole submission, at
    MAX_SUBMISSION_BYTES: what one student hands in costs the class a bounded time.
    """

    def __init__(self, path: Path, loose: dict[str, Path] | None = None) -> None:
        self.path = path
        self._zip: zipfile.ZipFile | None = None
        self._files: dict[str, Path] = {}
        self.spent = 0
        self.unreadable: list[str] = []  # folders inside that could not be listed
        if loose is not None:
            self._files = dict(loose)
            names = list(loose)
        elif path.is_dir():
            names = list(self._walk(path))
            self._files = {name: path / name for name in names}
        else:
            try:
                self._zip = zipfile.ZipFile(path)
                names = [i.filename for i in self._zip.infolist() if not i.is_dir() and not _ignored(PurePosixPath(i.filename))]
            except ZIP_ERRORS as error:
                raise _Unusable(f"{path.name} is not a readable zip file ({error})") from None
        self.names = sorted(names, key=natural_key)

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
        left = MAX_SUBMISSION_BYTES - self.spent
        if left <= 0:
            raise OSError(f"the submission already read {MAX_SUBMISSION_BYTES >> 20} MB, what one submission may cost; it was not read")
        cap = min(limit, left)
        if self._zip is not None:
            try:
                with self._zip.open(name) as member:
                    data = member.read(cap + 1)
            except ZIP_ERRORS as error:
                raise OSError(f"the zip could not give it ({type(error).__name__}: {error})") from None
        else:
            # Never follow a link: a student's symlink could name any file the grader can read.
            try:
                fd = os.open(self._files[name], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError as error:
                if error.errno == errno.ELOOP:
                    raise OSError("it is a symbolic link, never followed") from None
                raise
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise OSError("it is not a regular file")
                with os.fdopen(fd, "rb", closefd=False) as handle:
                    data = handle.read(cap + 1)
            finally:
                os.close(fd)
        self.spent += len(data)
        if len(data) > cap:
            if cap < limit:
                raise OSError(f"the submission holds more than {MAX_SUBMISSION_BYTES >> 20} MB, what one submission may cost; it was not read")
            raise OSError(f"it is larger than {limit // 1024} KB")
        return data

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()


def _ignored(name: PurePosixPath) -> bool:
    """Hidden files, caches and the folder macOS adds to zips."""
    return any(part.startswith(".") or part in ("__pycache__", "__MACOSX") for part in name.parts)


def _words(name: str) -> str:
    """A file's name without its folders and extension, lower case, ``_``, spaces and dots read as ``-``."""
    return re.sub(r"[_\s.]+", "-", PurePosixPath(name).stem.casefold())


def exercise_in_name(name: str, exercise_ids: Iterable[str]) -> tuple[str | None, str]:
    """The exercise whose id the file's name holds as a whole, or None and why not.

    The id must stand on its own, bounded by the start or end of the name or a
    ``-`` (``_``, a space or a dot count as ``-``): ``hw_constant_offset.py``,
    ``ada_1_2_rope.py``, ``rope-final.py`` name their exercises;
    ``property_notes.py`` names none. An id inside a longer one that also
    matches (were there ``order`` and ``order-checks``) is the longer one's.
    """
    words = _words(name)
    found = [e for e in exercise_ids if re.search(rf"(?:^|-){re.escape(e)}(?:-|$)", words)]
    found = [a for a in found if not any(a != b and a in b for b in found)]
    if len(found) == 1:
        return found[0], ""
    if found:
        return None, f"its name holds more than one exercise id ({', '.join(found)})"
    return None, "its name holds no exercise id"


def _candidate_rank(name: str, exercise_id: str) -> tuple:
    """Which of a student's files for one exercise is graded: the exact ``ID.py`` first, then the shallowest, the shortest name, natural order."""
    return (_words(name) != exercise_id, len(PurePosixPath(name).parts), len(PurePosixPath(name).name), natural_key(name))


PICK_RULE = "the exact id.py first, then the shallowest, the shortest name, then natural order"


def read_submissions(root: Path, course: Course, single: bool = False) -> list[Submission]:
    """Every student's submission under ``root``, in natural order of names, or ``root`` itself when ``single``.

    A folder or .zip is one student's; loose files named in Canvas's layout are
    grouped by the name Canvas gives them; any other loose file is a row saying
    where it should be. Two submissions under one name are that name's row.
    """
    if not root.exists():
        raise SubmissionError(f"no such folder: {root}")
    if single:
        if not root.is_dir() and root.suffix.lower() != ".zip":
            raise SubmissionError(f"{root} is neither a folder nor a .zip")
        return [_read_submission(root.stem if root.suffix.lower() == ".zip" else root.name, root, tuple(course.exercises))]
    if not root.is_dir():
        raise SubmissionError(f"{root} is not a folder (for one student's folder or .zip, add --single)")
    try:
        listed = sorted((entry for entry in root.iterdir() if not _ignored(PurePosixPath(entry.name))), key=lambda p: natural_key(p.name))
    except OSError as error:
        raise SubmissionError(f"cannot list {root}: {error.strerror or error}") from None
    if not listed:
        raise SubmissionError(f"no submissions in {root}: it needs a folder or a .zip per student (or --single for one student's)")
    claims: dict[str, list[tuple[str, Path | dict[str, Path]]]] = {}  # student -> (what it came from, its folder, zip or loose files)
    canvas: dict[str, dict[str, Path]] = {}
    for entry in listed:
        if entry.is_dir() and not entry.is_symlink():
            moodle = MOODLE_FOLDER.match(entry.name)
            claims.setdefault(moodle["student"] if moodle else entry.name, []).append((entry.name, entry))
        elif entry.suffix.lower() == ".zip":
            claims.setdefault(entry.stem, []).append((entry.name, entry))
        elif (found := CANVAS_FILE.match(entry.name)) is not None:
            canvas.setdefault(found["student"], {})[found["file"]] = entry
        else:
            claims.setdefault(entry.name, []).append((entry.name, {}))
    for student, files in canvas.items():
        claims.setdefault(student, []).append((f"{student}_… ({len(files)} Canvas file{'s' * (len(files) != 1)})", files))
    students = []
    for student, sources in sorted(claims.items(), key=lambda item: natural_key(item[0])):
        if len(sources) > 1:
            names = " and ".join(shown(origin) for origin, _ in sources)
            students.append(Submission(student, problem=f"two submissions for {shown(student)}: {names}; keep one and grade again"))
        elif isinstance(sources[0][1], Path):
            students.append(_read_submission(student, sources[0][1], tuple(course.exercises)))
        elif sources[0][1]:
            students.append(_read_submission(student, root, tuple(course.exercises), loose=sources[0][1]))
        else:
            where = f"{shown(student)} lies directly in the class folder, not in Canvas's layout (name_userid_submissionid_file): put it in a folder"
            students.append(Submission(student, problem=where))
    return students


def _read_submission(student: str, path: Path, course_ids: tuple[str, ...], loose: dict[str, Path] | None = None) -> Submission:
    try:
        entries = _Entries(path, loose)
    except _Unusable as problem:
        return Submission(student, problem=shown(str(problem)))
    try:
        return _read_entries(student, entries, course_ids)
    finally:
        entries.close()


def _read_entries(student: str, entries: _Entries, course_ids: tuple[str, ...]) -> Submission:
    names = _strip_common_folder(entries.names)
    submission = Submission(student, unmatched=[(folder, "the folder could not be read") for folder in entries.unreadable])
    if len(names) > MAX_SUBMISSION_FILES:
        dropped = list(names)[MAX_SUBMISSION_FILES:]
        submission.unmatched.append((f"{len(dropped)} more files", f"a submission holds at most {MAX_SUBMISSION_FILES} files; these were not read"))
        names = {name: names[name] for name in list(names)[:MAX_SUBMISSION_FILES]}
    manifest = _manifest(entries, names, course_ids, submission)
    claimed: set[str] = set()
    for exercise_id, name in (manifest or {}).items():
        claimed.add(name)
        if name not in names:
            submission.answers[exercise_id] = Answer(name, None, f"the manifest names {name}, which is not in the submission")
        else:
            submission.answers[exercise_id] = _answer(entries, names[name], name)
    candidates: dict[str, list[str]] = {}
    cells: dict[str, Answer] = {}  # "notebook.ipynb, cell N" -> the answer in that cell
    for name, real in names.items():
        if name in claimed or name == MANIFEST_NAME:
            continue
        if name.lower().endswith(".json"):
            _take_export(submission, entries, real, name)
        elif name.lower().endswith(".ipynb") and manifest is None:
            for exercise_id, answer in _notebook_answers(submission, entries, real, name, course_ids):
                cells[answer.name] = answer
                candidates.setdefault(exercise_id, []).append(answer.name)
        elif name.lower().endswith(".py"):
            found, why = (None, "the manifest does not list it") if manifest is not None else exercise_in_name(name, course_ids)
            if found is None:
                submission.unmatched.append((name, why))
            else:
                candidates.setdefault(found, []).append(name)
        else:
            submission.unmatched.append((name, "not a Python file"))
    for exercise_id, files in candidates.items():
        chosen, *others = sorted(files, key=lambda name: _candidate_rank(name, exercise_id))
        submission.answers[exercise_id] = cells[chosen] if chosen in cells else _answer(entries, names[chosen], chosen)
        for other in others:
            submission.unmatched.append((other, f"also names {exercise_id}; {chosen} is graded ({PICK_RULE})"))
    return submission


def _strip_common_folder(names: list[str]) -> dict[str, str]:
    """Shown name -> stored name, without one top folder every file shares (a zipped folder)."""
    parts = [PurePosixPath(name).parts for name in names]
    if parts and all(len(p) > 1 for p in parts) and len({p[0] for p in parts}) == 1:
        return {str(PurePosixPath(*p[1:])): name for p, name in zip(parts, names, strict=True)}
    return {name: name for name in names}


def _manifest(entries: _Entries, names: dict[str, str], course_ids: tuple[str, ...], submission: Submission) -> dict[str, str] | None:
    """The manifest's exercise id -> path; what is wrong with it is a note in the student's row (unreadable: files matched by name)."""
    if MANIFEST_NAME not in names:
        return None
    try:
        table = tomllib.loads(entries.read(names[MANIFEST_NAME], MAX_ANSWER_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:  # ValueError: TOMLDecodeError, or an integer past Python's 4,300 digits
        submission.unmatched.append((MANIFEST_NAME, f"cannot be read ({error}); files are matched by name"))
        return None
    files = table.get("files")
    if not isinstance(files, dict):
        submission.unmatched.append((MANIFEST_NAME, 'needs a [files] table of exercise id = "path"; files are matched by name'))
        return None
    usable = {}
    for key, value in files.items():
        if key not in course_ids:
            submission.unmatched.append((MANIFEST_NAME, f"names unknown exercise {key!r}; known: {', '.join(course_ids)}"))
        elif not isinstance(value, str):
            submission.unmatched.append((MANIFEST_NAME, f'{key} must be "a path", not {type(value).__name__}'))
        else:
            usable[key] = str(PurePosixPath(value))
    return usable


def _answer(entries: _Entries, real: str, name: str) -> Answer:
    try:
        return Answer(name, decode_answer(entries.read(real, MAX_ANSWER_BYTES)))  # as Python reads source: a BOM, a coding cookie
    except OSError as error:
        return Answer(name, None, f"{name} could not be read: {error.strerror or error}")
    except UnicodeDecodeError as error:
        return Answer(name, None, f"{name} is not UTF-8 text (byte {error.start})")


# A notebook cell checked with the %attnpos magic: its first line names the exercise, the rest is the answer.
CHECK_CELL = re.compile(r"\A\s*%%attnpos\s+check\s+(\S+)[^\n]*\n?")


def _notebook_answers(submission: Submission, entries: _Entries, real: str, name: str, course_ids: tuple[str, ...]) -> list[tuple[str, Answer]]:
    """The answers of a notebook: each code cell that starts ``%%attnpos check ID``; what cannot be used is noted in the row."""
    try:
        cells = json.loads(entries.read(real, MAX_EXPORT_BYTES).decode("utf-8")).get("cells", [])
        sources = [(n, c["source"] if isinstance(c["source"], str) else "".join(c["source"])) for n, c in enumerate(cells, 1) if c.get("cell_type") == "code"]
    except OSError as error:
        submission.unmatched.append((name, f"could not be read: {error.strerror or error}"))
        return []
    except (UnicodeDecodeError, ValueError, RecursionError, AttributeError, KeyError, TypeError):
        submission.unmatched.append((name, "not a Jupyter notebook"))
        return []
    found = []
    for number, source in sources:
        check = CHECK_CELL.match(source)
        if check is None:
            continue
        if check[1] not in course_ids:
            submission.unmatched.append((f"{name}, cell {number}", f"checks unknown exercise {check[1]!r}"))
        else:
            found.append((check[1], Answer(f"{name}, cell {number}", source[check.end() :])))
    if not found:
        submission.unmatched.append((name, "no cell in it starts %%attnpos check ID"))
    return found


def _take_export(submission: Submission, entries: _Entries, real: str, name: str) -> None:
    try:
        data = entries.read(real, MAX_EXPORT_BYTES)
    except OSError as error:
        submission.unmatched.append((name, f"could not be read: {error.strerror or error}"))
        return
    try:
        states = read_export(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: bad JSON, or an integer past 4,300 digits
        states = None
    if states is None:
        submission.unmatched.append((name, "not a progress export (attnpos progress --export FILE)"))
    elif submission.export is not None:
        submission.unmatched.append((name, f"a second progress export; {submission.export_name} is used"))
    else:
        submission.export, submission.export_name = states, name


def only(submissions: list[Submission], student: str) -> list[Submission]:
    """The one submission of ``student`` (its name as the reports show it, or as the file system has it)."""
    found = [s for s in submissions if student in (s.student, shown(s.student))]
    if not found:
        names = [shown(s.student) for s in submissions]
        raise SubmissionError(f"--only {shown(student)}: no such student; there are {', '.join(names[:5])}{', …' if len(names) > 5 else ''}")
    return found


def assignment(course: Course, submissions: list[Submission], chosen: list[str]) -> Course:
    """The course cut to the ``chosen`` exercises (an assignment): answers to the others are listed in their rows, not graded.

    Raises SubmissionError for an id the course does not have."""
    unknown = [exercise_id for exercise_id in chosen if exercise_id not in course.exercises]
    if unknown:
        raise SubmissionError(f"--exercises names unknown exercise(s) {', '.join(unknown)}; known: {', '.join(course_order(course))}")
    for submission in submissions:
        for exercise_id in [e for e in submission.answers if e not in chosen]:
            answer = submission.answers.pop(exercise_id)
            submission.unmatched.append((answer.name, f"answers {exercise_id}, which this assignment does not grade"))
    return replace(course, exercises={e: x for e, x in course.exercises.items() if e in chosen})


# --- grading ----------------------------------------------------------------------------------


class ExerciseGrade(Struct, frozen=True):
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


class StudentGrade(Struct, frozen=True):
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
    return sorted((_student_grade(course, grading, s, verdicts) for s in submissions), key=lambda grade: natural_key(grade.student))


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
    for exercise_id in course_order(course):
        answer = submission.answers.get(exercise_id)
        if answer is None and submission.problem:
            answer = Answer("", None, submission.problem)
        verdict = verdicts.get((submission.student, exercise_id))
        state = None if submission.export is None else submission.export.get(exercise_id, ExerciseState())
        grades.append(_exercise_grade(course.exercises[exercise_id], grading, answer, verdict, state))
    unmatched = tuple((shown(name), shown(reason)) for name, reason in submission.unmatched)
    return StudentGrade(shown(submission.student), tuple(grades), unmatched, None if submission.export_name is None else shown(submission.export_name))


def _exercise_grade(exercise: Exercise, grading: Grading, answer: Answer | None, verdict: Verdict | None, state: ExerciseState | None) -> ExerciseGrade:
    if verdict is not None:
        diagnosis, passed, message = verdict.diagnosis, verdict.passed, _with_python_message(verdict)
    elif answer is None:
        diagnosis, passed, message = NOT_SUBMITTED, False, "No file answers this exercise."
    else:
        diagnosis, passed, message = UNREADABLE, False, answer.problem
    code_earned = 1.0 if passed else grading.partial_share(exercise.id, diagnosis) if verdict is not None else 0.0
    why_choice = state.why_answer if state else None
    # Judged here from the course's answer: the export is the student's own file, its why_correct is not trusted.
    why_correct = why_choice is not None and why_choice == exercise.why.answer
    weight = grading.points(exercise.id)
    # The why part counts only beside code that passes in this submission: a progress export alone (or edited) earns nothing.
    points = weight * (grading.code_share * code_earned + grading.why_share * (why_correct and passed))
    return ExerciseGrade(
        exercise.id,
        shown(answer.name) if answer and answer.name else None,
        diagnosis,
        passed,
        shown(message),
        code_earned,
        why_choice,
        state.why_first_answer if state else None,
        why_correct,
        state.hints_used if state else None,
        round(points, 4),
        round(weight, 4),
    )


def _with_python_message(verdict: Verdict) -> str:
    """The verdict's message with what it points to below it: Python's own error message and the learner's line."""
    below = [str(verdict.details[key]).strip() for key in ("error", "source_line") if verdict.details.get(key)]
    below = [text for text in below if text not in verdict.message]
    return "\n".join([verdict.message, *below])


# --- the class summary ------------------------------------------------------------------------


class ExerciseSummary(Struct, frozen=True):
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
    for index, exercise in enumerate(course.exercises[exercise_id] for exercise_id in course_order(course)):
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
