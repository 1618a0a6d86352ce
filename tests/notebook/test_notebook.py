"""The course in Jupyter: the %attnpos magic, and every lesson exported as a notebook that runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from rich.console import Console

from attnpos.lessons.course import outline
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.model import Code, ExerciseRef, Grid, Heatmap, Math, Quiz
from attnpos.lessons.course.progress import Progress
from attnpos.tui.notebook import magic

nbformat = pytest.importorskip("nbformat", reason="the jupyter extra: pip install -e '.[jupyter]'")


@pytest.fixture(scope="module")
def course():
    return load_course()


@pytest.fixture
def session(data_dir):
    return magic.Session(data_dir)


def run(session, line: str, cell: str | None = None) -> tuple[str, list[str]]:
    """The magic's printed text (as a notebook would show it, without colour) and what it put in the next cell."""
    console = Console(record=True, width=100, color_system=None)
    next_cells: list[str] = []
    magic.run_magic(session, line, cell, next_cells.append, console)
    return console.export_text(), next_cells


def test_check_magic_passes_a_solution_and_records_it(session, course, data_dir):
    exercise = course.exercises["constant-offset"]
    text, _ = run(session, "check constant-offset", exercise.solution)
    assert "passed" in text, text
    assert Progress.load(data_dir).exercise("constant-offset").passed


def test_check_magic_gives_the_command_lines_diagnosis(session, course):
    text, _ = run(session, "check constant-offset", course.exercises["constant-offset"].starter)
    assert "not yet" in text
    assert "Your script does not define `pos`" in text


def test_exercise_magic_puts_the_starter_under_the_check_magic(session, course):
    _, cells = run(session, "exercise identical-tokens")
    assert cells == [f"%%attnpos check identical-tokens\n{course.exercises['identical-tokens'].starter}"]


def test_hint_magic_shows_and_counts_the_hint(session, data_dir, capsys):
    run(session, "hint constant-offset 2")
    assert "Hint 2 of" in capsys.readouterr().out
    assert Progress.load(data_dir).exercise("constant-offset").hints_used == 2


@pytest.mark.parametrize(
    ("line", "cell", "says"),
    [
        ("", None, "usage: %attnpos"),
        ("frobnicate", None, "unknown action 'frobnicate'"),
        ("check constant-offset", None, "check is a cell magic"),
        ("check", "x = 1", "say which exercise"),
        ("exercise no-such", None, "unknown exercise 'no-such'"),
        ("hint constant-offset two", None, "say which exercise and, if you like, which hint"),
        ("hint constant-offset 99", None, "constant-offset has hints 1 to"),
        ('check "unclosed', "x = 1", "No closing quotation"),
    ],
)
def test_magic_misuse_is_one_line(session, line, cell, says):
    text, _ = run(session, line, cell)
    assert says in text
    assert len(text.strip().splitlines()) == 1
    assert "Traceback" not in text


@pytest.mark.parametrize("platform", ["emscripten", "darwin", "win32"])
def test_check_magic_says_in_one_line_where_the_sandbox_cannot_run(session, monkeypatch, platform):
    monkeypatch.setattr(sys, "platform", platform)
    text, _ = run(session, "check constant-offset", "pos = 0.6")
    assert len(text.strip().splitlines()) == 1
    assert "sandbox needs Linux" in text


def test_load_ext_registers_the_magic():
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_line_magic("load_ext", "attnpos")
    assert "attnpos" in shell.magics_manager.magics["line"]
    assert "attnpos" in shell.magics_manager.magics["cell"]


def test_export_writes_a_valid_notebook_per_lesson(attnpos, course, tmp_path):
    result = attnpos("export", "notebook", "all", "--dir", str(tmp_path / "nb"))
    assert result.returncode == 0, result.stderr
    paths = sorted((tmp_path / "nb").glob("*.ipynb"))
    assert len(paths) == len(course.lessons)
    for lesson, path in zip(course.lessons, paths, strict=True):
        notebook = nbformat.read(str(path), as_version=4)
        nbformat.validate(notebook)
        sources = [cell.source for cell in notebook.cells]
        blocks = [block for section in lesson.sections for block in section.blocks]
        for block in blocks:
            if isinstance(block, Code) and block.runnable:
                assert block.source in sources
            elif isinstance(block, Math):
                assert f"$$\n{block.latex}\n$$" in sources
            elif isinstance(block, Grid):
                assert any(s.startswith(f"grid({block.figure!r}") for s in sources)
            elif isinstance(block, Heatmap):
                assert any(s.startswith(f"heatmap({block.figure!r}") for s in sources)
            elif isinstance(block, Quiz):
                quiz = next(s for s in sources if block.question in s)
                assert "<details>" in quiz and all(e in quiz for e in block.explanations)
            elif isinstance(block, ExerciseRef):
                assert f"%%attnpos check {block.id}\n{course.exercises[block.id].starter}" in sources


