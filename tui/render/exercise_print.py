"""An exercise on a terminal or in a notebook: finding it by id, its verdict and hints printed with Rich, a check recorded in progress.

Shared by the command line and the notebook magic, so both say the same things the same way.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from attnpos.lessons.checker import Verdict, fenced, printable
from attnpos.lessons.course.model import CITED_HINT, Course, Exercise
from attnpos.lessons.course.progress import Progress
from attnpos.tui.render.usage import UsageError

if TYPE_CHECKING:  # Rich is imported where something is drawn: `check --json` never needs it
    from rich.console import Console


def shown_path(path: Path) -> str:
    """A path printable on any terminal, on one line, even when its name is not valid UTF-8 or holds control characters.

    A newline in a file name (``"x\\n✓ passed.py"``) is escaped too: a name is never learner text of many lines.
    """
    return printable(os.fsencode(path).decode("utf-8", "backslashreplace")).replace("\n", "\\n").replace("\t", "\\t")


def find_exercise(course: Course, exercise_id: str) -> Exercise:
    try:
        return course.exercises[exercise_id]
    except KeyError:
        hint = "; the exercise id comes first, then the file" if exercise_id.endswith(".py") else ""
        raise UsageError(f"unknown exercise {exercise_id!r}; known: {', '.join(course.exercises)}{hint}") from None


def print_verdict(console: Console, verdict: Verdict, path: Path) -> None:
    from rich.markup import escape

    mark = f"[bold {'green' if verdict.passed else 'red'}]{verdict.heading}[/]"
    console.print(f"{mark}  {escape(verdict.exercise)} · {escape(shown_path(path))}", soft_wrap=True)
    console.print(escape(verdict.message), soft_wrap=False)
    # Learner text (an error's message, a line of the script, what it printed) only ever behind the fence bar,
    # so that no line of it can pass for a verdict of the checker's.
    if verdict.details.get("error"):
        where = f"on line {verdict.line}" if verdict.line else "the error"
        console.print(f"[red]{escape(where)}:[/]")
        print_fenced(console, str(verdict.details["error"]), "red")
        if verdict.details.get("source_line"):
            print_fenced(console, str(verdict.details["source_line"]).strip(), "dim")
    if not verdict.passed and CITED_HINT.search(verdict.message):
        console.print(f"[dim]hints, from a nudge up: attnpos hint {escape(verdict.exercise)}[/]")
    if verdict.output.strip():
        lines = verdict.output.rstrip("\n").splitlines()
        console.print("[dim]your script printed:[/]")
        print_fenced(console, "\n".join(lines[:20]), "dim")
        if len(lines) > 20:
            console.print(f"[dim]  … {len(lines) - 20} more lines[/]")


def print_fenced(console: Console, text: str, style: str) -> None:
    """Learner text, each line behind the fence bar, wrapped here so that a wrapped piece has its bar too."""
    from rich.text import Text

    margin = fenced("")
    for line in fenced(text).split("\n"):
        body = Text(line[len(margin) :], style=style)
        for piece in body.wrap(console, max(console.width - len(margin), 20), overflow="fold"):
            console.print(Text(margin, style=style) + piece, soft_wrap=True, highlight=False)


def record(verdict: Verdict, source: str, data_dir: Path | None, console: Console | None, then_why: bool = True, why_command: str = "attnpos why") -> None:
    """A learner's own check counts in their progress too, as a check in the app does (with the code that passed).

    ``then_why``: say how to answer the why question after a pass (`watch` without an id asks it itself),
    with ``why_command`` (the notebook's is its magic).
    """
    from rich.markup import escape

    progress = Progress.load(data_dir, lasting=False)
    state = progress.record_check(verdict.exercise, verdict.passed, source)
    if console is not None:
        for notice in progress.notices:
            console.print(f"[yellow]{escape(notice)}[/]")
        if verdict.passed and not state.why_correct and then_why:
            console.print(f"[bold]One question completes it:[/] {why_command} {verdict.exercise} (or in the app: attnpos open {verdict.exercise})")


def print_why_question(console: Console, exercise: Exercise) -> None:
    """The question that completes an exercise, with its choices lettered as every route takes them."""
    from rich.markup import escape

    console.print(f"[bold]{escape(exercise.why.question)}[/]")
    for index, choice in enumerate(exercise.why.choices):
        console.print(f"  {chr(97 + index)}) {escape(choice)}")


def why_letters(exercise: Exercise) -> str:
    return f"a-{chr(96 + len(exercise.why.choices))}"


def answer_why_question(console: Console, progress: Progress, exercise: Exercise, letter: str) -> bool:
    """Record ``letter`` as the answer to the why question (the first answer is kept for good) and explain it; whether it was right.

    The shell's `attnpos why` and `watch` and the notebook's `%attnpos why` all answer here, through
    Progress.answer_why as the app does. A letter that is not a choice is a UsageError.
    """
    from rich.markup import escape

    choices = exercise.why.choices
    if len(letter) != 1 or not 0 <= ord(letter) - 97 < len(choices):
        raise UsageError(f"{letter!r} is not one of the choices {why_letters(exercise)}")
    choice = ord(letter) - 97
    correct = choice == exercise.why.answer
    progress.answer_why(exercise.id, choice, correct)  # saved as it is made
    for notice in progress.notices:
        console.print(f"[yellow]{escape(notice)}[/]")
    explanation = exercise.why.explanations[choice]
    if not correct:
        console.print(f"[bold red]Not quite.[/] {escape(explanation)}")
    elif explanation.startswith("Right"):  # the explanation says it already (the app shows it after its ✓)
        console.print(f"[bold green]✓[/] {escape(explanation)}")
    else:
        console.print(f"[bold green]✓ Right.[/] {escape(explanation)}")
    if correct:
        console.print(f"Exercise done: {escape(exercise.title)}.")
    return correct


def print_hint(course: Course, exercise_id: str, number: int | None, data_dir: Path | None = None) -> int:
    """The next hint, or hint ``number`` with every weaker one not shown yet (hints count from the nudge up)."""
    from rich.console import Console
    from rich.markup import escape

    exercise = find_exercise(course, exercise_id)
    total = len(exercise.hints)
    if number is not None and not 1 <= number <= total:
        raise UsageError(f"{exercise.id} has hints 1 to {total}")
    progress = Progress.load(data_dir, lasting=False)  # a hint read here counts as one taken in the app
    state = progress.exercise(exercise.id)
    last = state.next_hint(total) if number is None else number
    first = min(state.hints_used + 1, last)
    progress.record_hint(exercise.id, last)  # saved as it is recorded
    console = Console(highlight=False)
    for notice in progress.notices:
        console.print(f"[yellow]{escape(notice)}[/]")
    for shown in range(first, last + 1):
        console.print(f"[bold]Hint {shown} of {total}[/] · {escape(exercise.title)}")
        console.print(escape(exercise.hints[shown - 1]))
    if last < total:
        console.print(f"[dim]a stronger one: attnpos hint {exercise.id}[/]")
    return 0
