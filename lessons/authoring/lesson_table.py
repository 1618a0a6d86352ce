"""The README's table of lessons, made from the course: `attnpos lessons --markdown` prints it.

The README holds it between two marker comments; `attnpos new lesson` writes
it there again (`write_readme_table`), and tests/project/test_readme.py
fails when the two differ, so the table cannot go stale.
"""

from __future__ import annotations

from pathlib import Path

from attnpos.lessons.course.outline import OutlineLesson, read_outline
from attnpos.lessons.course.scanner import LESSONS_PACKAGE, content_dir

README = LESSONS_PACKAGE.parent / "README.md"  # the checkout's; an installed copy has none
CHECKOUT_COURSE = LESSONS_PACKAGE / "content"  # the course that README describes
START = "<!-- the lessons: written by attnpos lessons --markdown (attnpos new lesson rewrites it) -->"
END = "<!-- end of the lessons -->"


def markdown_table(outline: list[OutlineLesson] | None = None) -> str:
    """A row per lesson: its number, title, what it covers (front matter ``topics``) and exercises."""
    rows = ["| # | lesson | what it covers | exercises |", "| --- | --- | --- | --- |"]
    for lesson in read_outline() if outline is None else outline:
        cells = (str(lesson.number), lesson.title, lesson.topics, ", ".join(e.id for e in lesson.exercises))
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")  # one line; a bar would end the cell


def readme_table(text: str) -> str | None:
    """The table between the README's markers, or None when it has none."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start + len(START) : end].strip("\n") + "\n"


def write_readme_table() -> Path | None:
    """Write the table into the checkout's README when the course in use is the one it describes; the README, else None."""
    if content_dir().resolve() != CHECKOUT_COURSE.resolve() or not README.is_file():
        return None  # a test's copy of the course, or an installed one: no README of its own
    text = README.read_text(encoding="utf-8")
    if readme_table(text) is None:
        return None
    start, end = text.index(START) + len(START), text.index(END)
    README.write_text(text[:start] + "\n" + markdown_table() + text[end:], encoding="utf-8")
    return README
