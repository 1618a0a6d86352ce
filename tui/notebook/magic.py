"""``%attnpos`` / ``%%attnpos``: check a cell, read a hint, start an exercise, from Jupyter.

    %load_ext attnpos
    %attnpos exercise constant-offset     # the starter, in the next cell
    %%attnpos check constant-offset       # checks the cell's source in the sandbox
    %attnpos hint constant-offset 1
    %attnpos why constant-offset b        # once the code passes: the question that completes it

The verdict, the message and the progress are exactly the command line's
(``attnpos check``): the same checker, the same Rich output (which Jupyter
renders as HTML), the same progress store.
"""

from __future__ import annotations

import atexit
import shlex
import sys
import threading
from pathlib import Path

from rich.console import Console

from attnpos.lessons.checker import Checker, ConfinementUnavailable, open_checker
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.model import Course
from attnpos.lessons.course.progress import Progress
from attnpos.tui.render.exercise_print import answer_why_question, find_exercise, print_hint, print_verdict, print_why_question, record, why_letters
from attnpos.tui.render.usage import UsageError

USAGE = "usage: %attnpos exercise ID · %attnpos hint ID [N] · %attnpos why ID [LETTER] · %%attnpos check ID (a cell magic, above your answer)"


def sandbox_unavailable() -> str | None:
    """Why learner code cannot be confined here, in one line; None where it can."""
    if sys.platform == "emscripten":
        return "attnpos: the checker's sandbox needs Linux processes, which Pyodide and JupyterLite do not have"
    if not sys.platform.startswith("linux"):
        return f"attnpos: the checker's sandbox needs Linux; this kernel runs on {sys.platform}"
    return None


class Session:
    """The course and one checker per kernel, opened at the first check and closed when the kernel exits."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.data_dir = data_dir
        self._course: Course | None = None
        self._checker: Checker | None = None
        self._lock = threading.Lock()

    @property
    def course(self) -> Course:
        if self._course is None:
            self._course = load_course()
        return self._course

    def checker(self) -> Checker:
        with self._lock:
            if self._checker is None:
                self._checker = open_checker()
                atexit.register(self._checker.close)
            return self._checker

    def check(self, exercise_id: str, source: str, console: Console) -> bool:
        exercise = find_exercise(self.course, exercise_id)
        verdict = self.checker().check(exercise, source, filename=f"{exercise.id}.py")
        print_verdict(console, verdict, Path(f"cell ({exercise.id})"))
        record(verdict, source, self.data_dir, console, why_command="%attnpos why")
        return verdict.passed

    def why(self, exercise_id: str, letter: str | None, console: Console) -> None:
        """The why question once the code passes: asked without a letter, answered (and recorded as every route records it) with one."""
        exercise = find_exercise(self.course, exercise_id)
        progress = Progress.load(self.data_dir, lasting=False)
        if not progress.exercise(exercise.id).passed:
            raise UsageError(f"the why question of {exercise.id} comes once your code passes: %%attnpos check {exercise.id}")
        if letter is None:
            print_why_question(console, exercise)
            console.print(f"answer with the letter: %attnpos why {exercise.id} a ({why_letters(exercise)})", markup=False)
            return
        if not answer_why_question(console, progress, exercise, letter.strip().lower()):
            console.print(f"try again: %attnpos why {exercise.id} LETTER", markup=False)

    def starter_cell(self, exercise_id: str) -> str:
        exercise = find_exercise(self.course, exercise_id)
        return f"%%attnpos check {exercise.id}\n{exercise.starter}"


def run_magic(session: Session, line: str, cell: str | None, set_next_input, console: Console | None = None) -> None:
    """What ``%attnpos LINE`` (cell None) or ``%%attnpos LINE`` + CELL does; errors are one line, never a traceback."""
    console = console or Console(highlight=False)
    try:
        words = shlex.split(line)
    except ValueError as error:
        console.print(f"attnpos: {error}", markup=False, soft_wrap=True)
        return
    try:
        _dispatch(session, words, cell, set_next_input, console)
    except UsageError as error:
        console.print(f"attnpos: {error}", markup=False, soft_wrap=True)
    except ConfinementUnavailable as reason:
        console.print(f"attnpos: {reason}", markup=False, soft_wrap=True)


def _dispatch(session: Session, words: list[str], cell: str | None, set_next_input, console: Console) -> None:
    if not words:
        raise UsageError(USAGE)
    action, arguments = words[0], words[1:]
    if action == "check":
        if cell is None:
            raise UsageError("check is a cell magic: put %%attnpos check ID on the first line of your answer's cell")
        if len(arguments) != 1:
            raise UsageError("say which exercise: %%attnpos check constant-offset")
        unavailable = sandbox_unavailable()
        if unavailable:
            console.print(unavailable, markup=False, soft_wrap=True)
            return
        session.check(arguments[0], cell, console)
    elif action == "exercise":
        if len(arguments) != 1:
            raise UsageError("say which exercise: %attnpos exercise constant-offset")
        set_next_input(session.starter_cell(arguments[0]))
    elif action == "hint":
        if not 1 <= len(arguments) <= 2 or (len(arguments) == 2 and not arguments[1].isdigit()):
            raise UsageError("say which exercise and, if you like, which hint: %attnpos hint constant-offset 2")
        print_hint(session.course, arguments[0], int(arguments[1]) if len(arguments) == 2 else 1, session.data_dir)
    elif action == "why":
        if not 1 <= len(arguments) <= 2:
            raise UsageError("say which exercise and, to answer, the letter: %attnpos why constant-offset b")
        session.why(arguments[0], arguments[1] if len(arguments) == 2 else None, console)
    else:
        raise UsageError(f"unknown action {action!r}; {USAGE}")


def load_ipython_extension(ipython) -> None:
    """Register ``%attnpos`` as a line and a cell magic (``%load_ext attnpos``)."""
    session = Session()

    def attnpos(line: str, cell: str | None = None) -> None:
        run_magic(session, line, cell, lambda text: ipython.set_next_input(text, replace=False))

    ipython.register_magic_function(attnpos, magic_kind="line_cell", magic_name="attnpos")
