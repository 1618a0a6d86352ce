"""Where the course is, what it says of itself, and how a lesson file is cut into pieces, for the outline and the loader alike.

A lesson is TOML front matter between ``+++`` lines, then Markdown in which a
line starting ``## `` opens a section, a fence of backticks holds code or a
directive (``{grid}``, ``{quiz}``, ``{exercise}``) and ``$$`` lines hold
display math (lessons/content/FORMAT.md). `scan` finds those pieces and nothing
more, so the outline (read before NumPy is loaded) and the full loader
(which validates every piece and computes every figure) cannot disagree about
where a section starts or which section an exercise sits in.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from msgspec import Struct

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

LESSONS_PACKAGE = Path(__file__).resolve().parents[1]  # attnpos.lessons: paths in messages are shown from its parent
# The course folder: course.toml, glossary.toml, a folder per lesson (NN-slug/lesson.md) and exercises/.
# Read at each call, never bound at import, so a test can point it at a course of its own.
COURSE_ROOT = LESSONS_PACKAGE / "content"
COURSE_FILE = "course.toml"
LESSON_FOLDER = re.compile(r"(\d+)-([a-z0-9-]+)")
LESSON_FILE = "lesson.md"  # a lesson's text, in its folder
FIRST_SECTION = "Introduction"  # the title of the text before the first '## ' heading, when there is any


def content_dir() -> Path:
    """The folder of lesson folders, NN-slug/lesson.md."""
    return COURSE_ROOT


def exercises_dir() -> Path:
    """The folder of exercise folders, exercises/<id>/."""
    return COURSE_ROOT / "exercises"


COUNT_WORDS = (
    "No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen",
)  # fmt: skip
TENS = ("", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety")


def count_in_words(count: int) -> str:
    """A count as a sentence starts it: "No", "Eleven", "Twenty-one"; from 100 on, digits."""
    if count < len(COUNT_WORDS):
        return COUNT_WORDS[count]
    if count >= 100:
        return str(count)
    tens, ones = divmod(count, 10)
    return TENS[tens] + (f"-{COUNT_WORDS[ones].lower()}" if ones else "")


COURSE_TEXT_KEYS = ("title", "prerequisites", "introduction")


class CourseText(Struct, frozen=True):
    """What the course says of itself (course.toml): its title, what a learner needs, and one opening sentence."""

    title: str
    prerequisites: str
    introduction: str  # "{lessons} on …": {lessons} becomes the count in words, "Four lessons"
    problems: tuple[tuple[int, str], ...] = ()  # (line, message); the loader reports them, the outline shows what it can

    def opening(self, lesson_count: int) -> str:
        """The introduction with the number of lessons filled in."""
        try:
            return self.introduction.format(lessons=f"{count_in_words(lesson_count)} lesson{'' if lesson_count == 1 else 's'}")
        except (KeyError, IndexError, ValueError):  # reported by read_course_text; shown as written meanwhile
            return self.introduction


def read_course_text(root: Path | None = None) -> CourseText:
    """course.toml of the course folder; never raises (the outline must open), ``problems`` says what is wrong."""
    path = (root or COURSE_ROOT) / COURSE_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        return CourseText("", "", "", ((0, f"cannot read {COURSE_FILE}: {getattr(error, 'strerror', None) or error}"),))
    except tomllib.TOMLDecodeError as error:
        return CourseText("", "", "", ((1, f"invalid TOML: {error}"),))
    problems = [(1, f"{COURSE_FILE} needs {key!r}, a string") for key in COURSE_TEXT_KEYS if not isinstance(data.get(key), str)]
    problems += [(1, f"{COURSE_FILE}: unknown key {key!r}; known: {', '.join(COURSE_TEXT_KEYS)}") for key in data if key not in COURSE_TEXT_KEYS]
    title, prerequisites, introduction = (str(data.get(key, "")) for key in COURSE_TEXT_KEYS)
    try:
        introduction.format(lessons="")
    except (KeyError, IndexError, ValueError) as error:
        problems.append((1, f"{COURSE_FILE}: the introduction may use {{lessons}} and no other field ({error!r})"))
    return CourseText(title, prerequisites, introduction, tuple(problems))


class LessonFormatError(Exception):
    """The file is not a lesson at all (its front matter is missing or never closed)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


class FrontMatter(Struct, frozen=True):
    toml: str  # the text between the '+++' lines
    body_start: int  # index of the first line after the closing '+++'


def front_matter(lines: Sequence[str]) -> FrontMatter:
    """The front matter of a lesson's lines; LessonFormatError when there is none."""
    if not lines or lines[0].strip() != "+++":
        raise LessonFormatError(1, "a lesson starts with TOML front matter between '+++' lines")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "+++"), None)
    if end is None:
        raise LessonFormatError(1, "the front matter is never closed with '+++'")
    return FrontMatter("\n".join(lines[1:end]), end + 1)


class Heading(Struct, frozen=True):
    line: int  # 1-based, as problems are reported
    title: str  # its $…$ in Unicode: a title is shown as plain text everywhere (outline, header, palette, lessons show)


INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$]+?)\$")


def heading_title(raw: str) -> str:
    """A section heading as the learner reads it: inline math in Unicode, as in the prose (broken math stays as written)."""
    if "$" not in raw:
        return raw
    from attnpos.lessons.course.mathtext import MathError, to_unicode  # brings pylatexenc: only for a title with math

    def render(match: re.Match) -> str:
        try:
            return to_unicode(match.group(1))
        except MathError:
            return match.group(0)

    return INLINE_MATH.sub(render, raw)


class Fence(Struct, frozen=True):
    line: int
    info: str  # what follows the backticks: "python run", "{grid}", …
    body: str

    @property
    def directive(self) -> str | None:
        """The directive's name for a ``{name}`` fence, else None (a code block)."""
        match = re.fullmatch(r"\{(\w+)\}", self.info)
        return match.group(1) if match else None


class DisplayMath(Struct, frozen=True):
    line: int
    latex: str


class TextLine(Struct, frozen=True):
    line: int
    raw: str  # blank lines too: they end paragraphs


class Unclosed(Struct, frozen=True):
    """A fence or $$ block that is never closed; the scan ends there."""

    line: int
    message: str


Piece = Heading | Fence | DisplayMath | TextLine | Unclosed


def scan(lines: Sequence[str], start: int) -> Iterator[Piece]:
    """The pieces of a lesson's body, from line index ``start`` (after the front matter) to the end."""
    i = start
    while i < len(lines):
        line_no, raw = i + 1, lines[i]
        stripped = raw.strip()
        if raw.startswith("## "):
            yield Heading(line_no, heading_title(raw[3:].strip()))
        elif stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
            info = stripped[len(fence) :].strip()
            close = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == fence), None)
            if close is None:
                yield Unclosed(line_no, f"code fence {info or fence!r} is never closed")
                return
            yield Fence(line_no, info, "\n".join(lines[i + 1 : close]))
            i = close
        elif stripped == "$$":
            close = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "$$"), None)
            if close is None:
                yield Unclosed(line_no, "display math opened with $$ is never closed")
                return
            yield DisplayMath(line_no, "\n".join(lines[i + 1 : close]).strip())
            i = close
        else:
            yield TextLine(line_no, raw)
        i += 1


def lesson_files(folder: Path | None = None) -> Iterator[tuple[Path, re.Match[str] | None]]:
    """Every lesson folder's lesson.md in order, with the folder's NN-slug name matched (None: misnamed)."""
    for path in sorted((folder or content_dir()).glob(f"*/{LESSON_FILE}")):
        yield path, LESSON_FOLDER.fullmatch(path.parent.name)
