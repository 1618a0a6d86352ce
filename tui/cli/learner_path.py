"""The exercises in order from the command line, as rustlings walks its own: `next`, `watch`
without an id, `why`, the `exercises` list with what is done, and the summary at the end."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from attnpos.lessons.checker import Limits
from attnpos.lessons.course.model import Course, Exercise
from attnpos.lessons.course.outline import read_outline
from attnpos.lessons.course.progress import Progress, course_order, exercise_status, next_exercise
from attnpos.tui.cli.exercise_commands import ready, watch_file, write_starter_file
from attnpos.tui.cli.progress_report import ask, print_summary_if_complete
from attnpos.tui.render.exercise_print import answer_why_question, find_exercise, print_why_question, shown_path, why_letters
from attnpos.tui.render.usage import UsageError


def list_exercises(course: Course, data_dir: Path | None) -> int:
    """Every exercise in course order, with what is done and what is left."""
    progress = Progress.load(data_dir, read_only=True)
    for notice in progress.notices:
        print(f"attnpos: {notice}", file=sys.stderr)
    order = course_order(read_outline())
    upcoming = next_exercise(order, progress)
    table = Table(box=None)
    for column in ("exercise", "lesson", "title", "status"):
        table.add_column(column)
    for exercise_id in order:
        exercise = course.exercises[exercise_id]
        state = progress.exercise(exercise_id)
        status = exercise_status(exercise_id, progress)
        if status == "in progress":
            status += f" ({' and '.join(state.left)} left)"
        if exercise_id == upcoming:
            status += " ← next"
        table.add_row(exercise.id, str(exercise.lesson), exercise.title, status)
    Console().print(table)
    if upcoming is not None:
        print(f"attnpos next: start or continue {upcoming}")
    else:
        print_summary_if_complete(Console(highlight=False), progress)
    return 0


def print_next(course: Course, folder: Path, data_dir: Path | None) -> int:
    """Where to go on: the first exercise not done, its starter written beside you if it is not there yet."""
    progress = Progress.load(data_dir, read_only=True)
    console = Console(highlight=False)
    upcoming = next_exercise(course_order(read_outline()), progress)
    if upcoming is None:
        print_summary_if_complete(console, progress)
        return 0
    exercise = course.exercises[upcoming]
    state = progress.exercise(upcoming)
    position = course_order(read_outline()).index(upcoming) + 1
    console.print(f"[bold]Exercise {position} of {len(course.exercises)}: {escape(exercise.title)}[/] ({exercise.id}, lesson {exercise.lesson})")
    if state.passed:
        console.print(f"Your code passed; one question completes it: [bold]attnpos why {exercise.id}[/]")
        return 0
    target = folder / f"{exercise.id}.py"
    if target.exists():
        console.print(f"Your file {escape(shown_path(target))} is there: carry on with it.")
    else:
        write_starter_file(exercise, target)
        console.print(f"Wrote the starter {escape(shown_path(target))}: fill in the # TODO lines.")
    console.print(Markdown(exercise.instructions.strip()))
    console.print(
        f"[dim]check it: attnpos check {exercise.id} {escape(shown_path(target))} · "
        f"or attnpos watch (checks on every save, then goes on to the next) · a hint: attnpos hint {exercise.id}[/]"
    )
    return 0


def why_question(course: Course, exercise_id: str, answer: str | None, data_dir: Path | None) -> int:
    """The question that completes an exercise, answered from the command line (a letter, as `lessons show` prints them)."""
    exercise = find_exercise(course, exercise_id)
    progress = Progress.load(data_dir, lasting=False)
    state = progress.exercise(exercise.id)
    if not state.passed:
        raise UsageError(f"the why question of {exercise.id} comes once your code passes: attnpos check {exercise.id} FILE")
    console = Console(highlight=False)
    if answer is None:
        print_why_question(console, exercise)
        answer = ask(f"your answer ({why_letters(exercise)}): ")
        if answer is None:
            raise UsageError(f"there is no terminal to ask on; give the letter: attnpos why {exercise.id} a")
    return _answer_why(console, progress, exercise, answer.strip().lower())


def _answer_why(console: Console, progress: Progress, exercise: Exercise, letter: str, walking: bool = False) -> int:
    """Record a letter as the answer: 0 when right, 1 when not (explained); not a choice is a UsageError.

    ``walking``: within `attnpos watch`, which goes on by itself (no "attnpos next" pointer, no retry line).
    """
    if not answer_why_question(console, progress, exercise, letter):
        if not walking:
            console.print(f"[dim]try again: attnpos why {exercise.id}[/]")
        return 1
    if not walking and not print_summary_if_complete(console, progress):
        console.print("[dim]on to the next: attnpos next[/]")
    return 0


def walk(course: Course, folder: Path, interval: float, limits: Limits, data_dir: Path | None, strict: bool | None) -> int:
    """`attnpos watch` without an id: each exercise not done, in order, watched until it passes."""
    console = Console(highlight=False)
    order = course_order(read_outline())
    asked: set[str] = set()  # why questions left unanswered this run: not asked again, so the walk goes on
    from attnpos.lessons.checker import open_checker

    with open_checker(strict=strict, limits=limits) as checker:
        ready(checker)
        try:
            while True:
                progress = Progress.load(data_dir, read_only=True)
                upcoming = next((i for i in order if not progress.exercise(i).done and i not in asked), None)
                if upcoming is None:
                    break
                exercise = course.exercises[upcoming]
                if not progress.exercise(upcoming).passed:
                    target = folder / f"{exercise.id}.py"
                    if not target.exists():
                        write_starter_file(exercise, target)
                        console.print(f"wrote the starter {escape(shown_path(target))}")
                    console.rule(f"{exercise.id}: {exercise.title}")
                    console.print(Markdown(exercise.instructions.strip()))
                    console.print(f"[dim]edit {escape(shown_path(target))} and save; a hint: attnpos hint {exercise.id}[/]")
                    watch_file(console, exercise, target, checker, interval, data_dir, until_passed=True)
                asked.add(upcoming)
                progress = Progress.load(data_dir, lasting=False)
                print_why_question(console, exercise)
                while not progress.exercise(exercise.id).why_correct:
                    answer = ask(f"your answer ({why_letters(exercise)}, or enter to skip): ")
                    if answer is None or not answer.strip():
                        console.print(f"[dim]left open: attnpos why {exercise.id}[/]")
                        break
                    try:
                        _answer_why(console, progress, exercise, answer.strip().lower(), walking=True)
                    except UsageError as problem:
                        console.print(f"[red]{escape(str(problem))}[/]")
        except KeyboardInterrupt:
            return 0
    progress = Progress.load(data_dir, read_only=True)
    if not print_summary_if_complete(console, progress):
        left = [i for i in order if not progress.exercise(i).done]
        console.print(f"Every exercise's code passes; questions left: {', '.join(f'attnpos why {i}' for i in left)}")
    return 0
