"""`attnpos new lesson` and `attnpos new exercise`: a writer's skeleton, written into the course folder.

A new lesson is the next number's folder with a lesson.md whose prose is
placeholders and an empty list of figures; a new exercise is a copy of a
neighbour's folder (its starter, solution, mistakes and right answers, checked
by the neighbour's contract until it has one of its own) placed in a lesson.
Either way the course stays valid: `attnpos lessons --check` passes and
lists each placeholder as a note naming its file and line (`placeholders`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import unicodedata
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

from attnpos.lessons.course.figures import FIGURES_FILE
from attnpos.lessons.course.loader import Problem
from attnpos.lessons.course.model import Course
from attnpos.lessons.course.outline import read_outline
from attnpos.lessons.course.scanner import LESSON_FILE, Fence, Heading, TextLine, content_dir, exercises_dir, front_matter, lesson_files, scan

TODO = "TODO"  # a line of a lesson, or of an exercise.toml, that starts with it is a placeholder: noted, never a problem
EXERCISE_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
SLUG_LENGTH = 40  # a folder name a writer can still read in `ls`

LESSON_TEMPLATE = """+++
title = {title}
summary = "{todo}: one sentence saying what this lesson shows."
topics = "{todo}: what it covers, in a few words, for the README's table of lessons"
+++

{todo}: the opening: what this lesson shows and why it matters.

## {todo}: the first section's title

{todo}: write this section. A number it quotes is never typed: it is a figure registered in this folder's figures.py (lessons/content/FORMAT.md).

```{{quiz}}
id = "lesson-{number}-question-1"
question = "{todo}: a question the section has just answered"
choices = ["{todo}: the right answer", "{todo}: a tempting wrong one"]
answer = 0
explanations = ["{todo}: why it is right", "{todo}: why it is wrong"]
```

## {todo}: the second section's title

{todo}: write this section; every lesson asks at least two questions, each after the section that answers it.

```{{quiz}}
id = "lesson-{number}-question-2"
question = "{todo}: a question the section has just answered"
choices = ["{todo}: a tempting wrong answer", "{todo}: the right one"]
answer = 1
explanations = ["{todo}: why it is wrong", "{todo}: why it is right"]
```
"""

FIGURES_TEMPLATE = '''"""Lesson {number}'s experiments and figures (lessons/content/FORMAT.md, "A lesson's figures")."""

from __future__ import annotations

from attnpos.lessons.course.figures import Experiment, Figure

# A function of attnpos.core that returns a dataclass, under a short key:
#     Experiment("key", "what `attnpos demos` calls it", experiments.some_experiment),
EXPERIMENTS: tuple[Experiment, ...] = ()

