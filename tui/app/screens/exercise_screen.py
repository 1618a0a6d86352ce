"""The exercise screen: instructions, an editor holding the learner's draft, Run, Check, hints, solution."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets import Static, TextArea

from attnpos.lessons.checker import (
    CancelToken,
    ConfinementUnavailable,
    RunResult,
    ScriptRefused,
    Verdict,
    decode_answer,
    fenced,
    missing_layers,
)
from attnpos.lessons.course.model import Exercise
from attnpos.lessons.course.progress import DRAFT_MAX_CHARS, draft_too_large, keep_aside
from attnpos.tui.app.keys import bound_key, works_here
from attnpos.tui.app.leaks import Footer
from attnpos.tui.app.screens.course_screen import CourseScreen
from attnpos.tui.app.screens.dialogs import BriefScreen, ConfirmScreen, SolutionScreen, WhyScreen
from attnpos.tui.app.widgets.code_editor import CodeEditor
from attnpos.tui.app.widgets.lesson_blocks import STYLESHEET, ProseBlock

DRAFT_SAVE_DELAY = 0.5  # seconds of quiet typing before the draft is written
ROOMY_HEIGHT = 30  # rows: below this a verdict folds the brief panel away, so the code keeps its room
# Rows: below this the result panel may take half the screen instead of 40%; at 40% of 20 rows a typical verdict
# and its pointer to a hint (8 lines at 60 columns) would not fit together.
SHORT_HEIGHT = 24


def code_spans(text: str) -> Text:
    """Plain text with its `code` spans drawn as code instead of showing the backticks."""
    shown = Text()
    for index, piece in enumerate(text.split("`")):
        shown.append(piece, style="bold" if index % 2 else "")
    return shown


BRIEF_PANEL, RESULT_PANEL = "toggle_panel('instructions')", "toggle_panel('result')"  # actions, bound and named in prose
RESULT_BACK, RESULT_ON = "scroll_result(-1)", "scroll_result(1)"


class ExerciseScreen(CourseScreen):
    """Edit, run and check one exercise without leaving the course; the draft is saved as you type."""

    CSS_PATH = [STYLESHEET, "exercise_screen.tcss"]  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "run", "Run"),
        Binding("ctrl+t", "check", "Check"),
        Binding("ctrl+g", "hint", "Hint"),
        Binding("ctrl+o", "solution", "Solution", show=False),  # offered in the result panel after a check
        Binding("ctrl+l", "load_passed", "Load the code that passed"),  # only when the editor holds other code
        Binding("ctrl+n", "external_editor", "$EDITOR", show=False),
        # A browser (attnpos serve) keeps ctrl+t for a new tab, while the page passes f5 on to the app: there
        # the footer and the help show f5 instead (tui/app/keys.py: works_here).
        Binding("f5", "check_in_browser", "Check"),
        Binding("f2", "brief", "Whole brief", show=False),  # the brief's panel says so
        Binding("f3", BRIEF_PANEL, "Brief panel on/off", show=False),
        Binding("f4", RESULT_PANEL, "Result panel on/off", show=False),
        # The result panel keeps to 40% of the screen so the code keeps its room; these page through a long
        # verdict and hint without leaving the editor (unbound there), and its border names them when it scrolls.
        Binding("ctrl+up", RESULT_BACK, "Scroll the result back", show=False),
        Binding("ctrl+down", RESULT_ON, "Scroll the result on", show=False),
        # Priority, or the editor would take escape for itself: here it cancels a run first.
        Binding("escape", "leave", "Back", priority=True),
        # `?` and `q` type into the editor here, so help and quit need keys of their own, shown in the footer.
        Binding("f1", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),  # priority, as the app's hidden one: then the footer shows it
    ]

    def __init__(self, exercise: Exercise, saved_draft: str | None = None):
        """``saved_draft``: the learner's last draft; the starter code when there is none."""
        super().__init__()
        self.exercise = exercise
        self._cancel: CancelToken | None = None
        self._save_timer: Timer | None = None
        self._draft = saved_draft if saved_draft is not None else exercise.starter
        # A saved draft too large for the editor (it would freeze the app) is kept as a file on mount.
        self._oversized: tuple[str, str] | None = None  # (why, the draft)
        if saved_draft is not None and (problem := draft_too_large(saved_draft)) is not None:
            self._oversized = (problem, saved_draft)
            self._draft = exercise.starter

    @property
    def state(self):
        return self.app.progress.exercise(self.exercise.id)

    def compose(self) -> ComposeResult:
        # No header: at 80×24 its row is worth more to the code; the brief's border names the exercise.
        with VerticalScroll(id="instructions") as instructions:
            instructions.border_title = f"Exercise · {self.exercise.title}"
            instructions.border_subtitle = f"{self.key('brief')} shows it all · {self.key(BRIEF_PANEL)} hides this"
            yield ProseBlock(self.exercise.instructions)
        # Soft wrap: a long line should not cost a row of horizontal scrollbar at 80×24.
        editor = CodeEditor.code_editor(self._draft, language="python", id="editor", theme="monokai", soft_wrap=True)
        editor.border_title = "your answer (saved as you type)"
        yield editor
        with VerticalScroll(id="result") as result:
            result.border_title = "result"
            result.border_subtitle = f"{self.key(RESULT_PANEL)} hides this"
            yield Static(self._welcome(), id="result-text")
            hint = Static(id="hint-text")
            hint.display = False  # until there is a hint, or a pointer to one
            yield hint
        yield Footer(compact=True, show_command_palette=False)  # every key, quit included, at 60 columns

    @property
    def _holds_passed_code(self) -> bool:
        """Whether the editor holds the code of the latest pass (unknown for a pass an older attnpos kept)."""
        return self.state.passed_source is not None and self.state.passed_source == self.draft

    def action_check_in_browser(self) -> None:
        self.action_check()

    def _welcome(self) -> Text:
        state = self.state
        if state.passed and state.passed_source is None:
            return Text.assemble(
                ("You passed this exercise before, with code that was not kept. ", "bold"),
                (self.key("check"), "bold"),
                " checks the code in the editor",
                "." if state.why_correct else " and then asks the last question.",
            )
        if state.passed and not self._holds_passed_code:
            return Text.assemble(
                ("Your code passed (the last pass came from ", "bold"),
                ("attnpos check", "bold"),
                (" or an earlier draft), but the editor holds other code. ", "bold"),
                (self.key("load_passed"), "bold"),
                " loads the code that passed; ",
                (self.key("check"), "bold"),
                " checks what is here.",
            )
        if state.done:
            return Text.assemble(
                ("✓ You have completed this exercise. ", "bold green"),
                "Change the code and ",
                (self.key("check"), "bold"),
                " checks it again; ",
                (self.key("solution"), "bold"),
                " shows the reference solution; ",
                (self.key("leave"), "bold"),
                " goes back.",
            )
        if state.passed:
            return Text.assemble(
                ("Your code passes; one question is left to complete the exercise. ", "bold"),
                (self.key("check"), "bold"),
                " checks again and asks it.",
            )
        return Text.assemble(
            "Fill in the # TODO lines; ",
            (self.key("brief"), "bold"),
            " shows the whole brief. Your draft is kept when you quit.",
        )

    def on_resize(self) -> None:
        self.query_one("#result").styles.max_height = "50%" if self.size.height < SHORT_HEIGHT else "40%"

    def on_mount(self) -> None:
        editor = self.query_one("#editor", TextArea)
        editor.focus()
        # The footer may have drawn the keys of the screen below before the editor took focus ("? Help q Quit").
        self.call_after_refresh(self.refresh_bindings)
        # Start where the work is: the first line the learner has to write.
        todo = next((row for row, line in enumerate(self.draft.splitlines()) if "# TODO" in line), None)
        if todo is not None:
            editor.move_cursor((todo, 0), center=True)
        state = self.state
        if self._oversized is not None:
            self._set_oversized_draft_aside(*self._oversized)
        elif state.passed and state.passed_source is not None and not self._holds_passed_code and self.draft == self.exercise.starter:
            # Passed elsewhere (attnpos check) and nothing of the learner's here to lose: show what passed.
            self._load(state.passed_source)
            self._show(Text.assemble(("The code that passed is in the editor (it was checked from the command line). ", "bold"), self._welcome()))
        if self._holds_passed_code and not state.why_correct:
            self.call_after_refresh(self._show_why)
        self._warm_checker()

    @work(thread=True, group="sandbox-start")
    def _warm_checker(self) -> None:
        """Start the checker's fork server while the learner reads, so the first check is warm too."""
        try:
            level = self.app.checker.confinement
        except ConfinementUnavailable as reason:  # strict mode (ATTNPOS_STRICT=1) on a machine that cannot confine
            self.app.call_from_thread(self.notify, str(reason), severity="error", timeout=15)
            return
        gaps = missing_layers(level)
        if gaps and not self.app.confinement_told:  # once per session: the machine will not change
            self.app.confinement_told = True
            self.app.call_from_thread(self.notify, f"Your code runs less confined here: {'; '.join(gaps)}.", severity="warning", timeout=10)

    # --- the draft -------------------------------------------------------------

    def _keep_aside(self, text: str) -> Path | None:
        """``text`` as a new file in the data folder (else the temporary folder); None when neither can be written."""
        for folder in (self.app.progress.path.parent / "too-large-for-the-editor", Path(tempfile.gettempdir())):
            try:
                return keep_aside(folder, f"{self.exercise.id}.py", text)
            except OSError:
                continue
        return None

    def _set_oversized_draft_aside(self, problem: str, draft: str) -> None:
        """The saved draft is too large for the editor: keep it as a file and open on the starter."""
        kept = self._keep_aside(draft)
        if kept is None:
            # Nowhere to keep it: the editor must not replace it in the progress file either.
            self._draft_pinned = True
            self._show(
                Text(
                    f"Your saved draft is too large for the editor ({problem}) and could not be copied "
                    "to a file, so it stays in your progress file untouched and nothing typed here is saved.",
                    style="bold red",
                )
            )
            return
        self.app.progress.update_exercise(self.exercise.id, draft=None)  # kept in the file now: not again next time
        self._show(
            Text.assemble(
                (f"Your saved draft is too large for the editor ({problem}); it is kept in {kept}. ", "bold"),
                f"The editor starts from the starter. Check that file with: attnpos check {self.exercise.id} {kept}",
            )
        )

    @property
    def draft(self) -> str:
        """The editor's text: read from the editor while it is there, else as last remembered (on every change), so it
        can be saved even while the screen closes.

        Read, not only remembered: a key's binding (f5, ctrl+t, ctrl+r) runs as the editor handles that key, before this
        screen has handled the Changed messages of the keys typed just before it, so what `_edited` last kept can lag
        behind the editor by those keys (a check once got a line cut short, in a served app under load).
        """
        for editor in self.query("#editor").results(TextArea):
            self._draft = editor.text
        return self._draft

    @on(TextArea.Changed, "#editor")
    def _edited(self, event: TextArea.Changed) -> None:
        self._draft = event.text_area.text
        if self.state.passed_source is not None:
            self.refresh_bindings()  # ctrl+l is offered while the editor holds other code than what passed
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(DRAFT_SAVE_DELAY, self.save_draft)

    _draft_pinned = False  # True when a saved draft could be neither loaded nor kept: it is never overwritten

    @on(CodeEditor.TooLarge, "#editor")
    def _paste_refused(self, event: CodeEditor.TooLarge) -> None:
        self.notify(
            f"Not pasted: the draft would be {event.reason}. A long file can be checked with 'attnpos check {self.exercise.id} FILE'.",
            severity="warning",
            timeout=8,
        )

    def save_draft(self) -> None:
        """Write the draft now (also called on leaving, quitting and hang-up)."""
        if self._save_timer is not None:
            self._save_timer.stop()
            self._save_timer = None
        if self._draft_pinned:
            return
        draft = self.draft
        if draft != (self.state.draft if self.state.draft is not None else self.exercise.starter):
            self.app.progress.update_exercise(self.exercise.id, draft=draft)

    # --- running and checking, off the UI thread ----------------------------------

    def _busy(self, what: str) -> bool:
        if self._cancel is not None:
            self.notify(f"Still running; {self.key('leave')} cancels it.", timeout=3)
            return True
        self._cancel = CancelToken()
        self._show(Text(f"{what}… ({self.key('leave')} cancels)", style="italic"))
        self.query_one("#result").add_class("-running")
        return False

    def _done(self) -> None:
        self._cancel = None
        self.query_one("#result").remove_class("-running")

    def action_run(self) -> None:
        if not self._busy("running"):
            self.save_draft()
            self._run_worker(self.draft, self._cancel)

    @work(thread=True, exclusive=True, group="exercise")
    def _run_worker(self, source: str, cancel: CancelToken) -> None:
        try:
            result = self.app.checker.run(source, filename=f"{self.exercise.id}.py", cancel=cancel)
        except (ConfinementUnavailable, ScriptRefused) as reason:
            self.app.call_from_thread(self._show_refusal, str(reason))
            return
        self.app.call_from_thread(self._show_run, result)

    def _show_refusal(self, reason: str) -> None:
        self._done()
        self._show(Text(f"✗ {reason}", style="bold red"))

    def _show_run(self, result: RunResult) -> None:
        self._done()
        output = result.stdout.rstrip("\n")
        text = Text(fenced(output, indent="") if output else "(your code printed nothing)")
        if result.status == "cancelled":
            text = Text("Cancelled.", style="italic")
        elif result.error is not None:
            text.append(f"\n✗ line {result.error.line}:\n", style="bold red")
            text.append(fenced(f"{result.error.type}: {result.error.message}"), style="red")
            self._mark_line(result.error.line)
        elif result.status != "ok":
            text.append(f"\n✗ {result.detail}", style="bold red")
        self._show(text)

    def action_check(self) -> None:
        if not self._busy("checking"):
            self._check_worker(self.draft, self._cancel)
            self.save_draft()  # while the check runs

    @work(thread=True, exclusive=True, group="exercise")
    def _check_worker(self, source: str, cancel: CancelToken) -> None:
        try:
            verdict = self.app.checker.check(self.exercise, source, filename=f"{self.exercise.id}.py", cancel=cancel)
        except (ConfinementUnavailable, ScriptRefused) as reason:
            self.app.call_from_thread(self._show_refusal, str(reason))
            return
        self.app.call_from_thread(self._show_verdict, verdict, source, cancel.cancelled)

    def _show_verdict(self, verdict: Verdict, source: str, cancelled: bool = False) -> None:
        self._done()
        if cancelled:  # a cancelled check is not an attempt
            self._show(Text("Cancelled.", style="italic"))
            return
        head = (verdict.heading + "\n", "bold green" if verdict.passed else "bold red")
        body = Text.assemble(head, verdict.message)
        if verdict.details.get("error"):  # learner text only behind the fence bar: no line of it passes for a verdict
            body.append(f"\nline {verdict.line}:\n{fenced(str(verdict.details['error']))}", style="red")
        if verdict.line:
            self._mark_line(verdict.line)
        if verdict.output.strip():
            body.append("\n\nyour code printed:\n", style="dim")
            body.append(fenced(verdict.output.rstrip("\n")[-2000:]), style="dim")
        self._show(body)
        if not verdict.passed:
            self._result_subtitle(f"{self.key('hint')} a hint · {self.key('solution')} the solution · {self.key(RESULT_PANEL)} hides this")
        if self.size.height < ROOMY_HEIGHT:
            # A short terminal cannot hold the brief, the code and a verdict with its hint: after a
            # check the verdict matters most, and f3 (or f2) brings the brief back.
            self.query_one("#instructions").display = False
        self.app.progress.record_check(self.exercise.id, verdict.passed, source)  # recorded once the verdict is on screen
        cited = self.exercise.cited_hint(verdict.message)
        if cited is not None and not verdict.passed:
            if cited <= self.state.hints_used:
                self._show_hint(cited)  # "see the third hint", seen before: shown again beside the verdict
            else:
                self._point_to_hints(cited)  # never shown unasked: hints come from the nudge up
        if verdict.passed:
            self._show_why()

    def _mark_line(self, line: int | None) -> None:
        """Put the cursor on the learner's line of the error: the editor highlights the cursor's line.

        Not a selection: the next key typed would replace the learner's line.
        """
        editor = self.query_one("#editor", TextArea)
        if line and 1 <= line <= editor.document.line_count:
            editor.move_cursor((line - 1, 0), center=True)

    def _show(self, renderable) -> None:
        self.query_one("#result", VerticalScroll).display = True  # a result is never hidden from the learner
        self._result_subtitle(f"{self.key(RESULT_PANEL)} hides this")
        hint = self.query_one("#hint-text", Static)
        hint.update("")  # a hint belongs to the verdict it was shown with
        hint.display = False  # and takes no line without one
        self.query_one("#result-text", Static).update(renderable)
        self.query_one("#result", VerticalScroll).scroll_home(animate=False)
        # The result panel may grow and the editor shrink: keep the learner's line in view.
        editor = self.query_one("#editor", TextArea)
        self.call_after_refresh(editor.scroll_cursor_visible)

    # --- hints, the solution and the why question ------------------------------------

    def action_hint(self) -> None:
        """The next hint, below the verdict (the newest only; f2 lists every hint seen with the brief)."""
        self._show_hint(self.state.next_hint(len(self.exercise.hints)))

    def _point_to_hints(self, cited: int) -> None:
        """A diagnosis names a hint the learner has not seen: say how to reach it, without showing it."""
        upcoming = self.state.next_hint(len(self.exercise.hints))
        pointer = Text.assemble(  # one line at 60 columns: the verdict keeps the panel's room
            (self.key("hint"), "bold"),
            f": hint {upcoming} of {len(self.exercise.hints)}",
            f" first; the message cites hint {cited}." if cited != upcoming else ", the one the message cites.",
        )
        self._show_hint_text(pointer)

    def _show_hint(self, number: int) -> None:
        """Hint ``number`` (from 1) below the verdict; it counts as seen."""
        hints = self.exercise.hints
        self.app.progress.record_hint(self.exercise.id, number)
        shown = Text.assemble((f"Hint {number} of {len(hints)}: ", "bold"), code_spans(hints[number - 1]))
        if number == len(hints):
            shown.append(f"\nThat was the last hint; {self.key('solution')} shows the reference solution after a check.", style="dim")
        result = self.query_one("#result", VerticalScroll)
        result.display = True
        # On the border, not a line of its own: the verdict and the hint must fit the panel together.
        hide = f"{self.key(RESULT_PANEL)} hides this"
        self._result_subtitle(f"{self.key('brief')} earlier hints · {hide}" if number > 1 else hide)
        self._show_hint_text(shown)
        result.scroll_end(animate=False)

    def _result_subtitle(self, keys: str) -> None:
        """The result panel's border: ``keys``, and how to scroll it once it holds more than it shows."""
        result = self.query_one("#result", VerticalScroll)
        result.border_subtitle = keys

        def name_scrolling() -> None:
            if result.max_scroll_y > 0 and result.border_subtitle == keys:
                back, on = self.key(RESULT_BACK), self.key(RESULT_ON)
                result.border_subtitle = f"{back}/{on.removeprefix('ctrl+')} scroll · {keys}"

        self.call_after_refresh(name_scrolling)  # laid out by then

    def action_scroll_result(self, direction: int) -> None:
        """A page of the result panel on (1) or back (-1), the editor keeping focus."""
        result = self.query_one("#result", VerticalScroll)
        result.scroll_relative(y=direction * max(result.scrollable_content_region.height - 1, 1), animate=False, immediate=True)

    def _show_hint_text(self, text: Text) -> None:
        hint = self.query_one("#hint-text", Static)
        hint.update(text)
        hint.display = True

    def action_solution(self) -> None:
        state = self.state
        if state.passed:
            self._open_solution()
        elif state.attempts == 0:
            self.notify(f"Check your answer at least once ({self.key('check')}) before looking at the solution.", timeout=5)
        else:
            self.app.push_screen(
                ConfirmScreen(f"Show the reference solution? Trying one more hint first ({self.key('hint')}) teaches more."),
                lambda yes: self._open_solution() if yes else None,
            )

    def _open_solution(self) -> None:
        self.app.progress.update_exercise(self.exercise.id, solution_seen=True)
        self.app.push_screen(SolutionScreen(self.exercise, self.draft))

    def _show_why(self) -> None:
        self.app.push_screen(WhyScreen(self.exercise, self.state.why_answer, self._why_answered), self._why_closed)

    def _why_closed(self, _: None) -> None:
        """Say where the exercise stands now: completed, or the question still open."""
        self._show(self._welcome())

    def action_brief(self) -> None:
        self.app.push_screen(BriefScreen(self.exercise, self.exercise.hints[: self.state.hints_used]))

    def action_toggle_panel(self, panel: str) -> None:
        """Hide or show the brief or the result panel, to give the editor their lines."""
        widget = self.query_one(f"#{panel}")
        widget.display = not widget.display

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """ctrl+l is offered only while the editor holds other code than the code that passed; in a browser
        the external editor is not (no terminal to lend it), and the check is f5, ctrl+t in a terminal (works_here)."""
        if action == "load_passed":
            return self.state.passed_source is not None and not self._holds_passed_code
        if action == "external_editor":
            return not self.app.is_web
        return works_here(self, action)

    def action_load_passed(self) -> None:
        """Put the code that passed in the editor; the draft it replaces can be had back with ctrl+z."""
        passed = self.state.passed_source
        if passed is None or self._holds_passed_code:
            return
        if (problem := draft_too_large(passed)) is not None:
            self.notify(f"The code that passed is too large for the editor ({problem}); it stays as it was.", severity="warning")
            return
        self._load(passed)
        undo = bound_key(self.query_one("#editor"), "undo")
        self._show(Text.assemble((f"The code that passed is in the editor ({undo} brings your draft back). ", "bold"), self._welcome()))
        if not self.state.why_correct:
            self._show_why()

    def _load(self, source: str) -> None:
        """Replace the editor's text (undoably) and save it as the draft at once."""
        editor = self.query_one("#editor", TextArea)
        editor.replace(source, editor.document.start, editor.document.end)
        self._draft = source  # the editor's Changed message arrives later; the state must see this text now
        self.save_draft()
        self.refresh_bindings()

    def _why_answered(self, choice: int, correct: bool) -> None:
        self.app.progress.answer_why(self.exercise.id, choice, correct)
        if correct:
            self.notify(f"Exercise done: {self.exercise.title}. {self.key('solution')} compares your code with the reference.", timeout=6)

    # --- leaving and the external editor --------------------------------------------------

    def action_leave(self) -> None:
        """Cancel a running check; otherwise save the draft and go back to the lesson."""
        if self._cancel is not None:
            self._cancel.cancel()
            return
        self.save_draft()
        self.app.left_exercise()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.save_draft()

    def action_external_editor(self) -> None:
        """Suspend the app, edit the draft in $EDITOR, then check it; a file too large for the editor is kept instead."""
        command = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
        self.save_draft()
        with tempfile.TemporaryDirectory(prefix="attnpos-edit-") as folder:
            path = Path(folder) / f"{self.exercise.id}.py"
            path.write_text(self.draft, encoding="utf-8")
            try:
                with self.app.suspend():
                    subprocess.run([*command, str(path)], check=False)
            except (OSError, SuspendNotSupported) as error:
                self.notify(f"Could not open an editor ({error}); set $EDITOR.", severity="error")
                return
            edited, problem = _read_edited(path)
            if problem is not None:
                kept = self._keep_aside_file(path)
                where = f"it is kept in {kept}" if kept is not None else "it could not be kept"
                self._show(
                    Text.assemble(
                        (f"Not loaded: the edited file is {problem}; {where}. ", "bold"),
                        "The editor keeps your previous draft.",
                        f" Check the file with: attnpos check {self.exercise.id} {kept}" if kept is not None else "",
                    )
                )
                return
        self._load(edited)
        self.action_check()

    def _keep_aside_file(self, path: Path) -> Path | None:
        """A copy of ``path`` (any bytes, any size) in the data folder, else the temporary folder."""
        for folder in (self.app.progress.path.parent / "too-large-for-the-editor", Path(tempfile.gettempdir())):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                handle, name = tempfile.mkstemp(prefix=f"{self.exercise.id}-", suffix=".py", dir=folder)
                os.close(handle)
                kept = Path(name)
                shutil.copyfile(path, kept)
                return kept
            except OSError:
                continue
        return None


def _read_edited(path: Path) -> tuple[str, str | None]:
    """The edited file's text, or why the editor cannot hold it (too large, not UTF-8), read without loading a huge file."""
    size = path.stat().st_size
    if size > 4 * DRAFT_MAX_CHARS:  # at most 4 bytes a character: too many characters, whatever they are
        return "", f"{size:,} bytes; the editor holds up to {DRAFT_MAX_CHARS:,} characters"
    try:
        text = decode_answer(path.read_bytes())  # as every route reads an answer: an editor's byte-order mark is dropped
    except UnicodeDecodeError as error:
        return "", f"not UTF-8 text (byte {error.start})"
    return text, draft_too_large(text)
