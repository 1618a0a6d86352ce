"""Read the course from lessons/content and lessons/content/exercises into typed objects.

Every problem is reported as ``file:line: message``; the loader collects them
all, so ``attnpos lessons --check`` shows a whole batch of mistakes at once.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

from attnpos.lessons.course.model import (
    Block,
    Code,
    Course,
    Exercise,
    ExerciseRef,
    Grid,
    Heatmap,
    Lesson,
    Math,
    PlaygroundLink,
    Prose,
    Quiz,
    Section,
)
from attnpos.lessons.course.scanner import (
    COURSE_FILE,
    FIRST_SECTION,
    INLINE_MATH,
    LESSONS_PACKAGE,
    Fence,
    Heading,
    LessonFormatError,
    TextLine,
    Unclosed,
    content_dir,
    exercises_dir,
    front_matter,
    lesson_files,
    read_course_text,
    scan,
)

# The figures (NumPy, every lesson's experiments), the core and LaTeX-to-Unicode are imported where a piece of text
# needs them: `attnpos check` reads one exercise, whose messages quote no figure and whose texts may have no math.
if TYPE_CHECKING:
    from attnpos.lessons.course.glossary import Term

FIGURE_PATTERN = re.compile(r"\{\{\s*([A-Za-z0-9_.]+)\s*(?::([^}]*))?\}\}")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
DIRECTIVES = ("grid", "heatmap", "quiz", "exercise", "playground")


class Problem(Struct, frozen=True):
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        try:
            shown = self.path.relative_to(LESSONS_PACKAGE.parent)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}: {self.message}"


class CourseError(Exception):
    """The course has problems; ``problems`` lists each with its file and line."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class _Reporter:
    """Collects problems for one file."""

    def __init__(self, path: Path, problems: list[Problem]):
        self.path, self.problems = path, problems

    def __call__(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.path, line, message))


def fill_figures(text: str, report: _Reporter, line: int) -> str:
    """Replace every {{name:spec}} with the computed figure."""

    def replace(match: re.Match) -> str:
        from attnpos.lessons.course.figures import format_figure, registry

        name, spec = match.group(1), (match.group(2) or "").strip()
        if name not in registry().figures:
            report(line + text[: match.start()].count("\n"), f"unknown figure {name!r}")
            return match.group(0)
        try:
            return format_figure(name, spec)
        except (ValueError, TypeError) as error:
            report(line, f"figure {name!r} cannot be formatted with {spec!r}: {error}")
            return match.group(0)

    return FIGURE_PATTERN.sub(replace, text)


def render_inline_math(text: str, report: _Reporter, line: int) -> str:
    """Turn $…$ into Unicode, leaving code spans alone."""
    pieces, last = [], 0
    for span in CODE_SPAN.finditer(text):
        pieces.append(_math_in(text[last : span.start()], report, line + text[:last].count("\n")))
        pieces.append(span.group(0))
        last = span.end()
    pieces.append(_math_in(text[last:], report, line + text[:last].count("\n")))
    return "".join(pieces)


def _math_in(text: str, report: _Reporter, line: int) -> str:
    def replace(match: re.Match) -> str:
        from attnpos.lessons.course.mathtext import MathError, to_unicode

        try:
            return to_unicode(match.group(1))
        except MathError as error:
            report(line + text[: match.start()].count("\n"), f"broken math ${match.group(1)}$: {error}")
            return match.group(0)

    return INLINE_MATH.sub(replace, text)


def _text(value: Any, report: _Reporter, line: int) -> str:
    """A string from lesson data with figures and inline math filled in."""
    return render_inline_math(fill_figures(str(value), report, line), report, line)


def _toml(body: str, report: _Reporter, line: int) -> dict | None:
    try:
        return tomllib.loads(body)
    except tomllib.TOMLDecodeError as error:
        report(line, f"invalid TOML: {error}")
        return None


def _require(data: dict, keys: dict[str, type], report: _Reporter, line: int, what: str) -> bool:
    ok = True
    for key, kind in keys.items():
        if key not in data:
            report(line, f"{what} needs {key!r}")
            ok = False
        elif not isinstance(data[key], kind):
            report(line, f"{what}: {key!r} must be a {kind.__name__}")
            ok = False
    return ok


