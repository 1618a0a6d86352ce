"""Doing the exercises inside the app, keyboard only, and never losing a draft."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial

import pytest
from textual import events
from textual.widgets import Static, TextArea

from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.progress import STATE_FILE
from attnpos.lessons.course.scanner import exercises_dir
from attnpos.tui.app.screens.dialogs import BriefScreen, ConfirmScreen, SolutionScreen, WhyScreen
from attnpos.tui.app.screens.exercise_screen import ExerciseScreen, _read_edited
from attnpos.tui.app.screens.lesson_screen import LessonScreen
from attnpos.tui.app.widgets.lesson_blocks import QuizCard

COURSE = load_course()


def result_text(app) -> str:
    """The result panel of the exercise screen, even while the why question is on top of it."""
    screen = next(s for s in reversed(app.screen_stack) if isinstance(s, ExerciseScreen))
    return str(screen.query_one("#result-text").render())


def saved(data_dir) -> dict:
    return json.loads((data_dir / STATE_FILE).read_text())


def draft_on_disk(data_dir, exercise_id: str) -> str:
    """The draft in the progress file now ("" before the first save)."""
    try:
        return saved(data_dir)["exercises"][exercise_id]["draft"]
    except (FileNotFoundError, KeyError):
        return ""


async def answer_why(pilot, choice: int, settle) -> None:
    """Choose with the keyboard: the why question opens with its choices focused, on choice a."""
    assert isinstance(pilot.app.screen, WhyScreen)
    card = pilot.app.screen.query_one(QuizCard)
    card.choices.highlighted = 0
    await pilot.press(*(["down"] * choice), "enter")
    await settle(pilot)


# Every run: the first exercise and the last (a matrix exercise and a table one); the others take the same path
# through the app, and their texts are checked by `lessons --check`: they run with -m slow.
IN_COURSE_ORDER = [exercise_id for lesson in COURSE.lessons for exercise_id in lesson.exercise_ids]
FIRST_AND_LAST = (IN_COURSE_ORDER[0], IN_COURSE_ORDER[-1])


@pytest.mark.parametrize("exercise_id", [i if i in FIRST_AND_LAST else pytest.param(i, marks=pytest.mark.slow) for i in COURSE.exercises])
async def test_solve_each_exercise_in_the_app(data_dir, exercise_id, make_app, settle):
    exercise = COURSE.exercises[exercise_id]
    app = make_app(start=exercise_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExerciseScreen)
        editor = screen.query_one("#editor", TextArea)
        assert editor.has_focus and editor.text == exercise.starter

        await pilot.press("ctrl+t")  # the starter is not an answer yet
        await settle(pilot)
        assert "✗ not yet: missing name" in result_text(app)

        await pilot.press("ctrl+g")  # a hint, recorded
        await settle(pilot)
        assert "Hint 1 of" in str(app.screen.query_one("#hint-text").render())
        assert saved(data_dir)["exercises"][exercise_id]["hints_used"] == 1

        editor.load_text(exercise.solution)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert "✓ passed" in result_text(app)

        why = exercise.why
        wrong = next(i for i in range(len(why.choices)) if i != why.answer)
        await answer_why(pilot, wrong, settle)
        feedback = str(app.screen.query_one(QuizCard).query_one(".feedback").render())
        assert feedback.startswith("✗") and why.explanations[wrong][:20] in feedback
        assert not saved(data_dir)["exercises"][exercise_id]["why_correct"]
        await answer_why(pilot, why.answer, settle)
        state = saved(data_dir)["exercises"][exercise_id]
        assert state["passed"] and state["why_correct"] and state["attempts"] == 2
        assert state["why_first_answer"] == wrong  # what grade-class reports as the class's first choices
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert "completed this exercise" in result_text(app)

        await pilot.press("ctrl+o")  # after passing, the solution opens without a confirmation
        await settle(pilot)
        assert isinstance(app.screen, SolutionScreen)


async def test_the_whole_brief_and_a_question_left_open(make_app, settle):
    exercise = COURSE.exercises["forget-reorder"]
    app = make_app(start=exercise.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one("#instructions")
        assert panel.max_scroll_y > 0  # at 80×24 the panel above the editor shows only the start
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, BriefScreen)
        brief = app.screen.query_one("#brief")
        assert brief.size.height > panel.size.height and brief.max_scroll_y == 0
        await pilot.press("escape")
        await settle(pilot)
        app.screen.query_one("#editor", TextArea).load_text(exercise.solution)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert isinstance(app.screen, WhyScreen)
        await pilot.press("escape")  # not answered: the result panel says what is left
        await settle(pilot)
        assert "one question is left" in result_text(app)
        await pilot.press("f1")
        await settle(pilot)
        assert app.screen.__class__.__name__ == "HelpScreen"
        rows = [row for _, group in app.screen.groups for row in group]
        assert ("?", "Help (outside the editor)") in rows and ("f1", "Help") in rows


async def test_wrong_answer_gets_its_diagnosis_and_line(make_app, settle):
    app = make_app(start="constant-offset")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one("#editor", TextArea)
        editor.load_text(COURSE.exercises["constant-offset"].starter + "pos = 0.6\nmax_diff = nope\n")
        await pilot.press("ctrl+t")
        await settle(pilot)
        text = result_text(app)
        assert "✗ not yet: error" in text and "NameError" in text
        # The cursor sits on the learner's line (the editor highlights it); nothing is selected to type over.
        assert editor.document.get_line(editor.cursor_location[0]).startswith("max_diff = nope")
        assert editor.selected_text == ""


async def test_the_editor_keeps_its_room_beside_a_long_diagnosis_and_a_hint(make_app, settle, wait_until):
    """At 80×24 a diagnosis and a hint left the code 10 rows; the result panel now pages instead (ctrl+up, ctrl+down)."""
    app = make_app(start="rope")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one("#editor", TextArea)
        editor.load_text((exercises_dir() / "rope" / "mistakes" / "rotated-v__values-turned-too.py").read_text())
        await pilot.press("ctrl+t")
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        result = app.screen.query_one("#result")
        assert "not yet: rotated v" in result_text(app) and "Hint 1 of" in str(app.screen.query_one("#hint-text").render())
        assert editor.scrollable_content_region.height >= 12, editor.scrollable_content_region
        assert result.max_scroll_y > 0 and result.border_subtitle.startswith("ctrl+up/down scroll · ")
        at_hint, page = result.scroll_y, result.scrollable_content_region.height - 1
        for _ in range(2):  # together, as from a key held down: each a page on from the last
            app.post_message(events.Key("ctrl+up", None))
        await wait_until(pilot, lambda: result.scroll_y == max(at_hint - 2 * page, 0))
        assert editor.has_focus
        await pilot.press("ctrl+down")
        assert result.scroll_y == min(max(at_hint - 2 * page, 0) + page, result.max_scroll_y)


async def test_solution_needs_a_failed_check_and_a_confirmation(data_dir, make_app, settle):
    app = make_app(start="identical-tokens")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen)  # refused before any check
        await pilot.press("ctrl+t")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen)
        await pilot.press("ctrl+o", "y")
        await settle(pilot)
        assert isinstance(app.screen, SolutionScreen)
        assert saved(data_dir)["exercises"]["identical-tokens"]["solution_seen"]


async def test_the_reference_solution_reads_line_by_line_at_80_columns(make_app, settle):
    """Side by side at 80 columns each code had 32 columns and every comment wrapped over three lines: stacked below 100."""
    exercise = COURSE.exercises["rope"]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(SolutionScreen(exercise, exercise.starter))
        await settle(pilot)
        mine, reference = app.screen.query(".solution-side")
        assert mine.outer_size.width == reference.outer_size.width == 80 and mine.region.y < reference.region.y
        code = reference.query_one(Static)
        assert code.size.height == len(exercise.solution.split("\n"))  # a row a line (the last one empty): none wrapped
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert mine.region.y == reference.region.y and mine.region.x < reference.region.x  # wide: side by side


async def test_run_shows_output_and_can_be_cancelled(make_app, settle, wait_until):
    app = make_app(start="forget-reorder")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one("#editor", TextArea)
        editor.load_text("print('hello from the sandbox')\n")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "hello from the sandbox" in result_text(app)

        editor.load_text("while True:\n    pass\n")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: "running" in result_text(app))
        await pilot.press("escape")  # cancels the run; the UI never blocked
        await settle(pilot)
        assert "Cancelled" in result_text(app)


async def test_draft_survives_a_restart(data_dir, make_app, settle, wait_until):
    async with make_app(start="constant-offset").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        editor = pilot.app.screen.query_one("#editor", TextArea)
        editor.move_cursor(editor.document.end)
        await pilot.press(*"pos = 0.25")
        await wait_until(pilot, lambda: draft_on_disk(data_dir, "constant-offset").endswith("pos = 0.25"))  # saved while typing
        await pilot.press(*"  # more")
    # quitting saved the rest
    assert saved(data_dir)["exercises"]["constant-offset"]["draft"].endswith("pos = 0.25  # more")
    async with make_app(start="constant-offset").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app.screen.query_one("#editor", TextArea).text.endswith("pos = 0.25  # more")


async def test_the_draft_is_what_the_editor_holds_before_its_changes_are_handled(make_app, settle):
    """A check bound to a key reads the draft as the editor handles that key, before the screen has handled the Changed
    messages of the keys typed just before: the draft must still be the editor's text."""
    async with make_app(start="constant-offset").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        editor = screen.query_one("#editor", TextArea)
        editor.insert("pos = 0.6", editor.document.end)  # its Changed message is posted, not yet handled
        assert screen.draft == editor.text and screen.draft.endswith("pos = 0.6")


