"""The attnpos Textual app: outline, lesson reader, help and command palette."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.filter import NoColor
from textual.screen import Screen

from attnpos.lessons.course.outline import OutlineLesson, find_outline_exercise
from attnpos.lessons.course.progress import Progress
from attnpos.lessons.course.scanner import CourseText
from attnpos.lessons.course.session import Session
from attnpos.tui.app.command_palette import CourseCommands
from attnpos.tui.app.keys import binding_groups
from attnpos.tui.app.leaks import release_removed_widgets
from attnpos.tui.app.screens.outline_screen import OutlineScreen
from attnpos.tui.app.screens.too_small_screen import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen

if TYPE_CHECKING:  # the checker and the loader bring NumPy: imported where first used
    from attnpos.lessons.checker import Checker, Limits
    from attnpos.lessons.course.model import Course

PRELOAD_DELAY = 0.6  # seconds after the first frame before the lessons and NumPy are loaded in the background
HANG_UP_GRACE = 3.0  # seconds a hung-up app may take to shut down before it is ended outright
CRASH_LOG = "crash.log"  # in the data folder: the traceback of an error no screen caught, the latest only


class AttnposApp(App):
    """Why Attention Needs Position: a course you read, run and answer in the terminal."""

    CSS_PATH = "course_app.tcss"
    COMMANDS = App.COMMANDS | {CourseCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("ctrl+p", "command_palette", "Jump to…", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        data_dir: Path | None = None,
        start: tuple[int, int] | str | None = None,
        limits: Limits | None = None,
        play: str | None = None,
    ):
        """``start``: (lesson, section) to open a lesson, or an exercise id to open an exercise.
        ``play``: open the playground on this sentence.

        ``limits``: the sandbox's Limits for learner code (its defaults when None).
        """
        super().__init__()
        if self.console.color_system is None:
            # TERM=dumb (or a terminal Rich finds no colours on): Rich would print no colour, but
            # Textual draws a missing colour system as 24-bit. Its own NO_COLOR filter, added the
            # way Textual adds it (App has no public hook), keeps bold and reverse for the cursor.
            self._filters.append(NoColor())
        # Without colour a highlighted row is only bold: the stylesheet reverses it instead.
        self.set_class(self.no_color or self.console.color_system is None, "-no-colour")
        self.session = Session(data_dir, limits)  # the course, progress, checker and limits, without Textual
        self.title = self.session.text.title or self.title
        self.confinement_told = False  # the exercise screen says once per session what confinement is missing
        self._start = start
        self._play = play
        self.crash_log: Path | None = None  # where the traceback went, after an error no screen caught

    def get_default_screen(self) -> Screen:
        """The outline, at the bottom of the screen stack.

        Made as Textual makes any app's first screen, it is drawn in the app's first frame. Pushed from
        on_mount instead, it was laid out and rendered inside Textual's start-up batch, whose frame is
        never written, and first drawn only after the footer had been composed three times over.
        """
        outline = OutlineScreen()
        for path in outline.css_path:  # Textual reads a pushed screen's stylesheet itself, not the first screen's
            self.stylesheet.read(path)
        return outline

    def on_mount(self) -> None:
        self.progress.listen(lambda notice: self.notify(notice, severity="warning", timeout=10))  # a save that failed, a file moved aside
        if isinstance(self._start, str):
            self.open_exercise(self._start)
        elif self._start is not None:
            self.open_lesson(*self._start)
        if self._play is not None:
            self.open_playground(self._play)
        self._catch_hangups()
        # Not at once: importing NumPy in a thread competes for the GIL with drawing the first frame. Counted from
        # that frame, not from here: on a loaded machine the first frame can take longer than the delay itself.
        self.call_after_refresh(self.set_timer, PRELOAD_DELAY, self._preload_course)

    def _catch_hangups(self) -> None:
        """A dropped SSH connection (SIGHUP) or a kill (SIGTERM) saves the draft, then exits cleanly."""
        loop = asyncio.get_running_loop()
        for number in (signal.SIGHUP, signal.SIGTERM):
            try:
                loop.add_signal_handler(number, self._hang_up)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no such signal here
                pass

    def _hang_up(self) -> None:
        self.save_drafts()
        # After a real hang-up the terminal is gone, and Textual's shutdown can block for ever
        # restoring it (its writer thread dies on the dead terminal and the queue to it fills).
        # The drafts are saved, so a watchdog makes sure no process is left behind.
        watchdog = threading.Timer(HANG_UP_GRACE, os._exit, args=(129,))
        watchdog.daemon = True
        watchdog.start()
        self.exit(return_code=129)

    def save_drafts(self) -> None:
        """Ask every open exercise screen to write its draft (no import: quitting must stay fast)."""
        for screen in self.screen_stack:
            save = getattr(screen, "save_draft", None)
            if save is not None:
                save()

    def _handle_exception(self, error: Exception) -> None:
        """An error no screen caught: the drafts are saved and the traceback kept, then Textual ends the app (status 1)."""
        if self.crash_log is None:  # the first error is the one to read; later ones follow from it
            try:
                self.save_drafts()
            except Exception:  # the crash must still end the app and say where its log is
                pass
            self.crash_log = write_crash_log(self.progress.path.parent, error)
        super()._handle_exception(error)

    def pop_screen(self):
        awaitable = super().pop_screen()
        self.call_after_refresh(release_removed_widgets, self)  # once the screen is gone
        return awaitable

    async def on_event(self, event: events.Event) -> None:
        # Keys still queued while the app shuts down (a burst of n and p, then q) would reach Textual's key
        # handling after the screens are gone, which raises ScreenStackError: the learner has left, so they go.
        if isinstance(event, events.InputEvent) and not self.is_running:
            return
        await super().on_event(event)

    async def action_quit(self) -> None:
        self.save_drafts()
        self.exit()

    def on_unmount(self) -> None:
        self.save_drafts()
        self.session.close()

    # --- the session: what the screens read, kept by attnpos.lessons.course.session -----------

    @property
    def progress(self) -> Progress:
        return self.session.progress

    @property
    def outline(self) -> list[OutlineLesson]:
        return self.session.outline

    @property
    def course_text(self) -> CourseText:
        return self.session.text

    @property
    def checker(self) -> Checker:
        return self.session.checker

    @property
    def course(self) -> Course:
        return self.session.course

    @work(thread=True, exit_on_error=False)
    def _preload_course(self) -> None:
        """Load lessons and figures (NumPy, the experiments) while the learner reads the outline."""
        _ = self.session.course  # the session loads and keeps it

    # --- navigation --------------------------------------------------------

    def _course_or_notice(self) -> Course | None:
        """The course, or None after telling the learner why it cannot be loaded (an edited lesson with a mistake)."""
        from attnpos.lessons.course.loader import CourseError

        try:
            return self.course
        except CourseError as error:
            self.notify(f"{error.problems[0]}\nRun 'attnpos lessons --check' for every problem.", severity="error", timeout=10)
            return None

    def open_lesson(self, number: int, section: int | None = None) -> None:
        from attnpos.tui.app.screens.lesson_screen import LessonScreen

        course = self._course_or_notice()
        if course is None:
            return
        lesson = course.lesson(number)
        if self.progress.open_exercise is not None:
            self.left_exercise()
        if section is None:
            position = self.progress.position
            section = position[1] if position and position[0] == number else 0
        # One reader screen, reused: a screen per visit would leave its header and footer behind.
        reader = next((s for s in self.screen_stack if isinstance(s, LessonScreen)), None)
        if reader is None:
            self.pop_to_outline()
            self.push_screen(LessonScreen(course, lesson, section))
            return
        self.save_drafts()
        while self.screen is not reader:
            self.pop_screen()
        self.call_later(reader.open, lesson, section)

    def open_exercise(self, exercise_id: str) -> None:
        """Open the exercise screen, above the lesson section where the exercise sits."""
        from attnpos.tui.app.screens.exercise_screen import ExerciseScreen

        course = self._course_or_notice()
        if course is None:
            return
        exercise = course.exercises.get(exercise_id)
        if exercise is None:
            self.notify(f"No exercise {exercise_id!r}.", severity="error")
            return
        placed = find_outline_exercise(self.outline, exercise_id)
        assert placed is not None  # the loader has checked that every exercise sits in a lesson
        section = placed.section
        if not (isinstance(self.screen, ExerciseScreen) and self.screen.exercise.id == exercise_id):
            self.open_lesson(exercise.lesson, section)
            self.push_screen(ExerciseScreen(exercise, self.progress.exercise(exercise_id).draft))
            self.progress.enter_exercise(exercise_id)

    def open_playground(self, sentence: str | None = None, perm: list[int] | None = None, signal: str = "none") -> None:
        from attnpos.lessons.course.playground_state import DEFAULT_SENTENCE
        from attnpos.tui.app.screens.playground_screen import PlaygroundScreen

        self.push_screen(PlaygroundScreen(sentence or DEFAULT_SENTENCE, perm, signal))

    def open_glossary(self) -> None:
        course = self._course_or_notice()
        if course is None:
            return
        from attnpos.tui.app.screens.dialogs import GlossaryScreen

        self.push_screen(GlossaryScreen(course.glossary))

    def open_signal_pictures(self) -> None:
        from attnpos.tui.app.screens.signals_screen import SignalsScreen

        self.push_screen(SignalsScreen())

    def pop_to_outline(self) -> None:
        self.save_drafts()
        if self.progress.open_exercise is not None:
            self.left_exercise()
        while len(self.screen_stack) > 1:  # the outline stays
            self.pop_screen()

    def action_continue(self) -> None:
        """Back to where the learner left: the exercise they were in, else the section they read last."""
        exercise = find_outline_exercise(self.outline, self.progress.open_exercise)
        if exercise is not None:
            self.open_exercise(exercise.id)
            return
        position = self.progress.position
        self.open_lesson(*(position or (self.outline[0].number, 0)))

    def left_exercise(self) -> None:
        """The learner went back out of an exercise: `c` now continues at the lesson."""
        self.progress.enter_exercise(None)

    def action_command_palette(self) -> None:
        # Textual only checks the top screen; with the too-small screen over an open palette
        # a second palette would be pushed with the same id.
        if not any(isinstance(screen, CommandPalette) for screen in self.screen_stack):
            super().action_command_palette()

    def action_help(self) -> None:
        from attnpos.tui.app.screens.dialogs import HelpScreen  # the dialogs' lesson blocks bring NumPy: not at start-up

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(binding_groups(self.screen)))

    # --- screenshots (ctrl+p, "Screenshot") -----------------------------------

    def screenshot_folder(self) -> Path:
        """The Downloads folder when there is one, else the data folder, else the working folder.

        Textual saves to ~/Downloads only, and a server reached over SSH often has none.
        """
        from platformdirs import user_downloads_path

        for folder in (user_downloads_path(), self.progress.path.parent):
            if folder.is_dir() and os.access(folder, os.W_OK):
                return folder
        return Path.cwd()

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None, time_format: str | None = None) -> str | None:
        """Save an SVG of the screen and say where, or why it could not be saved (a terminal app saves locally).

        Served to a browser (`attnpos serve`), Textual's own delivery sends it to the browser: never onto the host's disk.
        """
        if self.is_web:
            return super().deliver_screenshot(filename, None, time_format)
        folder = Path(path) if path else self.screenshot_folder()
        try:
            saved = self.save_screenshot(filename, str(folder), time_format)
        except OSError as error:
            self.notify(f"Could not save the screenshot in {folder}: {error.strerror or error}.", title="Screenshot", severity="error")
            return None
        self.notify(f"Screenshot saved to {saved}", title="Screenshot", timeout=8)
        return saved

    # --- terminal size -------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        # This runs before App's own handler has stored the new size, so read it from the event.
        too_small = event.size.width < MIN_WIDTH or event.size.height < MIN_HEIGHT
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small and not showing:
            self.push_screen(TooSmallScreen())
        elif not too_small and showing:
            self.pop_screen()


def write_crash_log(folder: Path, error: BaseException) -> Path | None:
    """Write ``error``'s traceback to the data folder's crash log; its path, or None when it cannot be written."""
    path = folder / CRASH_LOG
    text = "".join(traceback.format_exception(error))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(f"attnpos crashed at {time.strftime('%Y-%m-%d %H:%M:%S %z')}\n{text}", encoding="utf-8")
    except OSError:
        return None
    return path
