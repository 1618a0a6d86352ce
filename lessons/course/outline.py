"""The course's table of contents, read without computing anything.

The outline screen is the first thing a learner sees, so it must not wait
for NumPy or the experiments: this reads only front matter, ``## `` headings
and exercise placements, from the same pieces (attnpos.lessons.course.scanner) the
full loader (attnpos.lessons.course.loader) reads, validates and computes.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from attnpos.lessons.course.scanner import (
    FIRST_SECTION,
    Fence,
    Heading,
    TextLine,
    content_dir,
    exercises_dir,
    front_matter,
    lesson_files,
    scan,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True)
class OutlineExercise:
    id: str
    title: str
    section: int  # index of the section it sits in


@dataclass(frozen=True)
class OutlineLesson:
    number: int
    title: str
    sections: tuple[str, ...]  # section titles; the first is the introduction
    exercises: tuple[OutlineExercise, ...]
    quizzes: tuple[str, ...] = ()  # the ids of its questions, in order
    topics: str = ""  # front matter `topics`: what it covers, in a few words (the README's table)


EXERCISE_TITLE = re.compile(r'^title\s*=\s*"((?:[^"\\]|\\.)*)"\s*$', re.MULTILINE)


def _exercise_title(exercise_id: str, exercises_dir: Path) -> str:
    """The title line alone: parsing the whole file (hints, messages) would slow the first frame."""
    try:
        match = EXERCISE_TITLE.search((exercises_dir / exercise_id / "exercise.toml").read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return exercise_id
    return tomllib.loads(match.group(0))["title"] if match else exercise_id


def read_lesson_outline(path: Path, number: int, exercises_folder: Path | None = None) -> OutlineLesson:
    """The lesson's title, section titles and exercises, as the loader would read them from the same pieces."""
    lines = path.read_text(encoding="utf-8").splitlines()
    front = front_matter(lines)
    meta = tomllib.loads(front.toml)
    sections: list[str] = []
    placed: list[tuple[str, int]] = []  # (exercise id, index in sections)
    quizzes: list[str] = []
    intro = False  # whether anything comes before the first heading (the loader makes it a section)
    for piece in scan(lines, front.body_start):
        if isinstance(piece, Heading):
            sections.append(piece.title)
            continue
        if not sections and not (isinstance(piece, TextLine) and not piece.raw.strip()):
            intro = True
        if isinstance(piece, Fence) and piece.directive in ("exercise", "quiz"):
            block_id = _placed_id(piece.body)
            if block_id is not None and piece.directive == "exercise":
                placed.append((block_id, len(sections) - 1))
            elif block_id is not None:
                quizzes.append(block_id)
    if intro or not sections:
        sections.insert(0, FIRST_SECTION)
        placed = [(exercise_id, section + 1) for exercise_id, section in placed]
    folder = exercises_folder or exercises_dir()
    exercises = tuple(OutlineExercise(i, _exercise_title(i, folder), section) for i, section in placed)
    topics = meta.get("topics", "")
    return OutlineLesson(number, meta.get("title", path.parent.name), tuple(sections), exercises, tuple(quizzes), topics if isinstance(topics, str) else "")


def _placed_id(body: str) -> str | None:
    """The id of an {exercise} or {quiz} directive, or None when it has none (the loader reports that)."""
    try:
        exercise_id = tomllib.loads(body).get("id")
    except tomllib.TOMLDecodeError:
        return None
    return exercise_id if isinstance(exercise_id, str) else None


def read_outline(lessons_folder: Path | None = None, exercises_folder: Path | None = None) -> list[OutlineLesson]:
    """Every lesson's outline; the course folder's (attnpos.lessons.course.scanner.COURSE_ROOT) unless told otherwise."""
    folder = lessons_folder or content_dir()
    return [read_lesson_outline(path, int(match.group(1)), exercises_folder) for path, match in lesson_files(folder) if match]


def find_outline_exercise(outline: list[OutlineLesson], exercise_id: str | None) -> OutlineExercise | None:
    """The exercise with this id in the outline, or None."""
    return next((e for lesson in outline for e in lesson.exercises if e.id == exercise_id), None)