async def test_exercise_opens_from_the_lesson(make_app, settle):
    app = make_app(start=(1, 10))  # lesson 1, "Practice"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LessonScreen)
        await pilot.press("e", "1")  # three exercises here: e asks which, 1 is the first
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "forget-reorder"


class Terminal:
    """The app in a real pseudo-terminal (tmux), driven by keys like a learner over SSH."""

    def __init__(self, tmp_path, target: str, env: str = ""):
        if subprocess.run(["which", "tmux"], capture_output=True).returncode != 0:
            pytest.skip("tmux is not installed")
        self.session = f"attnpos-test-{os.getpid()}-{time.monotonic_ns()}"
        # A tmux server of this terminal's own: a learner's tmux, another run's or another test's is never
        # touched, and no test starts a session on a server that is exiting because another's last session ended.
        self.tmux = ["tmux", "-L", self.session]
        self.pid_file = tmp_path / "pid"
        command = f"echo $$ > {self.pid_file}; exec env ATTNPOS_DATA_DIR={tmp_path} {env} {sys.executable} -m attnpos open {target}"
        subprocess.run([*self.tmux, "new-session", "-d", "-x", "80", "-y", "24", "-s", self.session, command], check=True)
        subprocess.run([*self.tmux, "set-option", "-t", self.session, "remain-on-exit", "on"], check=True)
        self.deadline = time.time() + 30

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.session], capture_output=True, text=True).stdout

    def wait_for(self, text: str) -> None:
        while text not in self.screen():
            assert time.time() < self.deadline, f"{text!r} never appeared:\n{self.screen()}"
            time.sleep(0.1)

    def type(self, text: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.session, "-l", text], check=True)

    def press(self, key: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.session, key], check=True)

    def kill(self, signal_number: int) -> None:
        os.kill(int(self.pid_file.read_text()), signal_number)
        while self.pane()[:1] != ["1"]:  # the process ended (tmux keeps the pane)
            assert time.time() < self.deadline, "the app did not exit"
            time.sleep(0.1)

    def pane(self) -> list[str]:
        shown = [*self.tmux, "display-message", "-p", "-t", self.session, "#{pane_dead} #{alternate_on} #{mouse_any_flag}"]
        return subprocess.run(shown, capture_output=True, text=True).stdout.split()

    def close(self) -> None:
        """Hang up the terminal, as a dropped SSH connection does; the app must not outlive it."""
        pid = int(self.pid_file.read_text()) if self.pid_file.exists() else None
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        deadline = time.time() + 10
        while pid is not None and _alive(pid):
            if time.time() > deadline:
                os.kill(pid, signal.SIGKILL)
                pytest.fail("the app outlived its terminal by 10 s")
            time.sleep(0.1)


