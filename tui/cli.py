"""The `attnpos` command line.

Heavy imports (NumPy, Textual) happen inside each command, so `attnpos
--help` and a usage error answer at once.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit code 2."""


def _demos(args: argparse.Namespace) -> int:
    from rich.console import Console

    from attnpos.tui.demos import as_json, print_demos, run_all

    results = run_all()
    if args.json:
        print(as_json(results))
    else:
        print_demos(Console(), results)
    return 0


def _load_course():
    from attnpos.lessons.loader import CourseError, load_course

    try:
        return load_course()
    except CourseError as error:
        raise UsageError(f"the course has {len(error.problems)} problem(s); run 'attnpos lessons --check'") from None


def _lessons(args: argparse.Namespace) -> int:
    if args.check:
        return _check_lessons()
    course = _load_course()
    if args.action == "show":
        return _show_lesson(course, args.number)
    if args.action is not None:
        raise UsageError(f"unknown lessons action {args.action!r}; try 'attnpos lessons show 1'")
    from rich.console import Console
    from rich.table import Table

    table = Table(title=course.title, title_style="bold", box=None)
    for column in ("lesson", "title", "sections", "exercises"):
        table.add_column(column)
    for lesson in course.lessons:
        table.add_row(str(lesson.number), lesson.title, str(len(lesson.sections)), ", ".join(lesson.exercise_ids) or "-")
    Console().print(table)
    return 0


def _show_lesson(course, number: str | None) -> int:
    from rich.console import Console

    from attnpos.tui.render import lesson_renderable

    if number is None or not number.isdigit():
        raise UsageError("say which lesson to show: attnpos lessons show N")
    try:
        lesson = course.lesson(int(number))
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    Console().print(lesson_renderable(lesson, course))
    return 0


def _check_lessons() -> int:
    """Validate the course: every file parses, every runnable block runs, every solution passes."""
    from attnpos.lessons.cells import run_cell
    from attnpos.lessons.loader import CourseError, load_course

    try:
        course = load_course()
    except CourseError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"attnpos: {len(error.problems)} problem(s) in the course", file=sys.stderr)
        return 1
    failures = 0
    for lesson in course.lessons:
        for section in lesson.sections:
            for block in section.blocks:
                if getattr(block, "runnable", False):
                    result = run_cell(block.source)
                    if not result.ok:
                        failures += 1
                        print(f"{lesson.path.name}:{block.line}: the block fails: {result.error}", file=sys.stderr)
    if failures:
        print(f"attnpos: {failures} problem(s) in the course", file=sys.stderr)
        return 1
    blocks = sum(len(s.blocks) for l in course.lessons for s in l.sections)
    print(f"course ok: {len(course.lessons)} lessons, {blocks} blocks, {len(course.exercises)} exercises")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="attnpos",
        description="Why Attention Needs Position: a terminal course. With no command, opens the course.",
    )
    parser.add_argument("--data-dir", type=Path, default=None, help="where progress and drafts are kept (default: $ATTNPOS_DATA_DIR or the user data folder)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demos = commands.add_parser("demos", help="print every experiment of the course with its figures")
    demos.add_argument("--json", action="store_true", help="print the figures as JSON")
    demos.set_defaults(run=_demos)

    lessons = commands.add_parser("lessons", help="list the course, print a lesson, or validate the content")
    lessons.add_argument("action", nargs="?", choices=["show"], help="show: print lesson N with Rich")
    lessons.add_argument("number", nargs="?", help="the lesson's number")
    lessons.add_argument("--check", action="store_true", help="validate every lesson and exercise; exit 1 on a problem")
    lessons.set_defaults(run=_lessons)
    return parser


def _app(args: argparse.Namespace) -> int:
    from attnpos.tui.app import AttnposApp

    AttnposApp(data_dir=args.data_dir).run()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args.run = _app
    try:
        return args.run(args)
    except UsageError as error:
        print(f"attnpos: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
