"""The learner's progress: where they are, what they read, their drafts and results.

Stored as versioned JSON in the platform's user data folder (platformdirs),
or in ``--data-dir`` / ``$ATTNPOS_DATA_DIR``. Every save is atomic (a
temporary file, fsync, os.replace), so a crash leaves the previous state or
the new one, never half of each. A state file that cannot be read is moved
aside; a folder that cannot be written leaves the state in memory and says so
once (how long "in memory" lasts depends on the front end: ``lasting``).
"""

from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from msgspec import Struct, field
from msgspec.structs import asdict

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; saves still merge, but two apps may race
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from attnpos.lessons.course.outline import OutlineLesson

SCHEMA_VERSION = 2
# Version 1 kept only a question's latest answer; version 2 keeps its first answer beside it.
# A version-1 file still loads: its one answer is both the first and the latest we know of.
STATE_FILE = "progress.json"
DATA_DIR_ENV = "ATTNPOS_DATA_DIR"
FIX_DATA_DIR = f"Make it a writable folder, or choose another with --data-dir DIR or ${DATA_DIR_ENV}."


def default_data_dir() -> Path:
    """$ATTNPOS_DATA_DIR if set, else the platform's user data folder for attnpos."""
    if os.environ.get(DATA_DIR_ENV):
        return Path(os.environ[DATA_DIR_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("attnpos", appauthor=False))


# The exercise editor redraws and rewraps its whole text on every key: about 0.1 ms a line on a shared
# core (12,000 lines took 1.5 s a key, 30,000 lines 3.5 s). An answer is tens of lines, so a draft above
# these bounds is not one: the app refuses to load it into the editor and keeps it as a file instead.
DRAFT_MAX_LINES = 2_000
DRAFT_MAX_CHARS = 64_000


def draft_too_large(text: str) -> str | None:
    """Why ``text`` is too large for the exercise editor ("12,000 lines; the editor holds 2,000"), or None."""
    lines = text.count("\n") + 1
    if lines > DRAFT_MAX_LINES:
        return f"{lines:,} lines; the editor holds up to {DRAFT_MAX_LINES:,}"
    if len(text) > DRAFT_MAX_CHARS:
        return f"{len(text):,} characters; the editor holds up to {DRAFT_MAX_CHARS:,}"
    return None


def keep_aside(folder: Path, name: str, text: str) -> Path:
    """Write ``text`` to a new file ``name`` (numbered if taken) in ``folder``; the path, or OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    stem, suffix = os.path.splitext(name)
    for number in range(1, 1000):
        path = folder / (name if number == 1 else f"{stem}-{number}{suffix}")
        try:
            with open(path, "x", encoding="utf-8") as handle:
                handle.write(text)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free name for {name} in {folder}")


def _empty() -> dict[str, Any]:
    return {"version": SCHEMA_VERSION, "position": None, "visited": {}, "exercises": {}, "quizzes": {}}


def _upgraded(state: Any) -> dict | None:
    """The state in this version's shape, read from any version this one understands; None when unusable."""
    if not isinstance(state, dict) or state.get("version") == SCHEMA_VERSION:
        return state if _valid(state) else None
    if state.get("version") != 1 or not isinstance(state.get("quizzes"), dict):
        return None
    quizzes = {}
    for quiz_id, answer in state["quizzes"].items():
        if not isinstance(answer, dict):
            return None
        quizzes[quiz_id] = {**answer, "first_choice": answer.get("choice"), "first_correct": answer.get("correct")}
    upgraded = {**state, "version": SCHEMA_VERSION, "quizzes": quizzes}
    return upgraded if _valid(upgraded) else None


def _valid(state: Any) -> bool:
    """The shape this version writes; anything else is treated as corrupt."""
    if not isinstance(state, dict) or state.get("version") != SCHEMA_VERSION:
        return False
    position = state.get("position")
    if position is not None and not (isinstance(position, list) and len(position) == 2 and all(isinstance(v, int) for v in position)):
        return False
    return (
        isinstance(state.get("visited"), dict)
        and all(isinstance(v, list) and all(isinstance(i, int) for i in v) for v in state["visited"].values())
        and isinstance(state.get("exercises"), dict)
        and all(_valid_exercise(v) for v in state["exercises"].values())
        and isinstance(state.get("quizzes"), dict)
        and all(_valid_quiz(v) for v in state["quizzes"].values())
    )


def _valid_quiz(entry: Any) -> bool:
    return isinstance(entry, dict) and all(
        isinstance(entry.get(name), kind) and (kind is bool or not isinstance(entry.get(name), bool))
        for name, kind in (("choice", int), ("correct", bool), ("first_choice", int), ("first_correct", bool))
    )


def _valid_exercise(entry: Any) -> bool:
    """Every known field has its type (bool is not accepted for a count); unknown fields are ignored."""
    if not isinstance(entry, dict):
        return False
    for name, kinds in EXERCISE_FIELD_TYPES.items():
        if name in entry:
            value = entry[name]
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                return False
    return True


EXERCISE_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "draft": (str, type(None)),
    "attempts": (int,),
    "hints_used": (int,),
    "passed": (bool,),
    "why_answer": (int, type(None)),
    "why_correct": (bool,),
    "why_first_answer": (int, type(None)),
    "solution_seen": (bool,),
    "passed_source": (str, type(None)),
}


