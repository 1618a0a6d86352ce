"""The course's table of contents, read without computing anything.

The outline screen is the first thing a learner sees, so it must not wait
for NumPy or the experiments: this reads only front matter, ``## `` headings
and exercise placements. The full loader (attnpos.lessons.loader) validates
everything else.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PACKAGE_DIR = Path(__file__).resolve().parent
CONTENT_DIR = PACKAGE_DIR / "content"
EXERCISES_DIR = PACKAGE_DIR / "exercises"
COURSE_TITLE = "Why Attention Needs Position"
PREREQUISITES = "You need Python and everyday NumPy (indexing, the @ product); lesson 1 opens with a refresher on one attention head."
LESSON_NAME = re.compile(r"(\d+)-([a-z0-9-]+)\.md")


@dataclass(frozen=True)
class OutlineExercise:
    id: str
    title: str
    section: int  # index of the section it sits in


@dataclass(frozen=True)
class OutlineLesson:
    number: int
    title: str
    summary: str
    sections: tuple[str, ...]  # section titles; the first is the introduction
    exercises: tuple[OutlineExercise, ...]


EXERCISE_TITLE = re.compile(r'^title\s*=\s*"((?:[^"\\]|\\.)*)"\s*$', re.MULTILINE)


def _exercise_title(exercise_id: str, exercises_dir: Path) -> str:
    """The title line alone: parsing the whole file (hints, messages) would slow the first frame."""
    try:
        match = EXERCISE_TITLE.search((exercises_dir / exercise_id / "exercise.toml").read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return exercise_id
    return tomllib.loads(match.group(0))["title"] if match else exercise_id


def read_lesson_outline(path: Path, number: int, exercises_dir: Path = EXERCISES_DIR) -> OutlineLesson:
    lines = path.read_text(encoding="utf-8").splitlines()
    end = next(i for i in range(1, len(lines)) if lines[i].strip() == "+++")
    meta = tomllib.loads("\n".join(lines[1:end]))
    sections, exercises, fence = ["Introduction"], [], None
    pending_exercise = False
    for raw in lines[end + 1 :]:
        stripped = raw.strip()
        if fence:
            if stripped == fence:
                fence, pending_exercise = None, False
            elif pending_exercise and (m := re.match(r'id\s*=\s*"([^"]+)"', stripped)):
                exercises.append(OutlineExercise(m.group(1), _exercise_title(m.group(1), exercises_dir), len(sections) - 1))
        elif stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
            pending_exercise = stripped[len(fence) :].strip() == "{exercise}"
        elif raw.startswith("## "):
            sections.append(raw[3:].strip())
    if len(sections) > 1 and not _has_intro(lines[end + 1 :]):
        sections.pop(0)
        exercises = [OutlineExercise(e.id, e.title, e.section - 1) for e in exercises]
    return OutlineLesson(number, meta.get("title", path.stem), meta.get("summary", ""), tuple(sections), tuple(exercises))


def _has_intro(body: list[str]) -> bool:
    """Whether any text comes before the first section heading (the loader makes it a section)."""
    for raw in body:
        if raw.startswith("## "):
            return False
        if raw.strip():
            return True
    return False


def read_outline(content_dir: Path = CONTENT_DIR, exercises_dir: Path = EXERCISES_DIR) -> list[OutlineLesson]:
    lessons = []
    for path in sorted(content_dir.glob("*.md")):
        match = LESSON_NAME.fullmatch(path.name)
        if match:
            lessons.append(read_lesson_outline(path, int(match.group(1)), exercises_dir))
    return lessons


def find_outline_exercise(outline: list[OutlineLesson], exercise_id: str | None) -> OutlineExercise | None:
    """The exercise with this id in the outline, or None."""
    return next((e for lesson in outline for e in lesson.exercises if e.id == exercise_id), None)