def parse_quiz(data: dict, report: _Reporter, line: int, what: str = "quiz") -> Quiz | None:
    if not _require(data, {"id": str, "question": str, "choices": list, "answer": int, "explanations": list}, report, line, what):
        return None
    choices, explanations = data["choices"], data["explanations"]
    if len(choices) < 2:
        report(line, f"{what} {data['id']!r} needs at least two choices")
    if len(explanations) != len(choices):
        report(line, f"{what} {data['id']!r} has {len(choices)} choices but {len(explanations)} explanations")
    if not 0 <= data["answer"] < len(choices):
        report(line, f"{what} {data['id']!r}: answer {data['answer']} is not the index of a choice (0-based)")
        return None
    return Quiz(
        id=data["id"],
        question=_text(data["question"], report, line),
        choices=tuple(_text(c, report, line) for c in choices),
        answer=data["answer"],
        explanations=tuple(_text(e, report, line) for e in explanations),
        line=line,
    )


def parse_playground(data: dict, report: _Reporter, line: int) -> PlaygroundLink | None:
    """A {playground} block: a sentence, an optional order (a permutation of its tokens) and a signal."""
    from attnpos.core.playground import SIGNALS, sentence_length_problem
    from attnpos.core.words import tokenize

    if not _require(data, {"sentence": str, "signal": str}, report, line, "playground"):
        return None
    tokens = tokenize(data["sentence"])
    problem = sentence_length_problem(len(tokens))
    if problem is not None:
        report(line, f"playground: {problem}")
        return None
    if data["signal"] not in SIGNALS:
        report(line, f"playground: unknown signal {data['signal']!r}; one of {', '.join(SIGNALS)}")
        return None
    order = data.get("order", list(range(len(tokens))))
    if not isinstance(order, list) or not all(isinstance(k, int) for k in order) or sorted(order) != list(range(len(tokens))):
        report(line, f"playground: order must list each of 0 … {len(tokens) - 1} once, one per word")
        return None
    return PlaygroundLink(" ".join(tokens), tuple(order), data["signal"], line, _text(data.get("caption", ""), report, line))


def _directive(kind: str, body: str, report: _Reporter, line: int) -> Block | None:
    data = _toml(body, report, line + 1)
    if data is None:
        return None
    if kind == "playground":
        return parse_playground(data, report, line)
    if kind == "quiz":
        return parse_quiz(data, report, line)
    if kind == "exercise":
        if _require(data, {"id": str}, report, line, "exercise"):
            return ExerciseRef(data["id"], line)
        return None
    if not _require(data, {"figure": str}, report, line, kind):
        return None
    from attnpos.lessons.course.figures import COLUMN_LABEL, figure, registry

    expected_titles = 2 if "compare" in data else 1
    if "titles" in data and (not isinstance(data["titles"], list) or len(data["titles"]) != expected_titles):
        report(line, f"{kind}: titles must be a list of {expected_titles} short title(s)")
        return None
    for key in ("figure", "compare"):
        name = data.get(key)
        if name is None:
            continue
        if name not in registry().figures:
            report(line, f"{kind}: unknown figure {name!r}")
            return None
        if not figure(name).is_matrix:
            report(line, f"{kind}: figure {name!r} is not a matrix")
            return None
    if kind == "heatmap":
        for name in (data["figure"], data.get("compare")):
            if name and any(len(label) > COLUMN_LABEL for label in figure(name).column_labels()):
                report(line, f"heatmap: figure {name!r} has a column label longer than {COLUMN_LABEL} characters")
                return None
        return Heatmap(
            figure=data["figure"],
            compare=data.get("compare"),
            caption=_text(data.get("caption", ""), report, line),
            titles=tuple(str(t) for t in data.get("titles", ())),
            own_scales=bool(data.get("own_scales", False)),
            line=line,
        )
    return Grid(
        figure=data["figure"],
        compare=data.get("compare"),
        caption=_text(data.get("caption", ""), report, line),
        mark_changed=bool(data.get("mark_changed", False)),
        titles=tuple(str(t) for t in data.get("titles", ())),
        line=line,
    )


