"""A learner's session without a screen: the course, their progress, the checker for their code and its limits.

The app holds one and draws it; a test can hold one alone. The outline, the
course text and the progress are read at once (no NumPy: the first frame must
not wait; each lesson's outline from the cache in the data folder when the
lesson is unchanged since); the full course and the checker come on first use, each under a
lock of its own, since a worker thread may ask for the course while the UI
thread asks for the checker.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from attnpos.lessons.course.outline import OUTLINE_CACHE, OutlineLesson, read_outline
from attnpos.lessons.course.progress import Progress
from attnpos.lessons.course.scanner import CourseText, read_course_text

if TYPE_CHECKING:  # the checker and the loader bring NumPy: imported where first used
    from attnpos.lessons.checker import Checker, Limits
    from attnpos.lessons.course.model import Course


class Session:
    def __init__(self, data_dir: Path | None = None, limits: Limits | None = None) -> None:
        """``data_dir``: where progress lives (the platform's data folder when None); ``limits``: for learner code (the sandbox's defaults when None)."""
        self.progress = Progress.load(data_dir)
        cache = self.progress.path.parent / OUTLINE_CACHE if self.progress.writable else None
        self.outline: list[OutlineLesson] = read_outline(cache=cache)
        self.text: CourseText = read_course_text()  # title, prerequisites, introduction
        self._limits = limits
        self._course: Course | None = None
        self._course_lock = threading.Lock()
        self._checker: Checker | None = None
        self._checker_lock = threading.Lock()

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
    def checker(self) -> Checker:
        """The checker that runs and checks learner code (one check at a time), its sandbox started on first use."""
        with self._checker_lock:
            if self._checker is None:
                from attnpos.lessons.checker import open_checker

                self._checker = open_checker(limits=self.limits)
            return self._checker

    def use_checker(self, checker: Checker) -> None:
        """Run learner code with this checker instead of opening one (a test's, or a less confined one)."""
        with self._checker_lock:
            self._checker = checker

    def close(self) -> None:
        """Close the checker, if it was opened."""
        with self._checker_lock:
            if self._checker is not None:
                self._checker.close()
