"""The course as typed objects: what the loader builds and every front end reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from attnpos.lessons.glossary import Term

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
CITED_HINT = re.compile(rf"\b({'|'.join(ORDINALS)}|last) hint\b", re.IGNORECASE)


@dataclass(frozen=True)
class Prose:
    """Markdown with its figures filled in and its inline math already Unicode."""

    markdown: str
    line: int


@dataclass(frozen=True)
class Math:
    """A display formula, rendered to Unicode."""

    text: str
    latex: str
    line: int


@dataclass(frozen=True)
class Code:
    """A code block; runnable ones are executed against attnpos and show their output."""

    source: str
    runnable: bool
    line: int
    language: str = "python"


@dataclass(frozen=True)
class Grid:
    """An attention-grid figure, optionally beside a second one."""

    figure: str
    line: int
    compare: str | None = None
    caption: str = ""
    mark_changed: bool = False  # mark the rows of the second grid that moved
    titles: tuple[str, ...] = ()  # a short title per grid, e.g. ("cat", "dog")


@dataclass(frozen=True)
class Heatmap:
    """A heat map of any real (R, C) matrix figure (a position table, products of positions), optionally beside a second."""

    figure: str
    line: int
    compare: str | None = None
    caption: str = ""
    titles: tuple[str, ...] = ()  # a short title per map
    own_scales: bool = False  # each map coloured from its own low to its own high (default: one scale for both)


@dataclass(frozen=True)
class Quiz:
    """A multiple-choice question with an explanation for every choice."""

    id: str
    question: str
    choices: tuple[str, ...]
    answer: int
    explanations: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True)
class ExerciseRef:
    """Where in a lesson an exercise sits."""

    id: str
    line: int


@dataclass(frozen=True)
class PlaygroundLink:
    """A link that opens the playground on a sentence, in an order, with a position signal."""

    sentence: str
    order: tuple[int, ...]  # slot k shows token order[k] of the sentence
    signal: str  # one of attnpos.core.playground.SIGNALS
    line: int
    caption: str = ""  # what to look at once it is open


Block = Union[Prose, Math, Code, Grid, Heatmap, Quiz, ExerciseRef, PlaygroundLink]


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block, ...]
    line: int


@dataclass(frozen=True)
class Lesson:
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


@dataclass(frozen=True)
class Exercise:
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
    mistakes: dict[str, str] = field(default_factory=dict)  # mistakes/DIAGNOSIS__what.py -> its source

    def cited_hint(self, message: str) -> int | None:
        """The hint (from 1) a message sends the learner to ("see the third hint", "(last hint)"), if any."""
        match = CITED_HINT.search(message)
        if match is None or not self.hints:
            return None
        word = match.group(1).lower()
        number = len(self.hints) if word == "last" else ORDINALS.index(word) + 1
        return number if number <= len(self.hints) else None


@dataclass(frozen=True)
class Course:
    title: str
    lessons: tuple[Lesson, ...]
    exercises: dict[str, Exercise] = field(default_factory=dict)
    glossary: tuple[Term, ...] = ()

    def lesson(self, number: int) -> Lesson:
        for lesson in self.lessons:
            if lesson.number == number:
                return lesson
        raise KeyError(f"no lesson {number}; the course has {', '.join(str(lesson.number) for lesson in self.lessons)}")