def parse_lesson(path: Path, number: int, slug: str, problems: list[Problem]) -> Lesson | None:
    """Parse one lesson file; problems go to ``problems``."""
    from attnpos.lessons.course.mathtext import MathError, to_unicode

    report = _Reporter(path, problems)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        report(1, f"cannot read the lesson: {error}")
        return None
    try:
        front = front_matter(lines)
    except LessonFormatError as error:
        report(error.line, error.message)
        return None
    meta = _toml(front.toml, report, 2) or {}
    if not _require(meta, {"title": str, "summary": str}, report, 1, "the front matter"):
        return None
    if not isinstance(meta.get("topics", ""), str):
        report(1, "the front matter: 'topics' must be a str (what the lesson covers, for the README's table)")

    sections: list[Section] = []
    title, section_line = FIRST_SECTION, front.body_start + 1
    blocks: list[Block] = []
    paragraph: list[str] = []
    paragraph_line = 0

    def flush_paragraph() -> None:
        nonlocal paragraph
        text = "\n".join(paragraph).strip("\n")
        if text.strip():
            filled = fill_figures(text, report, paragraph_line)
            blocks.append(Prose(render_inline_math(filled, report, paragraph_line), paragraph_line, filled))
        paragraph = []

    for piece in scan(lines, front.body_start):
        if isinstance(piece, TextLine):
            if not piece.raw.strip():
                flush_paragraph()
                continue
            if not paragraph:
                paragraph_line = piece.line
            paragraph.append(piece.raw)
            continue
        flush_paragraph()
        if isinstance(piece, Heading):
            if blocks or sections:
                sections.append(Section(title, tuple(blocks), section_line))
            title, section_line, blocks = piece.title, piece.line, []
        elif isinstance(piece, Unclosed):
            report(piece.line, piece.message)
        elif isinstance(piece, Fence):
            block = _fenced_block(piece, report)
            if block is not None:
                blocks.append(block)
        else:
            latex = fill_figures(piece.latex, report, piece.line + 1)
            try:
                blocks.append(Math(to_unicode(latex), latex, piece.line))
            except MathError as error:
                report(piece.line, f"broken math: {error}")
    flush_paragraph()
    sections.append(Section(title, tuple(blocks), section_line))
    return Lesson(number, slug, meta["title"], _text(meta["summary"], report, 2), tuple(sections), path)


def _fenced_block(fence: Fence, report: _Reporter) -> Block | None:
    """A directive ({grid}, {quiz}, {exercise}) or a code block, checked."""
    if fence.directive is not None:
        if fence.directive not in DIRECTIVES:
            report(fence.line, f"unknown directive {{{fence.directive}}}; known: {', '.join(DIRECTIVES)}")
            return None
        return _directive(fence.directive, fence.body, report, fence.line)
    words = fence.info.split()
    language = words[0] if words else "text"
    runnable = words[1:] == ["run"]
    if words[1:] and not runnable:
        report(fence.line, f"unknown code block option {' '.join(words[1:])!r}; only 'run' is known")
    if runnable and language != "python":
        report(fence.line, "only python blocks can be runnable")
    return Code(fence.body, runnable, fence.line, language)