# A value this lesson quotes as {{{{key.field}}}}, computed from an experiment (import `result` from the module above):
#     Figure("key.field", "what it means", lambda: result("key").field),
FIGURES: tuple[Figure, ...] = ()
'''


class ScaffoldError(ValueError):
    """Why nothing was written, in one line."""


def _writable_course() -> Path:
    """The course folder, when it is a checkout a writer may add to."""
    root = content_dir()
    if not root.is_dir():
        raise ScaffoldError(f"no course folder at {root}")
    if {"site-packages", "dist-packages"} & set(root.resolve().parts):
        raise ScaffoldError(f"the course at {root} is an installed copy; 'attnpos new' writes into a checkout (pip install -e .)")
    if not os.access(root, os.W_OK | os.X_OK) or not os.access(exercises_dir(), os.W_OK | os.X_OK):
        raise ScaffoldError(f"cannot write in {root}")
    return root


def slug(title: str) -> str:
    """A folder name from a title: "Position in a second head" → "position-in-a-second-head"."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", ascii_text)
    if not any(re.search("[a-z]", word) for word in words):
        raise ScaffoldError(f"the title {title!r} has no letters a to z to name its folder by")
    name = "-".join(words)
    return name if len(name) <= SLUG_LENGTH else name[:SLUG_LENGTH].rsplit("-", 1)[0]


def new_lesson(title: str) -> Path:
    """Write lesson N+1's folder (lesson.md with placeholders, an empty figures.py); returns the folder."""
    name = slug(title)
    root = _writable_course()
    numbers = [int(match.group(1)) for _, match in lesson_files(root) if match]
    number = max(numbers, default=0) + 1
    folder = root / f"{number:02d}-{name}"
    if folder.exists():  # a folder without a lesson.md: not a lesson, so its number looked free
        raise ScaffoldError(f"{folder} is in the way (it holds no {LESSON_FILE}); move it, then run this again")
    folder.mkdir()
    (folder / LESSON_FILE).write_text(LESSON_TEMPLATE.format(title=_toml_string(title.strip()), number=number, todo=TODO), encoding="utf-8")
    (folder / FIGURES_FILE).write_text(FIGURES_TEMPLATE.format(number=number), encoding="utf-8")
    return folder


def new_exercise(exercise_id: str, lesson: int, neighbour: str | None = None) -> Path:
    """Copy ``neighbour``'s folder (default: the course's last exercise) to exercises/``exercise_id``, place it in ``lesson``."""
    if not EXERCISE_ID.fullmatch(exercise_id):
        raise ScaffoldError(f"{exercise_id!r} is not an exercise id: lower-case words joined by '-', e.g. 'second-head'")
    root = _writable_course()
    target = exercises_dir() / exercise_id
    if target.exists():
        raise ScaffoldError(f"there is already an exercise {exercise_id!r} ({target})")
    outline = read_outline()
    lessons = {entry.number: entry for entry in outline}
    if lesson not in lessons:
        raise ScaffoldError(f"no lesson {lesson}; the course has lessons {', '.join(map(str, lessons)) or 'none'}")
    ids = [exercise.id for entry in outline for exercise in entry.exercises]
    source = neighbour if neighbour is not None else (ids[-1] if ids else None)
    if source is None or not (exercises_dir() / source / "exercise.toml").is_file():
        raise ScaffoldError(f"no exercise {source!r} to copy; --from takes one of: {', '.join(ids) or 'none yet'}")
    toml = _renamed(exercises_dir() / source / "exercise.toml", exercise_id, lesson)
    lesson_path = next(path for path, match in lesson_files(root) if match and int(match.group(1)) == lesson)
    shutil.copytree(exercises_dir() / source, target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "exercise.toml").write_text(toml, encoding="utf-8")
    text = lesson_path.read_text(encoding="utf-8")
    block = f'\n```{{exercise}}\nid = "{exercise_id}"\n```\n'
    lesson_path.write_text(text + ("" if text.endswith("\n") else "\n") + block, encoding="utf-8")
    return target


def _renamed(path: Path, exercise_id: str, lesson: int) -> str:
    """The neighbour's exercise.toml with a placeholder title, the new lesson and a why-question id of its own."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^title = .*$", lambda _: f"title = {_toml_string(f'{TODO}: a title for {exercise_id}')}", text, count=1)
    text = re.sub(r"(?m)^lesson = .*$", f"lesson = {lesson}", text, count=1)
    why_id = f'id = "{exercise_id}-why"'  # quiz ids are unique in the course; the copy's would repeat its neighbour's
    text, renamed = re.subn(r"(?ms)(^\[why\]\n(?:(?!^\[).)*?)^id = .*?$", lambda m: m.group(1) + why_id, text, count=1)
    if not renamed:
        text = re.sub(r"(?m)^\[why\]$", f"[why]\n{why_id}", text, count=1)
    data = tomllib.loads(text)
    if (data.get("lesson"), data.get("why", {}).get("id"), str(data.get("title")).startswith(TODO)) != (lesson, f"{exercise_id}-why", True):
        raise ScaffoldError(f"{path} is not laid out as 'attnpos new exercise' expects (title, lesson and [why] at the start of a line)")
    return text


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def placeholders(course: Course) -> list[Problem]:
    """Every line a writer has still to write: one with a TODO placeholder in a lesson's front matter, prose, headings or
    directives (not its code), or in an exercise.toml; `lessons --check` prints them as notes."""
    found = []
    for lesson in course.lessons:
        lines = lesson.path.read_text(encoding="utf-8").splitlines()
        front = front_matter(lines)
        texts = [(i + 1, line) for i, line in enumerate(lines[: front.body_start])]
        for piece in scan(lines, front.body_start):
            if isinstance(piece, (TextLine, Heading)):
                texts.append((piece.line, piece.raw if isinstance(piece, TextLine) else piece.title))
            elif isinstance(piece, Fence) and piece.directive is not None:  # a question's text, not code
                texts += [(piece.line + 1 + i, line) for i, line in enumerate(piece.body.splitlines())]
        found += [Problem(lesson.path, line, f"placeholder: {_todo(text)}") for line, text in texts if _todo(text)]
    for exercise in course.exercises.values():
        path = exercise.folder / "exercise.toml"
        found += [Problem(path, i + 1, f"placeholder: {_todo(line)}") for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if _todo(line)]
    return found


def _todo(text: str) -> str:
    """What a placeholder asks for ("write this section"), or "" when the line holds none.

    A placeholder starts a line, a heading, a comment or a quoted string: `TODO: …`, `## TODO: …`, `question = "TODO: …"`.
    """
    match = re.search(rf'(?:^\s*|^#+\s*|"){TODO}\b:?\s*([^"]*)', text)
    return (match.group(1).strip() or "write this") if match else ""
