"""A lesson and an exercise added by the writer's scaffold are picked up everywhere, with no code change.

The test copies the course to a folder of its own, points the course folder
there (attnpos.lessons.course.scanner.COURSE_ROOT), runs `attnpos new lesson`
and `attnpos new exercise` as a writer would, and asks every front end about
what they wrote.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Tree

from attnpos.lessons.authoring.scaffold import TODO
from attnpos.lessons.course import scanner
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.model import Prose
from attnpos.lessons.course.outline import read_outline
from attnpos.tui.app.command_palette import CourseCommands
from attnpos.tui.app.screens.exercise_screen import ExerciseScreen
from attnpos.tui.app.screens.lesson_screen import LessonScreen
from attnpos.tui.app.screens.outline_screen import OutlineScreen

# Not the "Position in a second head": a checkout where a writer has just added that lesson must pass this test too.
NEW_TITLE = "Grown by a test"
NEW_SLUG = "grown-by-a-test"


@pytest.fixture
def course_copy(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "course"
    shutil.copytree(scanner.COURSE_ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(scanner, "COURSE_ROOT", root)
    return root


@pytest.fixture
def grown(course_copy, attnpos) -> tuple[int, str, str]:
    """(the new lesson's number, the new exercise's id, the neighbour it copies)"""
    outline = read_outline()
    number = outline[-1].number + 1
    neighbour = [e.id for lesson in outline for e in lesson.exercises][-1]  # the default neighbour: the course's last exercise
    new_id = f"{neighbour}-again"
    made = attnpos("new", "lesson", NEW_TITLE)
    assert made.returncode == 0, made.stderr
    assert (course_copy / f"{number:02d}-{NEW_SLUG}" / "lesson.md").is_file()
    placed = attnpos("new", "exercise", new_id, "--lesson", str(number))
    assert placed.returncode == 0, placed.stderr
    return number, new_id, neighbour


def test_the_loader_and_the_outline_read_the_new_lesson_and_exercise(grown):
    number, new_id, neighbour = grown
    course = load_course()
    assert course.lesson(number).title == NEW_TITLE
    exercise = course.exercises[new_id]
    assert exercise.lesson == number and exercise.title.startswith(TODO)
    assert exercise.contract == course.exercises[neighbour].contract  # checked by its neighbour's contract until it has one
    assert exercise.why.id == f"{new_id}-why"  # not the neighbour's: quiz ids are unique
    outline = read_outline()
    assert outline[-1].number == number and [e.id for e in outline[-1].exercises] == [new_id]


def test_the_command_line_shows_checks_lists_and_reports_them(grown, attnpos):
    number, new_id, _ = grown
    shown = attnpos("lessons", "show", str(number))
    assert shown.returncode == 0 and NEW_TITLE in shown.stdout and f"{TODO}: a title for {new_id}" in shown.stdout
    assert NEW_TITLE in attnpos("lessons").stdout
    assert f"| {number} | {NEW_TITLE} |" in attnpos("lessons", "--markdown").stdout
    listed = attnpos("exercises")
    assert listed.returncode == 0 and new_id in listed.stdout
    progress = json.loads(attnpos("progress", "--json").stdout)
    assert progress["lessons"][-1]["lesson"] == number
    assert [e["id"] for e in progress["lessons"][-1]["exercises"]] == [new_id]
    # Every lesson, and the new exercise's scripts (the others' run in .ci/run's whole check and in test_checker).
    checked = attnpos("lessons", "--check", "--exercise", new_id)
    assert checked.returncode == 0, checked.stderr
    assert f"{number} lessons" in checked.stdout
    # The placeholders are notes naming file and line, not problems.
    notes = [line for line in checked.stdout.splitlines() if ": placeholder: " in line]
    lesson_md = f"{number:02d}-{NEW_SLUG}/lesson.md:"
    assert any(
        lesson_md in note
        and note.endswith(
            "write this section. A number it quotes is never typed: it is a figure registered in this folder's figures.py (lessons/content/FORMAT.md)."
        )
        for note in notes
    )
    assert any(f"exercises/{new_id}/exercise.toml:" in note and note.endswith(f"a title for {new_id}") for note in notes)
    assert f"{len(notes)} placeholder(s) to write" in checked.stdout


async def test_the_app_opens_them_from_the_outline_the_reader_and_the_palette(grown, make_app, settle):
    number, new_id, _ = grown
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, OutlineScreen)
        labels = [str(node.label) for node in app.screen.query_one(Tree).root.children]
        assert len(labels) == number and NEW_TITLE in labels[-1]
        intro = str(app.screen.query_one("#outline-intro").render())
        assert intro.startswith(scanner.read_course_text().opening(number))

        commands = [title for title, _, _ in CourseCommands(app.screen)._targets()]
        assert f"Lesson {number}: {NEW_TITLE}" in commands
        assert f"Exercise {new_id}: {TODO}: a title for {new_id}" in commands

        app.open_lesson(number, 0)
        await settle(pilot)
        assert isinstance(app.screen, LessonScreen) and app.screen.lesson.title == NEW_TITLE

        app.open_exercise(new_id)
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == new_id


def test_a_new_lesson_registers_figures_in_its_own_folder(grown):
    """The figures.py the scaffold writes is where the lesson's figures go: one added there is quoted at once."""
    number, _, _ = grown
    folder = scanner.COURSE_ROOT / f"{number:02d}-{NEW_SLUG}"
    figures = folder / "figures.py"
    figures.write_text(
        figures.read_text(encoding="utf-8").replace(
            "FIGURES: tuple[Figure, ...] = ()", 'FIGURES: tuple[Figure, ...] = (Figure("second.heads", "heads in the demo", lambda: 2),)'
        ),
        encoding="utf-8",
    )
    lesson = folder / "lesson.md"
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\nTwo heads: {{second.heads}}.\n", encoding="utf-8")
    prose = [block.markdown for section in load_course().lesson(number).sections for block in section.blocks if isinstance(block, Prose)]
    assert "Two heads: 2." in prose


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("new", "lesson", "1984"), "has no letters"),
        (("new", "lesson", "  "), "has no letters"),
        (("new", "exercise", "constant-offset", "--lesson", "1"), "already an exercise 'constant-offset'"),
        (("new", "exercise", "fresh", "--lesson", "99"), "no lesson 99"),
        (("new", "exercise", "fresh", "--lesson", "1", "--from", "nope"), "no exercise 'nope' to copy"),
        (("new", "exercise", "Not_An_Id", "--lesson", "1"), "is not an exercise id"),
    ],
)
def test_the_scaffold_refuses_bad_input_in_one_line(course_copy, attnpos, args, words):
    before = sorted(p.relative_to(course_copy) for p in course_copy.rglob("*"))
    refused = attnpos(*args)
    assert refused.returncode == 2 and words in refused.stderr and refused.stderr.count("\n") == 1, refused.stderr
    assert sorted(p.relative_to(course_copy) for p in course_copy.rglob("*")) == before  # nothing written


def test_a_folder_in_the_way_is_named_not_overwritten(course_copy, attnpos):
    number = read_outline()[-1].number + 1
    stray = course_copy / f"{number:02d}-{NEW_SLUG}"
    stray.mkdir()
    refused = attnpos("new", "lesson", NEW_TITLE)
    assert refused.returncode == 2 and "is in the way" in refused.stderr and not any(stray.iterdir())


def test_the_scaffold_writes_only_into_a_checkout(tmp_path, monkeypatch, attnpos):
    installed = tmp_path / "site-packages" / "attnpos" / "lessons" / "content"
    shutil.copytree(scanner.COURSE_ROOT, installed, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(scanner, "COURSE_ROOT", installed)
    refused = attnpos("new", "lesson", NEW_TITLE)
    assert refused.returncode == 2 and "an installed copy" in refused.stderr
    monkeypatch.setattr(scanner, "COURSE_ROOT", tmp_path / "nowhere")
    refused = attnpos("new", "lesson", NEW_TITLE)
    assert refused.returncode == 2 and "no course folder" in refused.stderr