def parse_exercise(folder: Path, problems: list[Problem]) -> Exercise | None:
    """Parse lessons/content/exercises/<id>/: exercise.toml, starter.py, solution.py, mistakes/ and right/."""
    toml_path = folder / "exercise.toml"
    report = _Reporter(toml_path, problems)
    files = {}
    for name in ("exercise.toml", "starter.py", "solution.py"):
        try:
            files[name] = (folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            _Reporter(folder / name, problems)(1, f"cannot read {name}: {getattr(error, 'strerror', None) or error}")
    if len(files) < 3:
        return None
    data = _toml(files["exercise.toml"], report, 1)
    if data is None or not _require(
        data, {"title": str, "lesson": int, "instructions": str, "hints": list, "why": dict, "messages": dict, "advice": dict}, report, 1, "an exercise"
    ):
        return None
    if not data["hints"]:
        report(1, "an exercise needs at least one hint")
    if "# TODO" not in files["starter.py"]:
        _Reporter(folder / "starter.py", problems)(1, "the starter marks the learner's part with '# TODO'")
    contract = data.get("contract", folder.name)
    if not isinstance(contract, str):
        report(1, "an exercise: 'contract' must be a str, the name of a checker contract")
        return None
    why = parse_quiz({"id": f"{folder.name}-why", **data["why"]}, report, 1, "the [why] question")
    if why is None:
        return None
    return Exercise(
        id=folder.name,
        lesson=data["lesson"],
        title=data["title"],
        instructions=_text(data["instructions"], report, 1),
        hints=tuple(_text(h, report, 1) for h in data["hints"]),
        why=why,
        messages={key: str(value) for key, value in data["messages"].items()},
        advice={key: str(value) for key, value in data["advice"].items()},
        starter=files["starter.py"],
        solution=files["solution.py"],
        folder=folder,
        mistakes=_scripts(folder / "mistakes", problems),
        right=_scripts(folder / "right", problems),
        contract=contract,
    )


def _scripts(folder: Path, problems: list[Problem]) -> dict[str, str]:
    """The answers an exercise keeps as content: mistakes/ (each named by the diagnosis it must get), right/ (each must pass)."""
    found = {}
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        try:
            found[path.name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            _Reporter(path, problems)(1, f"cannot read {path.name}: {getattr(error, 'strerror', None) or error}")
    return found


def _check_course(course: Course, problems: list[Problem]) -> None:
    """Rules across files: ids unique, every placed exercise exists and sits in its own lesson."""
    quiz_ids: dict[str, Path] = {}
    placed: dict[str, int] = {}
    for lesson in course.lessons:
        report = _Reporter(lesson.path, problems)
        for quiz in lesson.quizzes:
            if quiz.id in quiz_ids:
                report(quiz.line, f"quiz id {quiz.id!r} is also used in {quiz_ids[quiz.id].name}")
            quiz_ids[quiz.id] = lesson.path
        for section in lesson.sections:
            for block in section.blocks:
                if isinstance(block, ExerciseRef):
                    exercise = course.exercises.get(block.id)
                    if exercise is None:
                        report(block.line, f"no exercise {block.id!r} in exercises/")
                    elif exercise.lesson != lesson.number:
                        report(block.line, f"exercise {block.id!r} says it belongs to lesson {exercise.lesson}")
                    placed[block.id] = lesson.number
    for exercise_id, exercise in course.exercises.items():
        if exercise_id not in placed:
            _Reporter(exercise.folder / "exercise.toml", problems)(1, f"exercise {exercise_id!r} is not placed in any lesson")


def load_exercise(exercise_id: str, exercises_folder: Path | None = None) -> Exercise | None:
    """One exercise alone, for `attnpos check` (the whole course computes every lesson's figures).

    None when there is no such folder (or it does not parse: the full course
    then says why); ``lessons --check`` validates it with the course.
    """
    folder = (exercises_folder or exercises_dir()) / exercise_id
    if exercise_id.startswith(("_", ".")) or "/" in exercise_id or not (folder / "exercise.toml").is_file():
        return None
    problems: list[Problem] = []
    exercise = parse_exercise(folder, problems)
    return None if problems else exercise


def load_course(lessons_folder: Path | None = None, exercises_folder: Path | None = None) -> Course:
    """The whole course; raises CourseError listing every problem found.

    The folders are the course folder's (attnpos.lessons.course.scanner.COURSE_ROOT) unless given. In
    the lessons folder, beside the lesson folders: ``course.toml`` (required) and ``glossary.toml``, when there is one.
    The figures quoted are those the course folder's lessons register (`figures.registry`), so a
    small course loaded from elsewhere quotes the real course's.
    """
    from attnpos.lessons.course.figures import refresh, registry
    from attnpos.lessons.course.glossary import GLOSSARY_NAME, parse_glossary

    lessons_at, exercises_at = lessons_folder or content_dir(), exercises_folder or exercises_dir()
    refresh()
    problems: list[Problem] = []
    text = read_course_text(lessons_at)
    problems += [Problem(lessons_at / COURSE_FILE, line, message) for line, message in text.problems]
    problems += [Problem(path, line, message) for path, line, message in registry().problems]
    lessons = []
    numbers: dict[int, Path] = {}
    files = list(lesson_files(lessons_at))
    if not files:
        problems.append(Problem(lessons_at, 0, "no lesson folders (NN-slug/lesson.md)"))
    for path, match in files:
        if not match:
            problems.append(Problem(path, 0, "a lesson folder is named NN-slug, e.g. 01-set-not-sequence"))
            continue
        number = int(match.group(1))
        if number in numbers:
            problems.append(Problem(path, 0, f"lesson number {number} is also used by {numbers[number].parent.name}"))
        numbers[number] = path
        lesson = parse_lesson(path, number, match.group(2), problems)
        if lesson is not None:
            lessons.append(lesson)
    exercises = {}
    for folder in sorted(p for p in exercises_at.iterdir() if p.is_dir()) if exercises_at.is_dir() else []:
        if folder.name.startswith(("_", ".")):
            continue
        exercise = parse_exercise(folder, problems)
        if exercise is not None:
            exercises[exercise.id] = exercise
    glossary: tuple[Term, ...] = ()
    glossary_path = lessons_at / GLOSSARY_NAME
    if glossary_path.is_file():
        report = _Reporter(glossary_path, problems)
        glossary = parse_glossary(glossary_path, set(numbers), report, lambda value, line: _text(value, report, line))
    course = Course(text, tuple(lessons), exercises, glossary)
    _check_course(course, problems)
    if problems:
        raise CourseError(problems)
    return course
