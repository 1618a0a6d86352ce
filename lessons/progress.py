"""The learner's progress: where they are, what they read, their drafts and results.

Stored as versioned JSON in the platform's user data folder (platformdirs),
or in ``--data-dir`` / ``$ATTNPOS_DATA_DIR``. Every save is atomic (a
temporary file, fsync, os.replace), so a crash leaves the previous state or
the new one, never half of each. A state file that cannot be read is moved
aside; a folder that cannot be written leaves the state in memory and says so
once.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from attnpos.lessons.outline import OutlineLesson

SCHEMA_VERSION = 1
STATE_FILE = "progress.json"
DATA_DIR_ENV = "ATTNPOS_DATA_DIR"


def default_data_dir() -> Path:
    """$ATTNPOS_DATA_DIR if set, else the platform's user data folder for attnpos."""
    if os.environ.get(DATA_DIR_ENV):
        return Path(os.environ[DATA_DIR_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("attnpos", appauthor=False))


def _empty() -> dict[str, Any]:
    return {"version": SCHEMA_VERSION, "position": None, "visited": {}, "exercises": {}, "quizzes": {}}


def _valid(state: Any) -> bool:
    """The shape this version writes; anything else is treated as corrupt."""
    if not isinstance(state, dict) or state.get("version") != SCHEMA_VERSION:
        return False
    position = state.get("position")
    if position is not None and not (
        isinstance(position, list) and len(position) == 2 and all(isinstance(v, int) for v in position)
    ):
        return False
    return (
        isinstance(state.get("visited"), dict)
        and all(isinstance(v, list) and all(isinstance(i, int) for i in v) for v in state["visited"].values())
        and isinstance(state.get("exercises"), dict)
        and all(isinstance(v, dict) for v in state["exercises"].values())
        and isinstance(state.get("quizzes"), dict)
    )


@dataclass
class ExerciseState:
    draft: str | None = None
    attempts: int = 0
    hints_used: int = 0
    passed: bool = False
    why_answer: int | None = None
    why_correct: bool = False
    solution_seen: bool = False

    @property
    def done(self) -> bool:
        return self.passed and self.why_correct

    @property
    def started(self) -> bool:
        return self.draft is not None or self.attempts > 0 or self.hints_used > 0


@dataclass
class Progress:
    """The state plus where it lives; call :meth:`save` after a change."""

    path: Path | None
    state: dict[str, Any] = field(default_factory=_empty)
    notices: list[str] = field(default_factory=list)  # one-time messages for the learner
    writable: bool = True

    @classmethod
    def load(cls, data_dir: Path | None = None) -> "Progress":
        """Read the state; a corrupt file is moved aside and noted, a missing one starts fresh."""
        folder = default_data_dir() if data_dir is None else Path(data_dir)
        progress = cls(folder / STATE_FILE)
        try:
            raw = progress.path.read_bytes()
        except FileNotFoundError:
            return progress
        except OSError as error:
            progress.notices.append(f"Could not read your progress ({error.strerror}); starting fresh in memory.")
            progress.writable = False
            return progress
        try:
            state = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            state = None
        if _valid(state):
            progress.state = state
            return progress
        progress._move_aside(state)
        return progress

    def _move_aside(self, state: Any) -> None:
        assert self.path is not None
        aside = self.path.with_name(f"{self.path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
        reason = (
            f"it was written by a newer attnpos (schema {state['version']})"
            if isinstance(state, dict) and isinstance(state.get("version"), int) and state["version"] > SCHEMA_VERSION
            else "it was damaged"
        )
        try:
            os.replace(self.path, aside)
            self.notices.append(f"Your progress file could not be used ({reason}); it was kept as {aside.name} and a new one started.")
        except OSError:
            self.notices.append(f"Your progress file could not be used ({reason}); starting fresh in memory.")
            self.writable = False

    def save(self) -> bool:
        """Write atomically; on failure keep going in memory and note it once. Returns whether it was written."""
        if self.path is None or not self.writable:
            return False
        data = json.dumps(self.state, indent=1, sort_keys=True).encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".progress-", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            _fsync_dir(self.path.parent)
            return True
        except OSError as error:
            self.writable = False
            self.notices.append(
                f"Your progress cannot be saved in {self.path.parent} ({error.strerror or error}); "
                "it is kept in memory until you quit."
            )
            return False

    # --- reading position -------------------------------------------------

    @property
    def position(self) -> tuple[int, int] | None:
        p = self.state["position"]
        return (p[0], p[1]) if p else None

    def visit(self, lesson: int, section: int) -> None:
        self.state["position"] = [lesson, section]
        seen = self.state["visited"].setdefault(str(lesson), [])
        if section not in seen:
            seen.append(section)
            seen.sort()

    def visited(self, lesson: int) -> set[int]:
        return set(self.state["visited"].get(str(lesson), []))

    # --- exercises ---------------------------------------------------------

    def exercise(self, exercise_id: str) -> ExerciseState:
        raw = self.state["exercises"].get(exercise_id, {})
        known = {k: v for k, v in raw.items() if k in ExerciseState.__dataclass_fields__}
        try:
            return ExerciseState(**known)
        except TypeError:
            return ExerciseState()

    def update_exercise(self, exercise_id: str, **changes: Any) -> ExerciseState:
        current = self.exercise(exercise_id)
        for key, value in changes.items():
            if key not in ExerciseState.__dataclass_fields__:
                raise AttributeError(key)
            setattr(current, key, value)
        self.state["exercises"][exercise_id] = current.__dict__.copy()
        return current

    def answer_quiz(self, quiz_id: str, choice: int, correct: bool) -> None:
        self.state["quizzes"][quiz_id] = {"choice": choice, "correct": correct}

    def quiz_answer(self, quiz_id: str) -> dict | None:
        return self.state["quizzes"].get(quiz_id)

    def reset(self, exercise_id: str | None = None) -> None:
        if exercise_id is None:
            self.state = _empty()
        else:
            self.state["exercises"].pop(exercise_id, None)


def lesson_status(lesson: "OutlineLesson", progress: Progress) -> str:
    visited = progress.visited(lesson.number)
    exercises = [progress.exercise(e.id) for e in lesson.exercises]
    if not visited and not any(e.started for e in exercises):
        return "not started"
    if len(visited) >= len(lesson.sections) and all(e.done for e in exercises):
        return "done"
    return "in progress"


def exercise_status(exercise_id: str, progress: Progress) -> str:
    state = progress.exercise(exercise_id)
    return "done" if state.done else "in progress" if state.started else "not started"


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
