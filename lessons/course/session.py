"""A learner's session without a screen: the course, their progress, the sandbox for their code and its limits.

The app holds one and draws it; a test can hold one alone. The outline, the
course text and the progress are read at once (no NumPy: the first frame must
not wait); the full course and the sandbox come on first use, each under a
lock of its own, since a worker thread may ask for the course while the UI
thread asks for the sandbox.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from attnpos.lessons.checker import RUNS_PER_CHECK
from attnpos.lessons.course.outline import OutlineLesson, read_outline
from attnpos.lessons.course.progress import Progress
from attnpos.lessons.course.scanner import CourseText, read_course_text

if TYPE_CHECKING:  # the sandbox and the loader bring NumPy: imported where first used
    from attnpos.lessons.checker import Limits, Sandbox
    from attnpos.lessons.course.model import Course

SANDBOX_WORKERS = RUNS_PER_CHECK  # a check's runs side by side (the package's __init__ imports no NumPy)


class Session:
    def __init__(self, data_dir: Path | None = None, limits: Limits | None = None) -> None:
        """``data_dir``: where progress lives (the platform's data folder when None); ``limits``: for learner code (the sandbox's defaults when None)."""
        self.progress = Progress.load(data_dir)
        self.outline: list[OutlineLesson] = read_outline()
        self.text: CourseText = read_course_text()  # title, prerequisites, introduction
        self._limits = limits
        self._course: Course | None = None
        self._course_lock = threading.Lock()
        self._sandbox: Sandbox | None = None
        self._sandbox_lock = threading.Lock()

    @property
    def course(self) -> Course:
        """The whole course, loaded once (CourseError when a lesson has a mistake; asked again, it tries again)."""
        with self._course_lock:
            if self._course is None:
                from attnpos.lessons.course.loader import load_course

                self._course = load_course()
            return self._course

    @property
    def limits(self) -> Limits:
        """Time and memory allowed to learner code."""
        if self._limits is None:
            from attnpos.lessons.checker import Limits

            self._limits = Limits()
        return self._limits

    @property
    def sandbox(self) -> Sandbox:
        """The warm sandbox for running and checking learner code, started on first use."""
        with self._sandbox_lock:
            if self._sandbox is None:
                from attnpos.lessons.checker import Sandbox

                self._sandbox = Sandbox(max_workers=SANDBOX_WORKERS)
            return self._sandbox

    def use_sandbox(self, sandbox: Sandbox) -> None:
        """Run learner code in this sandbox instead of starting one (a test's, or a less confined one)."""
        with self._sandbox_lock:
            self._sandbox = sandbox

    def close(self) -> None:
        """Stop the sandbox, if it was started."""
        with self._sandbox_lock:
            if self._sandbox is not None:
                self._sandbox.close()