class ExerciseState(Struct):
    draft: str | None = None
    attempts: int = 0
    hints_used: int = 0
    passed: bool = False
    why_answer: int | None = None
    why_correct: bool = False
    why_first_answer: int | None = None  # kept for good, as a lesson question's first answer is; None before an answer, or when an older attnpos recorded it
    solution_seen: bool = False
    passed_source: str | None = None  # the code of the latest pass (app or `attnpos check`); None before a pass, or when an older attnpos recorded it

    @property
    def done(self) -> bool:
        return self.passed and self.why_correct

    @property
    def started(self) -> bool:
        return self.draft is not None or self.attempts > 0 or self.hints_used > 0 or self.passed

    def next_hint(self, total: int) -> int:
        """The hint to show when one is asked for: one past the strongest seen, from the nudge (1) up;
        the last again once every hint is seen. Hints are shown only when asked for, in this order,
        so ``hints_used`` is also how many were shown."""
        return min(self.hints_used + 1, total)

    @property
    def left(self) -> list[str]:
        """What is still to do: the code check, the why question, both, or nothing once done."""
        return [part for part, finished in (("code check", self.passed), ("why question", self.why_correct)) if not finished]


class QuizRecord(Struct, frozen=True):
    """A question's answers: the first one (what the outline and `progress` report) and the latest."""

    first_choice: int
    first_correct: bool
    choice: int  # the latest
    correct: bool


