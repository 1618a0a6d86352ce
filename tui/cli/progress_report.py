"""`attnpos progress` and `attnpos reset`: the learner's state from the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from msgspec.structs import asdict
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from attnpos.lessons.course.outline import OutlineLesson, read_outline
from attnpos.lessons.course.progress import Progress, course_order, exercise_status, export_progress, lesson_status, next_exercise
from attnpos.lessons.course.scanner import read_course_text
from attnpos.tui.render.usage import UsageError


def progress_summary(progress: Progress) -> dict:
    outline = read_outline()
    lessons = []
    for lesson in outline:
        right_first, answered = progress.first_answers(lesson.quizzes)
        lessons.append(
            {
                "lesson": lesson.number,
                "title": lesson.title,
                "status": lesson_status(lesson, progress),
                "sections_read": len(progress.visited(lesson.number) & set(range(len(lesson.sections)))),
                "sections": len(lesson.sections),
                "exercises": [_exercise_summary(e.id, progress) for e in lesson.exercises],
                # A question's first answer is what counts: answering again after reading the explanation is easy.
                "questions": {"total": len(lesson.quizzes), "answered": answered, "right_first_time": right_first},
            }
        )
    return {
        "data_file": str(progress.path),
        "data_file_exists": progress.path.is_file(),
        "position": _position(progress, outline),
        "lessons": lessons,
    }


def _position(progress: Progress, outline: list[OutlineLesson]) -> dict | None:
    """Where `c` continues, counted from 1 as the app shows it."""
    if progress.position is None:
        return None
    lesson, section = progress.position
    titles = next((entry.sections for entry in outline if entry.number == lesson), ())
    return {
        "lesson": lesson,
        "section": section + 1,
        "section_title": titles[section] if section < len(titles) else None,
        "exercise": progress.open_exercise,
    }


def _exercise_summary(exercise_id: str, progress: Progress) -> dict:
    """What the learner did in an exercise; the draft itself stays out of reports."""
    exercise = progress.exercise(exercise_id)
    state = asdict(exercise)
    state["has_draft"] = state.pop("draft") is not None
    return {"id": exercise_id, "status": exercise_status(exercise_id, progress), "left": exercise.left, **state}


def _exercise_cell(exercise: dict) -> str:
    left = f" ({' and '.join(exercise['left'])} left)" if exercise["status"] == "in progress" else ""
    return f"{exercise['id']} {exercise['status']}{left}"


def print_progress(data_dir: Path | None, as_json: bool, export: Path | None = None) -> int:
    progress = Progress.load(data_dir, read_only=True)  # a report creates nothing on disk
    for notice in progress.notices:
        print(f"attnpos: {notice}", file=sys.stderr)
    if export is not None:
        return write_export(progress, export)
    summary = progress_summary(progress)
    if as_json:
        print(json.dumps(summary, indent=1))
        return 0
    table = Table(title=f"{read_course_text().title}: your progress", box=None)
    for column in ("lesson", "status", "read", "questions right first time", "exercises"):
        table.add_column(column)
    for lesson in summary["lessons"]:
        exercises = ", ".join(_exercise_cell(e) for e in lesson["exercises"]) or "-"
        questions = lesson["questions"]
        first = f"{questions['right_first_time']}/{questions['total']}" if questions["total"] else "-"
        table.add_row(f"{lesson['lesson']} {lesson['title']}", lesson["status"], f"{lesson['sections_read']}/{lesson['sections']}", first, exercises)
    Console().print(table)
    if summary["data_file_exists"]:
        print(f"kept in {summary['data_file']}")
    elif not progress.notices:  # a data folder that cannot be has been explained above
        print(f"nothing saved yet; progress will be kept in {summary['data_file']}")
    print_summary_if_complete(Console(highlight=False), progress)
    return 0


def course_summary(progress: Progress) -> list[str] | None:
    """The lines that close the course once every exercise is done; None before."""
    outline = read_outline()
    order = course_order(outline)
    if next_exercise(order, progress) is not None:
        return None
    states = [progress.exercise(exercise_id) for exercise_id in order]
    right_first, answered = progress.first_answers([q for lesson in outline for q in lesson.quizzes])
    questions = sum(len(lesson.quizzes) for lesson in outline)
    sections = sum(len(lesson.sections) for lesson in outline)
    read = sum(len(progress.visited(lesson.number) & set(range(len(lesson.sections)))) for lesson in outline)
    return [
        f"Course complete: all {len(order)} exercises done, each with its why question.",
        f"  {sum(s.attempts for s in states)} checks, {sum(s.hints_used for s in states)} hints, "
        f"{sum(s.solution_seen for s in states)} reference solutions looked at",
        f"  lesson questions: {right_first} of {questions} right at the first answer ({answered} answered)",
        f"  sections read in the app: {read} of {sections}",
        "Next: the positional encodings the course previews, in their papers (Vaswani et al. 2017; Su et al., RoFormer; Press et al., ALiBi).",
    ]


def print_summary_if_complete(console: Console, progress: Progress) -> bool:
    lines = course_summary(progress)
    if lines is None:
        return False
    console.print(f"[bold green]{escape(lines[0])}[/]")
    for line in lines[1:]:
        console.print(escape(line))
    return True


def write_export(progress: Progress, target: Path) -> int:
    """Write what an instructor's `grade-class` reads beside the answer files: exercises and first answers, no code."""
    outline = read_outline()
    exercise_ids = [e.id for lesson in outline for e in lesson.exercises]
    quiz_ids = [quiz for lesson in outline for quiz in lesson.quizzes]
    text = json.dumps(export_progress(progress, exercise_ids, quiz_ids), indent=1, sort_keys=True) + "\n"
    if target.is_dir():
        raise UsageError(f"{target} is a folder; name the file to write, e.g. {target / 'progress-export.json'}")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from None
    print(f"wrote {target}: hand it in beside your answer files")
    return 0


CONTROLLING_TERMINAL = "/dev/tty"  # the terminal a command was started from, whatever its standard input


def ask(question: str) -> str | None:
    """The learner's answer, typed at their terminal; None when there is no terminal to ask on.

    Standard input first; when it is a pipe (a wrapper script, `uv run`, an IDE's runner) the
    controlling terminal itself, as git and ssh ask for passwords. End of input answers no.
    """
    try:
        if sys.stdin.isatty():
            return input(question)
        # Two handles: a terminal cannot seek, so Python will not open one text file on it for both.
        with open(CONTROLLING_TERMINAL, encoding="utf-8") as keyboard, open(CONTROLLING_TERMINAL, "w", encoding="utf-8") as screen:
            screen.write(question)
            screen.flush()
            return keyboard.readline()
    except OSError:
        return None
    except (EOFError, KeyboardInterrupt):
        print()
        return ""


def reset_progress(data_dir: Path | None, exercise_id: str | None, yes: bool) -> int:
    progress = Progress.load(data_dir, lasting=False)
    known = [e.id for lesson in read_outline() for e in lesson.exercises]
    if exercise_id is not None and exercise_id not in known:
        raise UsageError(f"unknown exercise {exercise_id!r}; known: {', '.join(known)}")
    what = f"your draft and results for {exercise_id}" if exercise_id else "all your progress, drafts included"
    if not yes:
        answer = ask(f"Forget {what}? [y/N] ")
        if answer is None:
            raise UsageError(f"this would forget {what}; there is no terminal to ask on, so add --yes to confirm")
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing changed")
            return 1
    if not progress.reset(exercise_id):
        raise UsageError(" ".join(progress.notices) or "could not save")
    print(f"forgot {what}")
    return 0