def test_export_keeps_inline_math_as_latex(course, tmp_path):
    from attnpos.tui.notebook.export import lesson_notebook

    markdown = "\n".join(c.source for c in lesson_notebook(course.lessons[0], course).cells if c.cell_type == "markdown")
    assert "$" in markdown  # the app shows these as Unicode; a notebook typesets them


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("export", "notebook", "99"), "no lesson 99"),
        (("export", "notebook", "first"), "neither a lesson number nor 'all'"),
    ],
)
def test_export_bad_input_is_one_line(attnpos, args, says):
    result = attnpos(*args)
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr


def test_export_into_a_file_is_refused(attnpos, tmp_path):
    target = tmp_path / "file"
    target.write_text("")
    result = attnpos("export", "notebook", "1", "--dir", str(target))
    assert result.returncode == 2 and "not a folder" in result.stderr


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Every lesson exported once (``attnpos export notebook all``) for the cases below, which run one each."""
    from attnpos.tui import launchers
    from attnpos.tui.cli import command_line

    folder = tmp_path_factory.mktemp("notebooks")

    def no_app(*args: object) -> int:
        raise AssertionError("export opened the app")

    launchers = command_line.Launchers(no_app, launchers.export_notebooks, launchers.serve)
    assert command_line.main(["export", "notebook", "all", "--dir", str(folder)], launchers) == 0
    return folder


def lessons_covering_every_block_kind() -> set[int]:
    """Few lessons whose notebooks hold every kind of block between them (greedy: the most new kinds first)."""
    kinds = {lesson.number: {type(b) for s in lesson.sections for b in s.blocks} for lesson in load_course().lessons}
    chosen: set[int] = set()
    left = set().union(*kinds.values())
    while left:
        best = max(kinds, key=lambda number: (len(kinds[number] & left), -number))
        chosen.add(best)
        left -= kinds[best]
    return chosen


# Every run executes a few notebooks holding every kind of cell between them; the rest repeat those kinds
# (their code cells also run in tests/course/test_lessons.py) and run with -m slow.
EVERY_RUN_NOTEBOOKS = lessons_covering_every_block_kind()


@pytest.mark.parametrize(
    "number", [n if n in EVERY_RUN_NOTEBOOKS else pytest.param(n, marks=pytest.mark.slow) for n in range(1, len(outline.read_outline()) + 1)]
)
def test_every_exported_notebook_runs(exported, course, tmp_path, data_dir, number):
    """Executed as Jupyter would (nbclient, a real kernel): no cell raises, grids and checks print."""
    nbclient = pytest.importorskip("nbclient")
    notebooks = sorted(exported.glob(f"{number:02d}*.ipynb"))
    assert len(notebooks) == 1
    for path in notebooks:
        notebook = nbformat.read(str(path), as_version=4)
        nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
        outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])]
        errors = [o for o in outputs if o.output_type == "error"]
        assert not errors, f"{path.name}: {json.dumps(errors[0])[:500]}"
        shown = json.dumps(outputs)
        if any(isinstance(b, ExerciseRef) for s in course.lesson(int(path.name[:2])).sections for b in s.blocks):
            assert "not yet" in shown  # the starter, checked by the magic in the kernel


def test_a_heat_map_cell_draws_its_figure(capsys):
    from attnpos.tui.notebook.show import heatmap

    heatmap("learned.after", compare="learned.before", titles=("after", "before"))
    printed = capsys.readouterr().out
    assert "after" in printed and "before" in printed and "t15" in printed


def test_check_magic_passes_a_solution_pasted_with_a_byte_order_mark(session, course):
    """A cell pasted from a file saved with a mark starts with U+FEFF; Python reads past it, and so does the checker."""
    exercise = course.exercises["constant-offset"]
    text, _ = run(session, "check constant-offset", "\ufeff" + exercise.solution)
    assert "passed" in text, text


def test_why_magic_asks_records_the_first_answer_and_completes(session, course, data_dir):
    exercise = course.exercises["constant-offset"]
    text, _ = run(session, "why constant-offset")
    assert "comes once your code passes" in text and "Traceback" not in text
    run(session, "check constant-offset", exercise.solution)
    text, _ = run(session, "why constant-offset")
    assert exercise.why.question in " ".join(text.split()) and "%attnpos why constant-offset a" in text
    wrong = (exercise.why.answer + 1) % len(exercise.why.choices)
    text, _ = run(session, f"why constant-offset {chr(97 + wrong)}")
    assert "Not quite" in text
    text, _ = run(session, f"why constant-offset {chr(97 + exercise.why.answer)}")
    assert "Exercise done" in text
    state = Progress.load(data_dir).exercise("constant-offset")
    assert state.done and state.why_first_answer == wrong


def test_check_magic_points_to_the_why_magic(session, course):
    text, _ = run(session, "check constant-offset", course.exercises["constant-offset"].solution)
    assert "One question completes it: %attnpos why constant-offset" in " ".join(text.split())