def _alive(pid: int) -> bool:
    """Running (not a zombie waiting for tmux to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def start(target: str, env: str = "") -> Terminal:
        opened.append(Terminal(tmp_path, target, env))
        return opened[-1]

    yield start
    for term in opened:
        term.close()


@pytest.mark.parametrize("signal_number", [signal.SIGHUP, signal.SIGTERM])
def test_hangup_saves_the_draft_and_restores_the_terminal(tmp_path, terminal, signal_number):
    """Type, drop the connection before the debounce has fired: only the signal handler can save this."""
    term = terminal("constant-offset")
    term.wait_for("Exercise")
    term.type("pos = 0.125")
    term.wait_for("pos = 0.125")  # the app has the keys, and the debounce has not fired yet
    term.kill(signal_number)
    state = json.loads((tmp_path / STATE_FILE).read_text())
    assert "pos = 0.125" in state["exercises"]["constant-offset"]["draft"]
    assert term.pane() == ["1", "0", "0"], "the app left the terminal in its alternate screen or mouse mode"


def test_kill_9_loses_nothing_saved_while_typing(tmp_path, terminal):
    term = terminal("identical-tokens")
    term.wait_for("Exercise")
    term.type("pos = 0.5")
    while "pos = 0.5" not in draft_on_disk(tmp_path, "identical-tokens"):  # written as it was typed
        assert time.time() < term.deadline, "the draft was never saved while typing"
        time.sleep(0.05)
    term.kill(signal.SIGKILL)
    state = json.loads((tmp_path / STATE_FILE).read_text())
    assert "pos = 0.5" in state["exercises"]["identical-tokens"]["draft"]


def test_external_editor_then_check(tmp_path, terminal):
    """ctrl+n suspends the app, runs $EDITOR on the draft, and checks what it left."""
    editor = tmp_path / "editor.sh"
    solution = COURSE.exercises["forget-reorder"].solution
    (tmp_path / "solution.py").write_text(solution)
    editor.write_text(f'#!/bin/sh\ncp {tmp_path / "solution.py"} "$1"\n')
    editor.chmod(0o755)
    term = terminal("forget-reorder", env=f"EDITOR={editor}")
    term.wait_for("Exercise")
    term.press("C-n")
    term.wait_for("passed")
    state = json.loads((tmp_path / STATE_FILE).read_text())
    assert state["exercises"]["forget-reorder"]["draft"] == solution
    assert state["exercises"]["forget-reorder"]["passed"]


@pytest.mark.parametrize("stop", ["C-q", signal.SIGTERM])
def test_a_huge_file_from_the_external_editor_is_kept_not_loaded_and_the_app_still_quits(tmp_path, terminal, stop):
    """45,000 lines through ctrl+n once froze the app for minutes, deaf to ctrl+q and SIGTERM."""
    huge = "x = 1\n" * 45_000
    (tmp_path / "huge.py").write_text(huge)
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\ncp {tmp_path / "huge.py"} "$1"\n')
    editor.chmod(0o755)
    term = terminal("identical-tokens", env=f"EDITOR={editor}")
    term.wait_for("Exercise")
    term.type("pos = 0.5")
    while "pos = 0.5" not in draft_on_disk(tmp_path, "identical-tokens"):
        assert time.time() < term.deadline, "the draft was never saved"
        time.sleep(0.05)
    term.press("C-n")
    term.wait_for("Not loaded")
    kept = list((tmp_path / "too-large-for-the-editor").iterdir())
    assert len(kept) == 1 and kept[0].read_text() == huge  # the learner's file, whole
    assert "pos = 0.5" in draft_on_disk(tmp_path, "identical-tokens")  # and the draft, untouched
    if stop == "C-q":
        term.press("C-q")
        while term.pane()[:1] != ["1"]:
            assert time.time() < term.deadline, "ctrl+q did not quit"
            time.sleep(0.1)
    else:
        term.kill(stop)
    assert "pos = 0.5" in draft_on_disk(tmp_path, "identical-tokens")


async def test_a_saved_draft_too_large_for_the_editor_is_kept_as_a_file(data_dir, make_app, settle):
    from attnpos.lessons.course.progress import Progress

    huge = "y = 2\n" * 12_000
    progress = Progress.load(data_dir)
    progress.update_exercise("constant-offset", draft=huge)
    progress.save()
    app = make_app(start="constant-offset")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#editor", TextArea).text == COURSE.exercises["constant-offset"].starter
        assert "too large for the editor (12,001 lines" in " ".join(result_text(app).split())
        kept = list((data_dir / "too-large-for-the-editor").iterdir())
        assert [p.read_text() for p in kept] == [huge]
    assert draft_on_disk(data_dir, "constant-offset") in (None, COURSE.exercises["constant-offset"].starter)  # not opened twice


async def test_a_paste_too_large_for_the_editor_is_refused(make_app, settle):
    from textual import events

    app = make_app(start="constant-offset")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one("#editor", TextArea)
        before = editor.text
        told = []
        app.screen.notify = lambda message, **options: told.append(message)
        app.post_message(events.Paste("z = 3\n" * 5_000))  # as a terminal's paste arrives: at the app
        await settle(pilot)
        assert editor.text == before and told and "Not pasted" in told[0]
        app.post_message(events.Paste("pos = 0.6\n"))  # an ordinary paste still goes in
        await settle(pilot)
        assert editor.text.count("pos = 0.6") == 1  # once: TextArea's own handler inserts it, not ours too


def test_a_damaged_progress_file_is_reported(tmp_path, terminal):
    (tmp_path / STATE_FILE).write_text("{ not json")
    term = terminal("1")
    term.wait_for("could not be used")
    assert any(p.name.startswith(STATE_FILE + ".unreadable-") for p in tmp_path.iterdir())


async def _after_wrong_check(pilot, settle):
    await settle(pilot)
    editor = pilot.app.screen.query_one("#editor", TextArea)
    solution = COURSE.exercises["constant-offset"].solution
    editor.load_text(solution.replace("np.full((6, 8), 0.6)", "slot_ramp(6, 8)").replace("import attention_output", "import attention_output, slot_ramp"))
    await pilot.press("ctrl+t")
    await settle(pilot)


def test_snapshot_exercise_before_check(snap_compare, make_app, settle, no_blink):
    assert snap_compare(make_app(start="constant-offset"), terminal_size=(80, 24), run_before=settle)


def test_snapshot_exercise_after_check(snap_compare, make_app, settle, no_blink):
    assert snap_compare(make_app(start="constant-offset"), terminal_size=(80, 24), run_before=partial(_after_wrong_check, settle=settle))


def test_a_file_from_the_external_editor_is_read_as_python_reads_source(tmp_path):
    """An editor that writes a byte-order mark: the draft is the text without it, as every route reads an answer."""
    edited = tmp_path / "edited.py"
    edited.write_bytes(b"\xef\xbb\xbfpos = 1\n")
    assert _read_edited(edited) == ("pos = 1\n", None)
    edited.write_bytes(b"x = '\xe9'\n")
    text, problem = _read_edited(edited)
    assert text == "" and problem is not None and problem == "not UTF-8 text (byte 5)"


@pytest.mark.parametrize("in_browser", [False, True])
async def test_the_footer_help_and_prose_show_the_check_key_that_works_here(in_browser, make_app, settle, wait_until, monkeypatch):
    """Under attnpos serve the footer said ^t Check, which opens a browser tab; f5 checks there."""
    from textual.app import App
    from textual.widgets._footer import FooterKey

    from attnpos.tui.app.screens.dialogs import HelpScreen

    monkeypatch.setattr(App, "is_web", property(lambda self: in_browser))
    works, other = ("f5", "ctrl+t") if in_browser else ("ctrl+t", "f5")
    app = make_app(start="constant-offset")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        def footer_drawn() -> bool:
            """the exercise's footer has its keys (a loaded machine draws them a frame or more later)"""
            return any(app.screen.query(FooterKey))

        await wait_until(pilot, footer_drawn)
        footer = {(key.key, key.description) for key in app.screen.query(FooterKey)}
        assert (works, "Check") in footer and (other, "Check") not in footer, footer
        assert app.screen.key("check") == works
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        rows = [row for _, group in app.screen.groups for row in group]
        assert (works, "Check") in rows and not any(keys == other for keys, _ in rows), rows
