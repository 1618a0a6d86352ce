"""The course's table of contents, read without computing anything.

The outline screen is the first thing a learner sees, so it must not wait
for NumPy or the experiments: this reads only front matter, ``## `` headings
and exercise placements, from the same pieces (attnpos.lessons.course.scanner) the
full loader (attnpos.lessons.course.loader) reads, validates and computes.

Even that grows with the course (every line of every lesson scanned, a
heading's math turned into Unicode), so the app keeps what it read of each
lesson in its data folder (:data:`OUTLINE_CACHE`), under the digest of the
lesson's text: a start reads each lesson file and finds it there, and a
lesson edited since is read again (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, TypeGuard

from msgspec import Struct

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


class OutlineExercise(Struct, frozen=True):
    id: str
    title: str
    section: int  # index of the section it sits in


class OutlineLesson(Struct, frozen=True):
    number: int
    title: str
    sections: tuple[str, ...]  # section titles; the first is the introduction
    exercises: tuple[OutlineExercise, ...]
    quizzes: tuple[str, ...] = ()  # the ids of its questions, in order
    topics: str = ""  # front matter `topics`: what it covers, in a few words (the README's table)


OUTLINE_CACHE = "outline-cache.json"  # in the data folder: what the outline read of each lesson, by its text's digest
# The code that reads a lesson's outline: an upgrade of any of them (a heading's math rendered otherwise) empties the cache.
_READER_FILES = (Path(__file__), Path(__file__).with_name("scanner.py"), Path(__file__).with_name("mathtext.py"))

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
    return _outline_lesson(path, number, _lesson_shape(path.read_text(encoding="utf-8")), exercises_folder)


def _outline_lesson(path: Path, number: int, shape: dict[str, Any], exercises_folder: Path | None) -> OutlineLesson:
    """A lesson's outline from its shape (:func:`_lesson_shape`), with its exercises' titles as their files say now."""
    folder = exercises_folder or exercises_dir()
    exercises = tuple(OutlineExercise(i, _exercise_title(i, folder), section) for i, section in shape["placed"])
    return OutlineLesson(number, shape["title"] or path.parent.name, tuple(shape["sections"]), exercises, tuple(shape["quizzes"]), shape["topics"])


def _lesson_shape(text: str) -> dict[str, Any]:
    """What the outline needs of a lesson's text, as plain data (kept in the cache): its front matter's
    title (None when it has none) and topics, its section titles, its exercises' (id, section) and its questions' ids."""
    lines = text.splitlines()
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
    topics = meta.get("topics", "")
    return {
        "title": meta.get("title"),
        "sections": sections,
        "placed": [list(p) for p in placed],  # as JSON gives them back
        "quizzes": quizzes,
        "topics": topics if isinstance(topics, str) else "",
    }


def _is_shape(value: Any) -> TypeGuard[dict[str, Any]]:
    """Whether a cached value has the shape :func:`_lesson_shape` gives (a damaged or edited cache is read again)."""

    def strings(items: Any) -> bool:
        return isinstance(items, list) and all(isinstance(item, str) for item in items)

    return (
        isinstance(value, dict)
        and (value.get("title") is None or isinstance(value.get("title"), str))
        and isinstance(value.get("topics"), str)
        and strings(value.get("sections"))
        and strings(value.get("quizzes"))
        and isinstance(value.get("placed"), list)
        and all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], int) for p in value["placed"])
    )


def _placed_id(body: str) -> str | None:
    """The id of an {exercise} or {quiz} directive, or None when it has none (the loader reports that)."""
    try:
        exercise_id = tomllib.loads(body).get("id")
    except tomllib.TOMLDecodeError:
        return None
    return exercise_id if isinstance(exercise_id, str) else None


def read_outline(lessons_folder: Path | None = None, exercises_folder: Path | None = None, cache: Path | None = None) -> list[OutlineLesson]:
    """Every lesson's outline; the course folder's (attnpos.lessons.course.scanner.COURSE_ROOT) unless told otherwise.

    ``cache``: a file (:data:`OUTLINE_CACHE` in the data folder) keeping each lesson's outline by the
    digest of its text, read and rewritten here; what cannot be read in it is read from the lesson.
    """
    folder = lessons_folder or content_dir()
    files = [(path, int(match.group(1))) for path, match in lesson_files(folder) if match]
    if cache is None:
        return [read_lesson_outline(path, number, exercises_folder) for path, number in files]
    known = _read_cache(cache)
    used: dict[str, dict[str, Any]] = {}
    lessons = []
    for path, number in files:
        data = path.read_bytes()
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        cached = known.get(digest)
        shape: dict[str, Any] = cached if _is_shape(cached) else _lesson_shape(data.decode("utf-8"))
        used[digest] = shape
        lessons.append(_outline_lesson(path, number, shape, exercises_folder))
    if used != known:  # a lesson new or edited, or gone
        _write_cache(cache, used)
    return lessons


def _reader_stamp() -> list[list[int]]:
    return [[os.stat(path).st_mtime_ns, os.stat(path).st_size] for path in _READER_FILES]


def _read_cache(cache: Path) -> dict[str, Any]:
    """The cached shapes by digest; none when the file is missing, damaged, or written by other code than this."""
    try:
        content = json.loads(cache.read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(content, dict) or content.get("reader") != _reader_stamp() or not isinstance(content.get("lessons"), dict):
        return {}
    return content["lessons"]


def _write_cache(cache: Path, shapes: dict[str, dict[str, Any]]) -> None:
    """Replace the cache at once (another app may be reading it); a folder that cannot be written keeps none."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{cache.name}.", suffix=".tmp", dir=cache.parent)
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump({"reader": _reader_stamp(), "lessons": shapes}, file)
        os.replace(temporary, cache)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def find_outline_exercise(outline: list[OutlineLesson], exercise_id: str | None) -> OutlineExercise | None:
    """The exercise with this id in the outline, or None."""
    return next((e for lesson in outline for e in lesson.exercises if e.id == exercise_id), None)
