"""The course as typed objects: what the loader builds and every front end reads."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NoReturn, Protocol, TypeVar, Union

from msgspec import Struct, field

from attnpos.lessons.course.glossary import Term
from attnpos.lessons.course.scanner import CourseText

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
CITED_HINT = re.compile(rf"\b({'|'.join(ORDINALS)}|last) hint\b", re.IGNORECASE)


class Prose(Struct, frozen=True):
    """Markdown with its figures filled in and its inline math already Unicode."""

    markdown: str
    line: int
    tex: str = ""  # the same Markdown with its inline math kept as $LaTeX$, for front ends that typeset it


class Math(Struct, frozen=True):
    """A display formula, rendered to Unicode."""

    text: str
    latex: str
    line: int


class Code(Struct, frozen=True):
    """A code block; runnable ones are executed against attnpos and show their output."""

    source: str
    runnable: bool
    line: int
    language: str = "python"


class Grid(Struct, frozen=True):
    """An attention-grid figure, optionally beside a second one."""

    figure: str
    line: int
    compare: str | None = None
    caption: str = ""
    mark_changed: bool = False  # mark the rows of the second grid that moved
    titles: tuple[str, ...] = ()  # a short title per grid, e.g. ("cat", "dog")


class Heatmap(Struct, frozen=True):
    """A heat map of any real (R, C) matrix figure (a position table, products of positions), optionally beside a second."""

    figure: str
    line: int
    compare: str | None = None
    caption: str = ""
    titles: tuple[str, ...] = ()  # a short title per map
    own_scales: bool = False  # each map coloured from its own low to its own high (default: one scale for both)


class Quiz(Struct, frozen=True):
    """A multiple-choice question with an explanation for every choice."""

    id: str
    question: str
    choices: tuple[str, ...]
    answer: int
    explanations: tuple[str, ...]
    line: int = 0


class ExerciseRef(Struct, frozen=True):
    """Where in a lesson an exercise sits."""

    id: str
    line: int


class PlaygroundLink(Struct, frozen=True):
    """A link that opens the playground on a sentence, in an order, with a position signal."""

    sentence: str
    order: tuple[int, ...]  # slot k shows token order[k] of the sentence
    signal: str  # one of attnpos.core.playground.SIGNALS
    line: int
    caption: str = ""  # what to look at once it is open

    @property
    def description(self) -> str:
        """'“the cat sat on the mat” · order 5 0 3 2 1 4 · signal rope': the state the link opens, as both front ends show it."""
        order = " ".join(map(str, self.order)) if list(self.order) != sorted(self.order) else "as typed"
        return f"“{self.sentence}” · order {order} · signal {self.signal}"


Block = Union[Prose, Math, Code, Grid, Heatmap, Quiz, ExerciseRef, PlaygroundLink]

Drawn = TypeVar("Drawn", covariant=True)


class BlockRenderer(Protocol[Drawn]):
    """What a front end makes of each kind of block (the reader a widget, `lessons show` Rich renderables).

    One method per kind: a new kind of block is a type error in every front end until it draws it.
    """

    def prose(self, block: Prose) -> Drawn: ...
    def math(self, block: Math) -> Drawn: ...
    def code(self, block: Code) -> Drawn: ...
    def grid(self, block: Grid) -> Drawn: ...
    def heatmap(self, block: Heatmap) -> Drawn: ...
    def quiz(self, block: Quiz) -> Drawn: ...
    def exercise(self, block: ExerciseRef) -> Drawn: ...
    def playground(self, block: PlaygroundLink) -> Drawn: ...


Result = TypeVar("Result")


def render_block(block: Block, renderer: BlockRenderer[Result]) -> Result:
    """The renderer's rendering of ``block``: the one dispatch on block kind, exhaustive (mypy checks it)."""
    match block:
        case Prose():
            return renderer.prose(block)
        case Math():
            return renderer.math(block)
        case Code():
            return renderer.code(block)
        case Grid():
            return renderer.grid(block)
        case Heatmap():
            return renderer.heatmap(block)
        case Quiz():
            return renderer.quiz(block)
        case ExerciseRef():
            return renderer.exercise(block)
        case PlaygroundLink():
            return renderer.playground(block)
    _unknown(block)


def _unknown(block: NoReturn) -> NoReturn:
    """Reached only by a kind of block missing above: mypy reports the call, and at run time it raises."""
    raise TypeError(f"no rendering for {type(block).__name__}")


class Section(Struct, frozen=True):
    title: str
    blocks: tuple[Block, ...]
    line: int


class Lesson(Struct, frozen=True):
    number: int
    slug: str
    title: str
    summary: str
    sections: tuple[Section, ...]  # the first is the introduction
    path: Path

    @property
    def exercise_ids(self) -> list[str]:
        return [b.id for s in self.sections for b in s.blocks if isinstance(b, ExerciseRef)]

    @property
    def quizzes(self) -> list[Quiz]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Quiz)]


class Exercise(Struct, frozen=True):
    id: str
    lesson: int
    title: str
    instructions: str
    hints: tuple[str, ...]
    why: Quiz
    messages: dict[str, str]  # diagnosis id, or "diagnosis/cause", -> template
    advice: dict[str, str]  # an answer's name -> what it should be, added to shape and value messages about it
    starter: str
    solution: str
    folder: Path
    contract: str  # the checker contract's name (lessons/checker/contracts): the id, unless exercise.toml names another
    mistakes: dict[str, str] = field(default_factory=dict)  # mistakes/DIAGNOSIS__what.py -> its source
    right: dict[str, str] = field(default_factory=dict)  # right/<style>.py -> its source: the answer in other styles, must pass

    def cited_hint(self, message: str) -> int | None:
        """The hint (from 1) a message sends the learner to ("see the third hint", "(last hint)"), if any."""
        match = CITED_HINT.search(message)
        if match is None or not self.hints:
            return None
        word = match.group(1).lower()
        number = len(self.hints) if word == "last" else ORDINALS.index(word) + 1
        return number if number <= len(self.hints) else None


class Course(Struct, frozen=True):
    text: CourseText  # course.toml: title, prerequisites, introduction
    lessons: tuple[Lesson, ...]
    exercises: dict[str, Exercise] = field(default_factory=dict)
    glossary: tuple[Term, ...] = ()

    @property
    def title(self) -> str:
        return self.text.title

    def lesson(self, number: int) -> Lesson:
        for lesson in self.lessons:
            if lesson.number == number:
                return lesson
        raise KeyError(f"no lesson {number}; the course has {', '.join(str(lesson.number) for lesson in self.lessons)}")
