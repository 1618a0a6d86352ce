"""What a first-time learner tripped on (issue 16), each tried as the learner met it: keys in the app, commands in a shell."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import TextArea, Tree

from attnpos.lessons.course.figures import figure
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.model import Grid, Quiz
from attnpos.lessons.course.progress import STATE_FILE, Progress
from attnpos.tui.app.course_app import AttnposApp
from attnpos.tui.app.screens.dialogs import BriefScreen, ChoiceScreen, WhyScreen
from attnpos.tui.app.screens.exercise_screen import ExerciseScreen
from attnpos.tui.app.screens.lesson_screen import LessonScreen
from attnpos.tui.app.widgets.attention_grid import AttentionGrid
from attnpos.tui.app.widgets.grid_pair import GridPair
from attnpos.tui.app.widgets.lesson_blocks import ExerciseCard, QuizCard

COURSE = load_course()


def make_app(data_dir, start=None) -> AttnposApp:
    app = AttnposApp(data_dir=data_dir, start=start)
    app.animation_level = "none"
    return app


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def attnpos(*args, data_dir) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "attnpos", "--data-dir", str(data_dir), *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )


def shown(widget) -> str:
    return str(widget.render())


def result_text(screen: ExerciseScreen) -> str:
    return shown(screen.query_one("#result-text"))


def section_of(exercise_id: str) -> tuple[int, int]:
    lesson = next(lesson for lesson in COURSE.lessons if exercise_id in lesson.exercise_ids)
    index = next(i for i, s in enumerate(lesson.sections) if any(getattr(b, "id", None) == exercise_id for b in s.blocks))
    return lesson.number, index


async def answer_why(pilot) -> None:
    screen = pilot.app.screen
    assert isinstance(screen, WhyScreen)
    card = screen.query_one(QuizCard)
    card.choose(card.quiz.answer)
    await settle(pilot)
    await pilot.press("escape")
    await settle(pilot)


# --- bug 1: the exercise card is current on the way back ---------------------------------


async def test_the_exercise_card_reads_done_as_soon_as_the_learner_is_back(data_dir):
    exercise = COURSE.exercises["constant-offset"]
    app = make_app(data_dir, start=section_of(exercise.id))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        card = next(c for c in app.screen.query(ExerciseCard) if c.exercise.id == exercise.id)
        assert "(not started)" in shown(card.query_one(".card-title"))
        card.focus()
        await pilot.press("e")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExerciseScreen) and screen.exercise.id == exercise.id
        await pilot.press("x")  # a keystroke: the draft makes it "in progress"
        await pilot.press("escape")
        await settle(pilot)
        card = next(c for c in app.screen.query(ExerciseCard) if c.exercise.id == exercise.id)
        assert "(in progress)" in shown(card.query_one(".card-title"))
        card.focus()
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#editor", TextArea).load_text(exercise.solution)
        await pilot.press("ctrl+t")
        await settle(pilot)
        await answer_why(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LessonScreen)
        card = next(c for c in app.screen.query(ExerciseCard) if c.exercise.id == exercise.id)
        assert "(done)" in shown(card.query_one(".card-title"))


# --- bug 2: a pass from the command line, then the app -------------------------------------


async def test_a_pass_from_the_command_line_opens_with_the_code_that_passed(data_dir, tmp_path):
    exercise = COURSE.exercises["order-checks"]
    answer = tmp_path / "order-checks.py"
    answer.write_text(exercise.solution)
    assert attnpos("check", exercise.id, str(answer), data_dir=data_dir).returncode == 0
    app = make_app(data_dir, start=exercise.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, WhyScreen)  # the question, over the code that passed
        screen = next(s for s in app.screen_stack if isinstance(s, ExerciseScreen))
        assert screen.query_one("#editor", TextArea).text == exercise.solution
        assert "The code that passed is in the editor" in result_text(screen)
        await answer_why(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert "✓ passed" in result_text(screen)


async def test_a_pass_elsewhere_never_shows_over_the_learners_other_code(data_dir, tmp_path):
    exercise = COURSE.exercises["order-checks"]
    progress = Progress.load(data_dir)
    progress.update_exercise(exercise.id, draft=exercise.starter + "\n# my own start\n")
    progress.record_check(exercise.id, True, exercise.solution)
    progress.answer_why(exercise.id, exercise.why.answer, True)
    assert progress.save()
    app = make_app(data_dir, start=exercise.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExerciseScreen)
        editor = screen.query_one("#editor", TextArea)
        assert "# my own start" in editor.text  # the learner's draft is not replaced unasked
        assert "completed" not in result_text(screen) and "ctrl+l loads the code that passed" in result_text(screen)
        offered = screen.active_bindings.get("ctrl+l")
        assert offered is not None and offered.enabled
        await pilot.press("ctrl+t")  # the draft is the starter: it fails, and says so
        await settle(pilot)
        assert "✗ not yet" in result_text(screen)
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert editor.text == exercise.solution
        assert "You have completed this exercise" in result_text(screen)
        await pilot.press("ctrl+z")  # the draft it replaced comes back
        await settle(pilot)
        assert "# my own start" in editor.text


async def test_a_pass_an_older_attnpos_kept_without_its_code_is_not_shown_as_complete(data_dir):
    exercise = COURSE.exercises["order-checks"]
    (data_dir).mkdir(parents=True, exist_ok=True)
    old = {"version": 1, "position": None, "visited": {}, "quizzes": {}, "exercises": {exercise.id: {"attempts": 1, "passed": True}}}
    (data_dir / STATE_FILE).write_text(json.dumps(old))
    app = make_app(data_dir, start=exercise.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExerciseScreen)  # no question over the untouched starter
        assert "code that was not kept" in result_text(screen)


# --- bug 5: a question's first answer is kept --------------------------------------------


async def test_a_right_answer_then_a_wrong_one_keeps_the_first_in_the_outline_and_report(data_dir):
    lesson = COURSE.lessons[0]
    number, section = next((lesson.number, i) for i, s in enumerate(lesson.sections) if any(isinstance(b, Quiz) for b in s.blocks))
    app = make_app(data_dir, start=(number, section))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("a")  # one key to the question
        card = app.screen.query_one(QuizCard)
        assert card.choices.has_focus
        wrong = (card.quiz.answer + 1) % len(card.quiz.choices)
        for choice in (card.quiz.answer, wrong):  # right, then a wrong one
            card.choices.highlighted = choice
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        first_lesson = app.screen.query_one("#outline", Tree).root.children[0]
        assert "quiz 1/3 first try" in str(first_lesson.label)
    report = json.loads(attnpos("progress", "--json", data_dir=data_dir).stdout)
    assert report["lessons"][0]["questions"] == {"total": 3, "answered": 1, "right_first_time": 1}


# --- friction 1 and 3: keys on the lesson page ----------------------------------------------


async def test_arrows_never_change_the_section_and_g_reaches_the_grid(data_dir):
    number, section = 1, next(i for i, s in enumerate(COURSE.lessons[0].sections) if any(isinstance(b, Grid) for b in s.blocks))
    app = make_app(data_dir, start=(number, section))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("right", "right", "left")
        assert screen.section == section
        await pilot.press("g")
        assert isinstance(app.focused, AttentionGrid)
        col = app.focused.cursor_col
        await pilot.press("right")
        assert app.focused.cursor_col == col + 1 and screen.section == section
        await pilot.press("n")
        await settle(pilot)
        assert screen.section == section + 1


async def test_e_asks_which_of_three_exercises(data_dir):
    practice = section_of("constant-offset")
    app = make_app(data_dir, start=practice)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        cards = list(app.screen.query(ExerciseCard))
        assert len(cards) == 3
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("3")
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == cards[2].exercise.id
        await pilot.press("escape")
        await settle(pilot)
        cards = list(app.screen.query(ExerciseCard))
        cards[1].focus()  # tab stops on a card; e (or enter) opens that one
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == cards[1].exercise.id


# --- in a real terminal: tmux ------------------------------------------------------------


class Shell:
    """A shell in a real terminal (tmux, a server of this test's own), typed into like a learner."""

    def __init__(self, tmp_path, width: int = 80, height: int = 24, env: str = ""):
        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed")
        self.tmux = ["tmux", "-L", f"attnpos-walk-{os.getpid()}-{time.monotonic_ns()}"]
        launch = f"env ATTNPOS_DATA_DIR={tmp_path / 'data'} PATH={Path(sys.executable).parent}:$PATH {env} bash --norc --noprofile"
        subprocess.run([*self.tmux, "new-session", "-d", "-x", str(width), "-y", str(height), "-s", "walk", launch], check=True)

    def screen(self, escapes: bool = False) -> str:
        capture = [*self.tmux, "capture-pane", "-p", "-t", "walk", *(["-e"] if escapes else [])]
        return subprocess.run(capture, capture_output=True, text=True).stdout

    def wait_for(self, text: str, times: int = 1, timeout: float = 30) -> str:
        """The screen once ``text`` is on it ``times`` times."""
        deadline = time.time() + timeout
        while (shown := self.screen()).count(text) < times:
            assert time.time() < deadline, f"{text!r} never appeared:\n{shown}"
            time.sleep(0.1)
        return shown

    def type(self, text: str, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", "walk", "-l", text], check=True)
        if keys:
            subprocess.run([*self.tmux, "send-keys", "-t", "walk", *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@pytest.fixture
def shell(tmp_path):
    opened: list[Shell] = []

    def open_shell(**options) -> Shell:
        opened.append(Shell(tmp_path, **options))
        return opened[-1]

    yield open_shell
    for each in opened:
        each.close()


def test_reset_asks_at_the_terminal_even_when_its_input_is_a_pipe(tmp_path, shell):
    progress = Progress.load(tmp_path / "data")
    progress.update_exercise("order-checks", draft="mine")
    assert progress.save()
    terminal = shell()
    terminal.type("attnpos reset order-checks", "Enter")
    terminal.wait_for("Forget your draft and results for order-checks? [y/N]")
    terminal.type("n", "Enter")
    terminal.wait_for("nothing changed")
    terminal.type("true | attnpos reset order-checks", "Enter")  # standard input a pipe, as under a wrapper
    terminal.wait_for("[y/N]", times=2)
    terminal.type("y", "Enter")
    terminal.wait_for("forgot your draft")
    assert Progress.load(tmp_path / "data").exercise("order-checks").draft is None


def test_term_dumb_gets_no_colour(tmp_path, shell):
    terminal = shell(env="TERM=dumb")
    terminal.type("attnpos", "Enter")
    terminal.wait_for("Lesson 1")
    painted = terminal.screen(escapes=True)
    assert "38;2;" not in painted and "48;2;" not in painted  # no 24-bit colour
    assert "\x1b[1;7m" in painted  # the outline's cursor row still shows: reversed
    terminal.type("q")


# --- bugs 4 and 8: a screenshot with no Downloads folder; the exercise help -----------------------


async def test_a_screenshot_without_a_downloads_folder_goes_to_the_data_folder_and_says_so(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # a server account: no ~/Downloads
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    app = make_app(data_dir)
    told: list[str] = []
    notify = app.notify
    monkeypatch.setattr(app, "notify", lambda message, **options: (told.append(message), notify(message, **options)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *"screenshot", "enter")
        while not list(data_dir.glob("*.svg")):  # the palette saves it on a timer
            await pilot.pause(0.05)
        saved = next(data_dir.glob("*.svg"))
        assert any(str(saved) in message for message in told)  # the learner is told where


async def test_the_exercise_help_lists_no_key_the_editor_types(data_dir):
    app = make_app(data_dir, start="constant-offset")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        groups = dict(app.screen.groups)
        assert ("ctrl+q", "Quit") in groups["This screen"]  # bound by the screen, so that its footer shows it
        typed = [(key, what) for key, what in groups["Everywhere"] if key == "q" or key.startswith("q ") or " q" in key]
        assert typed == [("q", "Quit (outside the editor)")]  # q types into the editor: said so, not offered


# --- bug 3: the advice follows the error -------------------------------------------------------

ERRORS = {  # the line changed in order-checks' solution -> what the advice must speak of
    ("out_a = attention_output(X_a, Wq, Wk, Wv)", "out_a = attention_output(X_a, Wq, Wk)"): "calls a function with the wrong arguments",
    ("out_a = attention_output(X_a, Wq, Wk, Wv)", "out_a = attention_output(X_a, Wq, Wk, Wvv)"): "uses a name Python does not know",
    ("perm = np.array([5, 0, 3, 2, 1, 4])", "perm = np.array([6, 0, 3, 2, 1, 4])"): "indexes past the end of an array",
    ("pooled_a = attention_output(X_a + pos,", "pooled_a = attention_output(X_a + pos[:5],"): "combines arrays whose shapes do not fit",
}


async def test_each_kind_of_error_gets_its_own_advice_in_the_app(data_dir):
    exercise = COURSE.exercises["order-checks"]
    app = make_app(data_dir, start=exercise.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for (right, wrong), advice in ERRORS.items():
            assert right in exercise.solution
            screen.query_one("#editor", TextArea).load_text(exercise.solution.replace(right, wrong))
            await pilot.press("ctrl+t")
            await settle(pilot)
            said = result_text(screen)
            assert "✗ not yet: error" in said and advice in said
            others = [other for other in ERRORS.values() if other != advice]
            assert not any(other in said for other in others) and "which axis" not in said


# --- friction 7: every pair of grids follows the same token -----------------------------------


async def test_lesson_3s_order_a_and_b_grids_follow_the_same_token_even_the_twins(data_dir):
    lesson = COURSE.lesson(3)
    section = next(i for i, s in enumerate(lesson.sections) if any(isinstance(b, Grid) and b.compare == "sentence.order_b_weights" for b in s.blocks))
    app = make_app(data_dir, start=(3, section))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pair = next(p for p in app.screen.query(GridPair) if p.right.labels == figure("sentence.order_b_weights").labels())
        order_b = figure("sentence.order_b_weights").tokens()
        pair.left.focus()
        for row in range(pair.left.token_count):  # down the rows of order A, "the₀" and "the₄" included
            pair.left.move_cursor(row, 1)
            await pilot.pause()
            assert order_b[pair.right.cursor_row] == row and order_b[pair.right.cursor_col] == 1
            assert pair.right.cursor_weight == pytest.approx(pair.left.cursor_weight)


async def test_the_playground_side_by_side_follows_the_same_token(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("s", "b")  # shuffle, then the grid as typed beside it
        await pilot.pause()
        screen = app.screen
        first, moved = screen.query_one("#play-first", AttentionGrid), screen.query_one("#play-moved", AttentionGrid)
        perm = screen.state.perm
        await pilot.press("down", "down", "right")
        await pilot.pause()
        assert (first.cursor_row, first.cursor_col) == (perm[moved.cursor_row], perm[moved.cursor_col])
        first.focus()
        await pilot.press("down")
        await pilot.pause()
        assert (first.cursor_row, first.cursor_col) == (perm[moved.cursor_row], perm[moved.cursor_col])


# --- friction 6: predictions drawn apart from the last change's marks ------------------------------


def row_labels(grid: AttentionGrid) -> list[str]:
    """Each query row's marker and label, as drawn."""
    lines = [grid.render_line(y).text for y in range(grid.scrollable_content_region.height)]
    return lines[grid._header_height :][: grid.token_count]


@pytest.mark.parametrize("colour", ["colour", "NO_COLOR"])
async def test_m_clears_the_last_changes_marks_and_draws_predictions_apart(data_dir, monkeypatch, colour):
    if colour == "NO_COLOR":
        monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(data_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        screen = app.screen
        grid = screen.query_one("#play-moved", AttentionGrid)
        await pilot.press("g", "g")  # the per-slot ramp: ▶ marks the rows it moved
        await pilot.pause()
        assert any(line.lstrip().startswith("▶") for line in row_labels(grid))
        await pilot.press("down", "m")  # predict: the token in row 1 will move
        await pilot.pause()
        drawn = row_labels(grid)
        assert not any("▶" in line for line in drawn)  # the last change's marks are gone
        assert drawn[1].lstrip().startswith("? ") and sum(line.lstrip().startswith("?") for line in drawn) == 1
        if colour == "colour":
            await pilot.press("down")  # off the row: the cursor's own style no longer covers it
            await pilot.pause()
            predicted = grid.render_line(grid._header_height + 1)
            assert any(seg.style and seg.style.underline for seg in predicted if "?" in seg.text)


# --- friction 8: where the weight went, at 64 tokens --------------------------------------------


async def test_at_64_tokens_the_status_line_points_to_the_off_screen_weight(data_dir):
    sentence = " ".join(f"w{i % 20}" for i in range(64))
    app = AttnposApp(data_dir=data_dir, play=sentence)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g", "g")  # the per-slot ramp: every row's weight runs to the far end
        await pilot.pause()
        grid = app.screen.query_one("#play-moved", AttentionGrid)
        status = grid.render_line(grid.scrollable_content_region.height - 1).text
        top = int(grid.weights[0].argmax())
        assert top > 40 and f"most on {grid.labels[top]} {grid.weights[0, top]:.2f} →" in status
        await pilot.press("end")  # to the far end: the weight is on screen now, so no arrow points away
        await pilot.pause()
        status = grid.render_line(grid.scrollable_content_region.height - 1).text
        assert grid.labels[top] in status and "→" not in status.split(":")[-1]


# --- accessibility: the terminal cursor follows focus ----------------------------------------------


async def test_the_terminal_cursor_sits_on_the_focused_cell_row_and_choice(data_dir):
    app = make_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one("#outline", Tree)
        await pilot.press("down", "down")
        await pilot.pause()
        widget, _ = app.screen.get_widget_at(*app.cursor_position)
        assert widget is tree and app.cursor_position.y - tree.content_region.y == tree.cursor_line

        section = next(
            i for i, s in enumerate(COURSE.lessons[0].sections) if any(isinstance(b, Grid) for b in s.blocks) and any(isinstance(b, Quiz) for b in s.blocks)
        )
        app.open_lesson(1, section)
        await settle(pilot)
        await pilot.press("g", "down", "right", "right")
        await pilot.pause()
        grid = app.focused
        assert isinstance(grid, AttentionGrid)
        widget, _ = app.screen.get_widget_at(*app.cursor_position)
        assert widget is grid
        row_drawn = grid.render_line(app.cursor_position.y - grid.content_region.y).text
        assert row_drawn.lstrip().startswith(grid.labels[grid.cursor_row])  # on the cursor's row
        assert row_drawn[app.cursor_position.x - grid.content_region.x - 1] == "["  # inside the cursor's brackets

        await pilot.press("a", "down")
        await pilot.pause()
        options = app.focused
        widget, _ = app.screen.get_widget_at(*app.cursor_position)
        assert widget is options
        line = options.render_line(app.cursor_position.y - options.content_region.y).text
        assert f"{chr(97 + options.highlighted)})" in line


# --- friction 2 and 4: room to edit; a cited hint is pointed to, never shown unasked -----------------


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_verdict_that_cites_a_hint_points_to_the_hints_without_showing_one(data_dir, size):
    exercise = COURSE.exercises["constant-offset"]
    wrong = (exercise.folder / "mistakes" / "wrong-comparison__not-reordered.py").read_text()
    app = make_app(data_dir, start=exercise.id)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        editor = screen.query_one("#editor", TextArea)
        editor.load_text(wrong)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert "(third hint)" in result_text(screen)
        pointer = " ".join(shown(screen.query_one("#hint-text")).split())
        assert pointer == "ctrl+g: hint 1 of 4 first; the message cites hint 3."
        assert not any(hint[:30] in pointer for hint in exercise.hints)  # not one hint shown unasked
        result = screen.query_one("#result")
        assert result.max_scroll_y == 0  # the verdict and the pointer both in view, nothing scrolled away
        assert Progress.load(data_dir).exercise(exercise.id).hints_used == 0
        assert editor.size.height >= (12 if size == (80, 24) else 8)  # the code keeps its room beside the verdict
        await pilot.press("f2")  # the whole brief lists no hint: none was seen
        await settle(pilot)
        assert isinstance(app.screen, BriefScreen) and app.screen.hints_seen == ()
        await pilot.press("escape")
        await pilot.press("ctrl+g")  # asked for: the nudge, and only it, counted
        await settle(pilot)
        assert shown(screen.query_one("#hint-text")).startswith("Hint 1 of 4: ")
        assert Progress.load(data_dir).exercise(exercise.id).hints_used == 1
        lines_before = editor.size.height
        if size[1] < 30:  # a short terminal folded the brief away for the verdict; f3 brings it back
            assert not screen.query_one("#instructions").display
            await pilot.press("f3")
            assert screen.query_one("#instructions").display
            await pilot.pause()
            lines_before = editor.size.height
        await pilot.press("f3", "f4")  # the brief and the result folded away: the editor takes their lines
        await pilot.pause()
        assert editor.size.height > lines_before + 6
        await pilot.press("ctrl+t")  # a new verdict brings the result back
        await settle(pilot)
        assert result.display and "✗ not yet" in result_text(screen)


async def test_wrapped_lines_are_marked_in_the_gutter_at_60_columns(data_dir):
    app = make_app(data_dir, start="constant-offset")
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one("#editor", TextArea)
        rows = [editor.render_line(y).text for y in range(editor.scrollable_content_region.height)]
        gutter = editor.gutter_width
        numbered = [row for row in rows if row[:gutter].strip().isdigit()]
        continued = [row for row in rows if row[:gutter].strip() == "↪"]
        assert numbered and continued and all(row[:gutter].strip() for row in rows if row[gutter:].strip())


# --- friction 5: the lessons point to the playground where a learner wants their own sentence --------


async def test_lesson_1_opens_the_playground_on_its_shuffle_with_words(data_dir):
    from attnpos.lessons.course.model import PlaygroundLink
    from attnpos.tui.app.screens.playground_screen import PlaygroundScreen
    from attnpos.tui.app.widgets.lesson_blocks import PlaygroundCard

    lesson = COURSE.lesson(1)
    section = next(i for i, s in enumerate(lesson.sections) if any(isinstance(b, PlaygroundLink) for b in s.blocks))
    app = make_app(data_dir, start=(1, section))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        card = app.screen.query(PlaygroundCard).first()
        card.focus()  # one tab stop, like a code cell or an exercise
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlaygroundScreen)
        state = app.screen.state
        assert (state.tokens, state.perm, state.signal) == (card.link.sentence.split(), list(card.link.order), card.link.signal)


# --- accessibility: the linear mode holds every word the app shows -------------------------------------


def words(text: str) -> str:
    """Text with boxes, marks and line breaks taken out, to compare what is said, not how it is drawn."""
    kept = "".join(ch if ch.isalnum() else " " for ch in text)
    return " ".join(kept.split())


def test_lessons_show_holds_everything_the_app_shows_in_words(attnpos):
    from attnpos.lessons.course.model import ExerciseRef, PlaygroundLink

    for lesson in COURSE.lessons:
        printed = words(attnpos("lessons", "show", str(lesson.number)).stdout)
        expected = [lesson.title, *(section.title for section in lesson.sections)]
        for block in (b for s in lesson.sections for b in s.blocks):
            if isinstance(block, Quiz):
                expected += [block.question, *block.choices, *block.explanations]
            elif isinstance(block, Grid):
                expected += [block.caption, *block.titles]
            elif isinstance(block, ExerciseRef):
                exercise = COURSE.exercises[block.id]
                expected += [exercise.title, f"attnpos exercise {exercise.id}"]
            elif isinstance(block, PlaygroundLink):
                expected += [block.caption]
        missing = [text for text in expected if text and words(text) not in printed]
        assert not missing, f"lesson {lesson.number} prints without: {missing}"
