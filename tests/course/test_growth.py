"""A lesson and an exercise added by copying their neighbours are picked up everywhere, with no code change.

The test copies the course to a folder of its own, adds lesson N+1 (the last
lesson, its question ids renamed, the copied exercise placed in it) and an
exercise (the last exercise's folder, new id, new lesson number), points the
course folder there (attnpos.lessons.course.scanner.COURSE_ROOT) and asks every
front end about them.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from textual.widgets import Tree

from attnpos.lessons.course import scanner
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.outline import read_outline
from attnpos.tui.app.command_palette import CourseCommands
from attnpos.tui.app.screens.exercise_screen import ExerciseScreen
from attnpos.tui.app.screens.lesson_screen import LessonScreen
from attnpos.tui.app.screens.outline_screen import OutlineScreen

NEW_TITLE = "Copied lesson"
NEW_EXERCISE_TITLE = "Copied exercise"


def grow(course_root: Path) -> tuple[int, str]:
    """Copy the course into ``course_root`` and add a lesson and an exercise the way a writer would."""
    shutil.copytree(scanner.COURSE_ROOT, course_root, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)

    *_, (last_lesson, match) = scanner.lesson_files(course_root)
    assert match is not None
    number = int(match.group(1)) + 1
    last_exercise = sorted(p for p in (course_root / "exercises").iterdir() if p.is_dir())[-1]
    new_id = f"{last_exercise.name}-again"

    shutil.copytree(last_exercise, course_root / "exercises" / new_id)
    toml = course_root / "exercises" / new_id / "exercise.toml"
    text = re.sub(r"(?m)^lesson = \d+$", f"lesson = {number}", toml.read_text(encoding="utf-8"), count=1)
    toml.write_text(re.sub(r'(?m)^title = ".*"$', f'title = "{NEW_EXERCISE_TITLE}"', text, count=1), encoding="utf-8")

    lesson = last_lesson.read_text(encoding="utf-8")
    lesson = re.sub(r'(?m)^title = ".*"$', f'title = "{NEW_TITLE}"', lesson, count=1)
    lesson = re.sub(r"```\{exercise\}\n.*?```\n", "", lesson, flags=re.S)  # an exercise sits in one lesson: the copy places only its own
    lesson = re.sub(r'(?m)^id = "(.*)"$', r'id = "\1-again"', lesson)  # question ids are unique in the course
    lesson += f'\n## Practice again\n\n```{{exercise}}\nid = "{new_id}"\n```\n'
    (course_root / f"{number:02d}-copied").mkdir()
    (course_root / f"{number:02d}-copied" / "lesson.md").write_text(lesson, encoding="utf-8")
    return number, new_id


@pytest.fixture
def grown(tmp_path, monkeypatch) -> tuple[int, str]:
    root = tmp_path / "course"
    root.mkdir()
    number, new_id = grow(root)
    monkeypatch.setattr(scanner, "COURSE_ROOT", root)
    return number, new_id


def test_the_loader_and_the_outline_read_the_new_lesson_and_exercise(grown):
    number, new_id = grown
    course = load_course()
    assert course.lesson(number).title == NEW_TITLE
    assert course.exercises[new_id].lesson == number and course.exercises[new_id].title == NEW_EXERCISE_TITLE
    outline = read_outline()
    assert outline[-1].number == number and [e.id for e in outline[-1].exercises] == [new_id]


def test_the_command_line_shows_checks_lists_and_reports_them(grown, attnpos):
    number, new_id = grown
    shown = attnpos("lessons", "show", str(number))
    assert shown.returncode == 0 and NEW_TITLE in shown.stdout and NEW_EXERCISE_TITLE in shown.stdout
    assert NEW_TITLE in attnpos("lessons").stdout
    listed = attnpos("exercises")
    assert listed.returncode == 0 and new_id in listed.stdout
    progress = json.loads(attnpos("progress", "--json").stdout)
    assert progress["lessons"][-1]["lesson"] == number
    assert [e["id"] for e in progress["lessons"][-1]["exercises"]] == [new_id]
    # Every lesson, and the new exercise's scripts (the others' run in .ci/run's whole check and in test_checker).
    checked = attnpos("lessons", "--check", "--exercise", new_id)
    assert checked.returncode == 0, checked.stderr
    assert f"{number} lessons" in checked.stdout


async def test_the_app_opens_them_from_the_outline_the_reader_and_the_palette(grown, make_app, settle):
    number, new_id = grown
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
        assert f"Exercise {new_id}: {NEW_EXERCISE_TITLE}" in commands

        app.open_lesson(number, 0)
        await settle(pilot)
        assert isinstance(app.screen, LessonScreen) and app.screen.lesson.title == NEW_TITLE

        app.open_exercise(new_id)
        await settle(pilot)
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == new_id