class Progress(Struct):
    """The state plus where it lives. Every change is saved as it is made: a change and its save are one operation."""

    path: Path
    state: dict[str, Any] = field(default_factory=_empty)
    notices: list[str] = field(default_factory=list)  # one-time messages for the learner
    writable: bool = True
    # Whether the process keeps running after a failed save (the app) or exits at once (a command):
    # "kept in memory until you quit" is true only of the first.
    lasting: bool = True
    # Every change since the last save, as a function that applies it to a state. On save they are
    # replayed onto whatever is on disk now, so two apps on one data folder keep both sets of progress.
    _changes: list[Callable[[dict], None]] = field(default_factory=list)
    _listener: Callable[[str], None] | None = None
    # The file as this process last read or wrote it (see reload): another process's save changes it.
    _disk_stamp: tuple[int, int, int] | None = None

    def _change(self, apply: Callable[[dict], None]) -> bool:
        """Apply a change to the state and save it; returns whether it was written (a failure is noted once)."""
        apply(self.state)
        self._changes.append(apply)
        return self.save()

    def note(self, message: str) -> None:
        """A one-time message for the learner: to the listener when there is one, else kept in ``notices``."""
        if self._listener is not None:
            self._listener(message)
        else:
            self.notices.append(message)

    def listen(self, tell: Callable[[str], None]) -> None:
        """Tell ``tell`` every notice from now on, and those kept so far (the app shows them as they come)."""
        self._listener = tell
        kept, self.notices = self.notices, []
        for message in kept:
            tell(message)

    @classmethod
    def load(cls, data_dir: Path | None = None, *, lasting: bool = True, read_only: bool = False) -> "Progress":
        """Read the state; a corrupt file is moved aside and noted, a missing one starts fresh.

        ``lasting``: False for a command that exits after one change (its notices say the change is lost).
        ``read_only``: for a report; nothing on disk is created, moved or written.
        """
        folder = default_data_dir() if data_dir is None else Path(data_dir)
        progress = cls(folder / STATE_FILE, lasting=lasting)
        if folder.exists() and not folder.is_dir():
            progress.writable = False
            progress.note(f"The data folder {folder} is a file, not a folder, so your progress cannot be kept there{progress._lost()}. {FIX_DATA_DIR}")
            return progress
        progress._disk_stamp = progress._stamp()  # before reading: a save in between is taken in by the next reload
        try:
            raw = progress.path.read_bytes()
        except FileNotFoundError:
            if read_only:
                progress.writable = False
            else:
                progress._probe_folder()
            return progress
        except OSError as error:
            progress.note(f"Could not read your progress in {folder} ({error.strerror or error}); starting fresh{progress._lost()}. {FIX_DATA_DIR}")
            progress.writable = False
            return progress
        try:
            state = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            state = None
        upgraded = _upgraded(state)
        if upgraded is not None:
            progress.state = upgraded
            if read_only:
                progress.writable = False
            return progress
        if read_only:
            progress.writable = False
            progress.note("Your progress file could not be used (it is damaged or from a newer attnpos); it is left as it is.")
            return progress
        progress._move_aside(state)
        return progress

    def _lost(self) -> str:
        """How long a change that cannot be saved lasts, said the way this front end lives."""
        return "; it is kept in memory until you quit" if self.lasting else ", so this change is not recorded"

    def _cannot_save(self, error: OSError) -> str:
        return f"Your progress cannot be saved in {self.path.parent} ({error.strerror or error}){self._lost()}. {FIX_DATA_DIR}"

    def _probe_folder(self) -> None:
        """Say at start-up, not at the first save, when the data folder cannot be made."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self.writable = False
            self.note(self._cannot_save(error))

    def _move_aside(self, state: Any) -> None:
        aside = self.path.with_name(f"{self.path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
        reason = (
            f"it was written by a newer attnpos (schema {state['version']})"
            if isinstance(state, dict) and isinstance(state.get("version"), int) and state["version"] > SCHEMA_VERSION
            else "it was damaged"
        )
        try:
            os.replace(self.path, aside)
            self.note(f"Your progress file could not be used ({reason}); it was kept as {aside.name} and a new one started.")
        except OSError:
            self.note(f"Your progress file could not be used ({reason}); starting fresh in memory.")
            self.writable = False

    def save(self) -> bool:
        """Merge this session's changes into the file and write it atomically.

        On failure keep going in memory and note it once. Returns whether it was written.
        """
        if not self.writable:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path.with_name(self.path.name + ".lock")):
                merged = self._read_disk()
                if merged is None:
                    merged = self.state
                else:
                    for apply in self._changes:
                        apply(merged)
                self._write(json.dumps(merged, indent=1, sort_keys=True).encode("utf-8"))
                self._disk_stamp = self._stamp()  # under the lock: no other save comes between
        except OSError as error:
            self.writable = False
            self.note(self._cannot_save(error))
            return False
        self.state = merged
        self._changes.clear()
        return True

    def _stamp(self) -> tuple[int, int, int] | None:
        """The file's modification time, size and inode; None when it cannot be read."""
        try:
            found = self.path.stat()
        except OSError:
            return None
        return (found.st_mtime_ns, found.st_size, found.st_ino)

    def reload(self) -> bool:
        """Take in what another process saved since this one last read or wrote the file (`attnpos check` in
        another terminal while the app is open); returns whether the state changed. One stat when nothing did."""
        stamp = self._stamp()
        if stamp is None or stamp == self._disk_stamp:
            return False
        self._disk_stamp = stamp
        on_disk = self._read_disk()
        if on_disk is None:
            return False
        for apply in self._changes:  # this process's changes not saved yet (a save failed): kept on top
            apply(on_disk)
        changed, self.state = on_disk != self.state, on_disk
        return changed

    def _read_disk(self) -> dict | None:
        """The valid state on disk now, or None (missing or unusable: ours replaces it)."""
        try:
            state = json.loads(self.path.read_bytes().decode("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        return _upgraded(state)

    def _write(self, data: bytes) -> None:
        """Temporary file, fsync, rename, fsync of the folder: the file is always the old or the new state."""
        # Named as tempfile.mkstemp names one (a random name, made with O_EXCL, 0o600), without calling it:
        # its random-name machinery cost 32 M instructions of a cold `attnpos check` that saves a pass (callgrind).
        tmp = self.path.with_name(f".progress-{os.urandom(6).hex()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        _fsync_dir(self.path.parent)

    # --- reading position -------------------------------------------------

    @property
    def position(self) -> tuple[int, int] | None:
        p = self.state["position"]
        return (p[0], p[1]) if p else None

    @property
    def open_exercise(self) -> str | None:
        """The exercise the learner was in when they left, if they left from one."""
        value = self.state.get("open_exercise")
        return value if isinstance(value, str) else None

    def enter_exercise(self, exercise_id: str | None) -> None:
        """Note the exercise on screen (None when the learner goes back out of it)."""

        def apply(state: dict) -> None:
            state["open_exercise"] = exercise_id

        self._change(apply)

    def visit(self, lesson: int, section: int) -> None:
        def apply(state: dict) -> None:
            state["position"] = [lesson, section]
            seen = state["visited"].setdefault(str(lesson), [])
            if section not in seen:
                seen.append(section)
                seen.sort()

        self._change(apply)

    def visited(self, lesson: int) -> set[int]:
        return set(self.state["visited"].get(str(lesson), []))

    # --- exercises ---------------------------------------------------------

    def exercise(self, exercise_id: str) -> ExerciseState:
        raw = self.state["exercises"].get(exercise_id, {})
        known = {k: v for k, v in raw.items() if k in ExerciseState.__struct_fields__}
        try:
            return ExerciseState(**known)
        except TypeError:
            return ExerciseState()

    def update_exercise(self, exercise_id: str, **changes: Any) -> ExerciseState:
        """Set some fields of an exercise's state; only these fields are merged on save.

        Not the why question's: every route (the app, `attnpos why`, `watch`, the magic) records an
        answer with :meth:`answer_why`, which keeps the first one for good.
        """
        for key in changes:
            if key not in ExerciseState.__struct_fields__:
                raise AttributeError(key)
            if key in WHY_FIELDS:
                raise AttributeError(f"{key}: a why answer is recorded with answer_why")

        def apply(state: dict) -> None:
            state["exercises"].setdefault(exercise_id, {}).update(changes)

        self._change(apply)
        return self.exercise(exercise_id)

    def record_check(self, exercise_id: str, passed: bool, source: str) -> ExerciseState:
        """A check of ``source``, in the app or with `attnpos check`: one more attempt, and a pass sticks.

        A pass also keeps the code that passed, so the other front end can show it rather than
        a pass above code that was never checked. Applied to the file's state on save, so two
        front ends checking at once both count.
        """

        def apply(state: dict) -> None:
            entry = state["exercises"].setdefault(exercise_id, {})
            entry["attempts"] = entry.get("attempts", 0) + 1
            entry["passed"] = entry.get("passed", False) or passed
            if passed:
                entry["passed_source"] = source

        self._change(apply)
        return self.exercise(exercise_id)

    def record_hint(self, exercise_id: str, number: int) -> bool:
        """Hint ``number`` (from 1) was shown; hints count up to the strongest seen. Returns whether the count rose."""
        if number <= self.exercise(exercise_id).hints_used:
            return False

        def apply(state: dict) -> None:
            entry = state["exercises"].setdefault(exercise_id, {})
            entry["hints_used"] = max(entry.get("hints_used", 0), number)

        self._change(apply)
        return True

    def answer_why(self, exercise_id: str, choice: int, correct: bool) -> ExerciseState:
        """Record an answer to an exercise's why question as the latest; its first answer is kept for good."""

        def apply(state: dict) -> None:
            entry = state["exercises"].setdefault(exercise_id, {})
            if entry.get("why_first_answer") is None:
                entry["why_first_answer"] = choice
            entry["why_answer"] = choice
            entry["why_correct"] = correct

        self._change(apply)
        return self.exercise(exercise_id)

    def answer_quiz(self, quiz_id: str, choice: int, correct: bool) -> None:
        """Record an answer as the latest; the first answer to a question is kept for good."""

        def apply(state: dict) -> None:
            earlier = state["quizzes"].get(quiz_id)
            first = (earlier["first_choice"], earlier["first_correct"]) if earlier else (choice, correct)
            state["quizzes"][quiz_id] = {"choice": choice, "correct": correct, "first_choice": first[0], "first_correct": first[1]}

        self._change(apply)

    def quiz_answer(self, quiz_id: str) -> QuizRecord | None:
        entry = self.state["quizzes"].get(quiz_id)
        if entry is None:
            return None
        return QuizRecord(entry["first_choice"], entry["first_correct"], entry["choice"], entry["correct"])

    def first_answers(self, quiz_ids: Iterable[str]) -> tuple[int, int]:
        """(right at the first answer, answered) over these questions: what the outline and `progress` report."""
        records = [r for r in map(self.quiz_answer, quiz_ids) if r is not None]
        return sum(r.first_correct for r in records), len(records)

    # --- lesson code cells the learner edited -------------------------------------

    def cell_edit(self, key: str) -> str | None:
        """The learner's version of a lesson code cell (see ``cell_key``), or None when it is the lesson's."""
        value = self.state.get("cells", {}).get(key) if isinstance(self.state.get("cells"), dict) else None
        return value if isinstance(value, str) else None

    def set_cell_edit(self, key: str, source: str | None) -> bool:
        """Keep the learner's version of a cell (None: back to the lesson's code); returns whether it was written."""

        def apply(state: dict) -> None:
            cells = state.get("cells")
            if not isinstance(cells, dict):
                cells = state["cells"] = {}
            if source is None:
                cells.pop(key, None)
            else:
                cells[key] = source

        return self._change(apply)

    def reset(self, exercise_id: str | None = None) -> bool:
        """Forget everything, or one exercise's state; returns whether that was written."""

        def apply(state: dict) -> None:
            if exercise_id is None:
                state.clear()
                state.update(_empty())
            else:
                state["exercises"].pop(exercise_id, None)

        return self._change(apply)


def lesson_status(lesson: "OutlineLesson", progress: Progress) -> str:
    visited = progress.visited(lesson.number)
    exercises = [progress.exercise(e.id) for e in lesson.exercises]
    if not visited and not any(e.started for e in exercises):
        return "not started"
    if len(visited) >= len(lesson.sections) and all(e.done for e in exercises):
        return "done"
    return "in progress"


def cell_key(lesson: int, original: str) -> str:
    """Names a lesson code cell by its lesson and its code, so an edit follows the cell when lines move
    (an edit of a cell whose lesson code changed stays in the file, unshown)."""
    import hashlib  # here: only the app's code cells are named so, and loading OpenSSL is needless work for a cold check

    return f"{lesson}:{hashlib.sha256(original.encode('utf-8')).hexdigest()[:16]}"


def course_order(outline: "list[OutlineLesson]") -> list[str]:
    """Every exercise id in the order the course meets them."""
    return [exercise.id for lesson in outline for exercise in lesson.exercises]


def next_exercise(order: list[str], progress: Progress) -> str | None:
    """The first exercise in ``order`` that is not done (code passed and why question answered); None when all are."""
    return next((exercise_id for exercise_id in order if not progress.exercise(exercise_id).done), None)


def exercise_status(exercise_id: str, progress: Progress) -> str:
    state = progress.exercise(exercise_id)
    return "done" if state.done else "in progress" if state.started else "not started"


@contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` while two apps might both be saving."""
    with open(lock_path, "a+b") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable; not every platform can open a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


EXPORT_FORMAT = "attnpos-progress-export"
EXPORT_VERSION = 1
# What an export keeps of an exercise: what grading reads; never the draft or the code.
WHY_FIELDS = ("why_answer", "why_first_answer", "why_correct")  # written by Progress.answer_why alone
EXPORTED_EXERCISE_FIELDS = ("passed", "attempts", "hints_used", "why_answer", "why_first_answer", "why_correct")


def export_progress(progress: Progress, exercise_ids: Iterable[str], quiz_ids: Iterable[str]) -> dict:
    """What a learner hands in beside their answer files (`attnpos progress --export FILE`): no code, no paths.

    Keys sorted, no time stamps: the same progress exports to the same bytes.
    """
    exercises = {}
    for exercise_id in exercise_ids:
        state = asdict(progress.exercise(exercise_id))
        exercises[exercise_id] = {name: state[name] for name in EXPORTED_EXERCISE_FIELDS}
    questions = {}
    for quiz_id in quiz_ids:
        record = progress.quiz_answer(quiz_id)
        if record is not None:
            questions[quiz_id] = {"first_choice": record.first_choice, "first_correct": record.first_correct}
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exercises": exercises, "questions": questions}


def read_export(data: Any) -> dict[str, ExerciseState] | None:
    """The exercises of a parsed export, or None when ``data`` is not one this version reads.

    Fields of the wrong type are dropped (it is a student's own file), never trusted.
    """
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
        return None
    exercises = data.get("exercises")
    if not isinstance(exercises, dict):
        return None
    states = {}
    for exercise_id, entry in exercises.items():
        if not isinstance(entry, dict):
            continue
        fields = {name: value for name, value in entry.items() if name in EXPORTED_EXERCISE_FIELDS and _valid_exercise({name: value})}
        states[str(exercise_id)] = ExerciseState(**fields)
    return states
