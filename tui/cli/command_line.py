"""The `attnpos` command line.

Heavy imports (NumPy, the checker) happen inside each command, so `attnpos
--help` and a usage error answer at once. No other interface is imported here:
the commands that open the app, a notebook export or the web server call the
:class:`Launchers` they are given (`attnpos.tui.main`, from `attnpos.tui.launchers`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from attnpos.tui.render.usage import UsageError

if TYPE_CHECKING:
    from attnpos.lessons.checker import Checker
    from attnpos.lessons.course.model import Course
    from attnpos.lessons.sandbox.launch import Spawned

OpenApp = Callable[[Path | None, tuple[int, int] | str | None, str | None], int]
"""Runs the app until it quits: (data folder, where to start, a sentence for the playground) → exit code."""


class Launchers(Struct, frozen=True):
    """The other interfaces a command opens, given by the program (the command line imports none of them)."""

    open_app: OpenApp
    export_notebooks: Callable[[Course, str, Path], int]  # (course, "all" or a lesson number, folder) → exit code
    # (host, port, sessions, data folder, allow remote, proxies, most sessions at once) → exit code
    serve: Callable[[str, int, Path | None, Path | None, bool, tuple[str, ...], int | None], int]


def _demos(args: argparse.Namespace) -> int:
    from rich.console import Console

    from attnpos.tui.cli.demos import as_json, print_demos, run_all

    results = run_all()
    if args.json:
        print(as_json(results))
    else:
        print_demos(Console(), results)
    return 0


def _load_course():
    from attnpos.lessons.course.loader import CourseError, load_course

    try:
        return load_course()
    except CourseError as error:
        raise UsageError(f"the course has {len(error.problems)} problem(s); run 'attnpos lessons --check'") from None


def _lessons(args: argparse.Namespace) -> int:
    if args.check and args.markdown:
        raise UsageError("--check and --markdown are two commands: run one, then the other")
    if args.check:
        return _check_lessons(args.exercise)
    if args.exercise:
        raise UsageError("--exercise goes with --check: attnpos lessons --check --exercise ID")
    if args.markdown:
        if args.action is not None:
            raise UsageError("--markdown prints the whole table: attnpos lessons --markdown")
        from attnpos.lessons.authoring.lesson_table import markdown_table

        print(markdown_table(), end="")
        return 0
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

    from attnpos.tui.render.lesson_print import lesson_renderable

    if number is None:
        raise UsageError("say which lesson to show: attnpos lessons show N")
    if not number.isdigit():
        raise UsageError(f"{number!r} is not a lesson number; try 'attnpos lessons' for the list")
    try:
        lesson = course.lesson(int(number))
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    Console().print(lesson_renderable(lesson, course))
    return 0


def _check_lessons(only: list[str] | None) -> int:
    """Validate the course (attnpos.lessons.authoring.validation) and report what is wrong; ``only``: these exercises' scripts."""
    from attnpos.lessons.authoring.validation import UnknownExercise, check_course

    try:
        result = check_course(only=only)
    except UnknownExercise as unknown:
        raise UsageError(str(unknown)) from None
    for problem in result.problems:
        print(problem, file=sys.stderr)
    for note in result.notes:
        print(note)
    if result.problems:
        print(f"attnpos: {result.summary}", file=sys.stderr)
        return 1
    print(result.summary)
    return 0


def _new(args: argparse.Namespace) -> int:
    """Write a lesson's or an exercise's skeleton into the checkout (attnpos.lessons.authoring.scaffold)."""
    from attnpos.lessons.authoring.lesson_table import write_readme_table
    from attnpos.lessons.authoring.scaffold import ScaffoldError, new_exercise, new_lesson

    try:
        if args.kind == "lesson":
            written, check = new_lesson(args.title), "attnpos lessons --check"
        else:
            written, check = new_exercise(args.id, args.lesson, args.neighbour), f"attnpos lessons --check --exercise {args.id}"
    except ScaffoldError as refused:
        raise UsageError(str(refused)) from None
    readme = write_readme_table()
    print(f"wrote {written}{f' and the table of lessons in {readme.name}' if readme else ''}")
    print(f"fill in each placeholder (TODO), then run '{check}': it lists them, with file and line")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    example = ""  # a correct command line, added to "arguments are required" errors

    def error(self, message: str):
        if self.example and "arguments are required" in message:
            message += f": the exercise id comes first, e.g. '{self.example}'"
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


class _InstalledVersion(argparse.Action):
    """--version: the installed attnpos's (pyproject reads it from attnpos.__version__), looked up only when asked:
    importlib.metadata costs every other command tens of milliseconds (docs/PERFORMANCE.md)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import version

        print(f"attnpos {version('attnpos')}")
        parser.exit()


def _limits(args: argparse.Namespace):
    from attnpos.lessons.checker import Limits

    if args.timeout <= 0 or args.memory_mb <= 0:
        raise UsageError("--timeout and --memory-mb must be positive")
    return Limits(timeout_s=args.timeout, memory_mb=args.memory_mb)


def _strict(args: argparse.Namespace) -> bool | None:
    """True for --strict; None leaves it to ATTNPOS_STRICT."""
    return True if args.strict else None


def _exercise_course(exercise_id: str):
    """A course holding just the exercise to check (the whole one computes every lesson's figures), or the whole one
    when there is no such exercise, so that the error lists those there are."""
    from attnpos.lessons.course.loader import load_exercise
    from attnpos.lessons.course.model import Course
    from attnpos.lessons.course.scanner import read_course_text

    exercise = load_exercise(exercise_id)
    return _load_course() if exercise is None else Course(read_course_text(), (), {exercise.id: exercise})


def _early_checker(args: argparse.Namespace) -> Checker:
    """A checker whose fork server starts now (or started first thing, for `check`: ``args.checking_server``), while
    NumPy and the judges are imported here (docs/PERFORMANCE.md); the caller closes it without waiting for the
    server to exit: its runs are over, and it exits by itself."""
    from attnpos.lessons.checker import open_checker

    return open_checker(strict=_strict(args), limits=_limits(args), server=args.checking_server)


def _check(args: argparse.Namespace) -> int:
    checker = _early_checker(args)
    try:
        from attnpos.tui.cli.exercise_commands import run_check

        return run_check(_exercise_course(args.exercise), args.exercise, args.file, args.json, checker, args.data_dir)
    finally:
        checker.close(wait=False)


def _grade(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.grading_commands import run_grade

    fmt = "json" if args.json else "csv" if args.csv else "table"
    return run_grade(_load_course(), args.exercise, args.paths, fmt, args.jobs, _limits(args))


def _grade_class(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.grading_commands import FILE_OUTPUTS, run_grade_class

    fmt = "json" if args.json else "csv" if args.csv else "table"
    outputs = {name: getattr(args, name) for name in FILE_OUTPUTS}
    return run_grade_class(
        _load_course(),
        args.submissions,
        args.single,
        fmt,
        outputs,
        args.grading,
        args.jobs,
        _limits(args),
        args.feedback,
        args.exercises,
        args.only,
        args.merge,
    )


def _gradescope_setup(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.grading_commands import gradescope_setup

    return gradescope_setup(_load_course(), args.folder, args.install, args.grading)


def _classroom_setup(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.grading_commands import classroom_setup

    return classroom_setup(_load_course(), args.folder, args.install, args.grading)


def _exercise(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.exercise_commands import write_starter

    return write_starter(_load_course(), args.exercise, args.dir)


def _watch(args: argparse.Namespace) -> int:
    if args.interval <= 0:
        raise UsageError("--interval must be positive")
    limits = _limits(args)
    if args.exercise is None:
        from attnpos.tui.cli.learner_path import walk

        return walk(_load_course(), Path("."), args.interval, limits, args.data_dir, _strict(args))
    file = args.file if args.file is not None else Path(f"{args.exercise}.py")
    checker = _early_checker(args)  # as for check: the first check need not wait for the server either
    try:
        from attnpos.tui.cli.exercise_commands import watch

        return watch(_exercise_course(args.exercise), args.exercise, file, args.interval, checker, args.data_dir)
    finally:
        checker.close(wait=False)


def _next(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.learner_path import print_next

    return print_next(_load_course(), args.dir, args.data_dir)


def _why(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.learner_path import why_question

    return why_question(_exercise_course(args.exercise), args.exercise, args.answer, args.data_dir)


def _hint(args: argparse.Namespace) -> int:
    from attnpos.tui.render.exercise_print import print_hint

    return print_hint(_load_course(), args.exercise, args.number, args.data_dir)


def _exercises(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.learner_path import list_exercises

    return list_exercises(_load_course(), args.data_dir)


def _export(args: argparse.Namespace) -> int:
    return args.launchers.export_notebooks(_load_course(), args.lessons, args.dir)


def _serve(args: argparse.Namespace) -> int:
    return args.launchers.serve(args.host, args.port, args.sessions_dir, args.data_dir, args.allow_remote, tuple(args.proxy), args.max_sessions)


def _add_limits(command: argparse.ArgumentParser) -> None:
    command.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds a run may take (default 10)")
    command.add_argument("--memory-mb", type=int, default=1024, metavar="M", help="memory a run may use (default 1024)")


def _add_strict(command: argparse.ArgumentParser) -> None:
    command.add_argument("--strict", action="store_true", help="refuse to run unless learner code is fully confined (also ATTNPOS_STRICT=1)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="attnpos",
        description="Why Attention Needs Position: a terminal course. With no command, opens the course.",
    )
    parser.add_argument("--version", action=_InstalledVersion, nargs=0, help="show program's version number and exit")
    parser.add_argument("--data-dir", type=Path, default=None, help="where progress and drafts are kept (default: $ATTNPOS_DATA_DIR or the user data folder)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demos = commands.add_parser("demos", help="print every experiment of the course with its figures")
    demos.add_argument("--json", action="store_true", help="print the figures as JSON")
    demos.set_defaults(run=_demos)

    lessons = commands.add_parser("lessons", help="list the course, print a lesson, or validate the content")
    lessons.add_argument("action", nargs="?", choices=["show"], help="show: print lesson N with Rich")
    lessons.add_argument("number", nargs="?", help="the lesson's number")
    lessons.add_argument("--check", action="store_true", help="validate every lesson and exercise; exit 1 on a problem")
    lessons.add_argument(
        "--exercise", action="append", metavar="ID", help="with --check: run only this exercise's scripts (repeatable; every lesson is still checked)"
    )
    lessons.add_argument("--markdown", action="store_true", help="print the table of lessons as Markdown (the README's)")
    lessons.set_defaults(run=_lessons)

    new = commands.add_parser("new", help="for writers: a new lesson or exercise in this checkout, ready to fill in")
    kinds = new.add_subparsers(dest="kind", metavar="KIND", required=True, parser_class=_Parser)
    new_lesson = kinds.add_parser("lesson", help="the next lesson's folder: lesson.md with placeholders, an empty figures.py")
    new_lesson.add_argument("title", help='e.g. "Position in a second head"')
    new_exercise = kinds.add_parser("exercise", help="a copy of a neighbour's exercise, placed in lesson N")
    new_exercise.add_argument("id", help="the new exercise's id, e.g. second-head")
    new_exercise.add_argument("--lesson", type=int, required=True, metavar="N", help="the lesson it belongs to")
    new_exercise.add_argument("--from", dest="neighbour", metavar="NEIGHBOUR", help="the exercise to copy, contract and all (default: the course's last)")
    new.set_defaults(run=_new)

    check = commands.add_parser("check", help="check an answer file: exit 0 passed, 1 not yet, 2 usage error")
    check.add_argument("exercise", help="the exercise id (see 'attnpos exercises')")
    check.add_argument("file", type=Path, help="your answer, a Python script")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.example = "attnpos check constant-offset answer.py"
    _add_limits(check)
    _add_strict(check)
    check.set_defaults(run=_check)

    grade = commands.add_parser("grade", help="check many answer files in parallel (a folder means every .py in it), always in strict mode")
    grade.add_argument("exercise")
    grade.add_argument("paths", type=Path, nargs="+", metavar="PATH")
    output = grade.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the results as JSON")
    output.add_argument("--csv", action="store_true", help="print the results as CSV")
    grade.add_argument("--jobs", type=int, default=2, metavar="N", help="answers checked at once (default 2)")
    _add_limits(grade)
    grade.set_defaults(run=_grade)

    grade_class = commands.add_parser("grade-class", help="grade every student's every exercise (a folder or .zip per student) and report on the class")
    grade_class.add_argument(
        "submissions", type=Path, metavar="SUBMISSIONS", help="a folder holding a folder or .zip per student (with --single: one student's)"
    )
    grade_class.add_argument("--single", action="store_true", help="SUBMISSIONS is one student's folder or .zip")
    output = grade_class.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the class report as JSON")
    output.add_argument("--csv", action="store_true", help="print a row per student and exercise as CSV")
    grade_class.add_argument("--gradebook", type=Path, metavar="FILE", help="write a CSV with one row per student")
    grade_class.add_argument("--markdown", type=Path, metavar="FILE", help="write a one-page class report (no names)")
    grade_class.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML, a test per student and exercise")
    grade_class.add_argument("--gradescope", type=Path, metavar="FILE", help="write Gradescope's results.json (one submission)")
    grade_class.add_argument("--classroom", type=Path, metavar="FILE", help="write GitHub Classroom's reporter results (one submission)")
    grade_class.add_argument(
        "--exercises",
        type=lambda text: [part.strip() for part in text.split(",") if part.strip()],
        metavar="ID,ID",
        help="grade only these exercises (an assignment); answers to others are listed, not graded",
    )
    grade_class.add_argument("--only", metavar="STUDENT", help="grade only this student (a regrade)")
    grade_class.add_argument("--merge", type=Path, metavar="REPORT", help="with --only: the earlier --json report the regraded row replaces its old one in")
    grade_class.add_argument("--feedback", type=Path, metavar="DIR", help="write each student's feedback, Markdown and HTML, into DIR")
    grade_class.add_argument("--grading", type=Path, metavar="FILE", help="the grading table (default: the course's grading.toml)")
    grade_class.add_argument("--jobs", type=int, default=2, metavar="N", help="answers checked at once (default 2)")
    _add_limits(grade_class)
    grade_class.set_defaults(run=_grade_class)

    gradescope = commands.add_parser("gradescope-setup", help="write setup.sh and run_autograder for a Gradescope autograder")
    gradescope.add_argument("folder", type=Path, nargs="?", default=Path("."), help="where to write them (default: here)")
    gradescope.add_argument("--install", metavar="SPEC", help="what pip installs (default: a wheel of this checkout, written beside the files)")
    gradescope.add_argument("--grading", type=Path, metavar="FILE", help="the grading table to copy (default: the course's grading.toml)")
    gradescope.set_defaults(run=_gradescope_setup)

    classroom = commands.add_parser("classroom-setup", help="write GitHub Classroom's autograding workflow, a test per exercise")
    classroom.add_argument("folder", type=Path, nargs="?", default=Path("."), help="the template repository (default: here)")
    classroom.add_argument("--install", metavar="SPEC", help="what pip installs (default: a wheel of this checkout, written beside the files)")
    classroom.add_argument("--grading", type=Path, metavar="FILE", help="the grading table to copy (default: the course's grading.toml)")
    classroom.set_defaults(run=_classroom_setup)

    exercise = commands.add_parser("exercise", help="write an exercise's starter file to work on in your own editor")
    exercise.add_argument("exercise")
    exercise.add_argument("--dir", type=Path, default=Path("."), help="where to write EXERCISE.py (default: here)")
    exercise.set_defaults(run=_exercise)

    watch = commands.add_parser("watch", help="re-check an answer file every time it is saved; with no id, walk through the exercises in order")
    watch.add_argument("exercise", nargs="?", help="the exercise id; without one, each exercise not done, in order, as ./ID.py")
    watch.add_argument("file", type=Path, nargs="?", help="your answer (default: ./ID.py)")
    watch.add_argument("--interval", type=float, default=0.5, metavar="S", help="seconds between looks at the file")
    _add_limits(watch)
    _add_strict(watch)
    watch.set_defaults(run=_watch)

    hint = commands.add_parser("hint", help="show an exercise's hints one at a time, from a nudge to nearly the answer")
    hint.add_argument("exercise")
    hint.add_argument("number", type=int, nargs="?", default=None, help="which hint; the weaker ones not shown yet come first (default: the next one)")
    hint.set_defaults(run=_hint)

    open_ = commands.add_parser("open", help="start the app at a lesson (its number) or an exercise (its id)")
    open_.add_argument("target", help="e.g. 3 or constant-offset")
    open_.set_defaults(run=_open)

    play = commands.add_parser("play", help="open the playground on a sentence of your own")
    play.add_argument("sentence", nargs="?", help='e.g. "dog bites man"')
    play.set_defaults(run=_play)

    progress = commands.add_parser("progress", help="how far you are: lessons read, exercises passed")
    progress.add_argument("--json", action="store_true", help="print it as JSON")
    progress.add_argument(
        "--export", type=Path, metavar="FILE", help="write what an instructor grades beside your answers (results, hints, first answers; no code)"
    )
    progress.set_defaults(run=_progress)

    reset = commands.add_parser("reset", help="forget your progress (all of it, or one exercise's)")
    reset.add_argument("exercise", nargs="?", help="only this exercise")
    reset.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    reset.set_defaults(run=_reset)

    export = commands.add_parser("export", help="write lessons as Jupyter notebooks (needs attnpos[jupyter])")
    export.add_argument("format", choices=["notebook"], help="notebook: one .ipynb per lesson")
    export.add_argument("lessons", metavar="N|all", help="a lesson's number, or all")
    export.add_argument("--dir", type=Path, default=Path("."), help="where to write them (default: here)")
    export.set_defaults(run=_export)

    serve = commands.add_parser("serve", help="serve the course to browsers (needs attnpos[web])")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only); any other needs --strict confinement")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--allow-remote", action="store_true", help="allow a --host other browsers can reach; learner code then runs on this machine for anyone")
    serve.add_argument("--sessions-dir", type=Path, default=None, help="where each browser session's progress is kept (default: DATA_DIR/browser-sessions)")
    serve.add_argument(
        "--max-sessions", type=int, default=None, metavar="N", help="most browser sessions at once (default 64; each about 73 MiB: docs/PERFORMANCE.md)"
    )
    serve.add_argument(
        "--proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address (nginx, several hosts): its X-Real-IP and X-Forwarded-Proto name each browser's address and scheme",
    )
    serve.set_defaults(run=_serve)

    exercises = commands.add_parser("exercises", help="list the exercises in order, with what is done")
    exercises.set_defaults(run=_exercises)

    next_ = commands.add_parser("next", help="the first exercise not done: writes its starter here (never over a file)")
    next_.add_argument("--dir", type=Path, default=Path("."), help="where to write EXERCISE.py (default: here)")
    next_.set_defaults(run=_next)

    why = commands.add_parser("why", help="answer the question that completes an exercise, once its code passes")
    why.add_argument("exercise")
    why.add_argument("answer", nargs="?", help="the letter of your choice; without it, the question is asked")
    why.set_defaults(run=_why)
    return parser


def _app(args: argparse.Namespace, start=None, play: str | None = None) -> int:
    # textual-serve (attnpos serve) runs the app on pipes with a driver of its own that speaks to a browser.
    served = os.environ.get("TEXTUAL_DRIVER", "").startswith("textual.drivers.web_driver")
    if not served and not (sys.stdin.isatty() and sys.stdout.isatty()):
        # A full-screen app on a file or a pipe would write escape codes into it and wait for keys for ever.
        raise UsageError(
            "the course opens full-screen and needs a terminal, but standard input or output is not one; "
            "for text, try 'attnpos lessons', 'attnpos lessons show 1' or 'attnpos exercises'"
        )
    return args.launchers.open_app(args.data_dir, start, play)


def _play(args: argparse.Namespace) -> int:
    from attnpos.core.playground import sentence_length_problem
    from attnpos.core.words import tokenize
    from attnpos.lessons.course.playground_state import DEFAULT_SENTENCE

    sentence = DEFAULT_SENTENCE if args.sentence is None else args.sentence
    problem = sentence_length_problem(len(tokenize(sentence)))
    if problem is not None:
        raise UsageError(problem[0].lower() + problem[1:].rstrip("."))
    return _app(args, play=sentence)


def _open(args: argparse.Namespace) -> int:
    """Start the app at a lesson (its number) or an exercise (its id)."""
    from attnpos.lessons.course.outline import read_outline

    outline = read_outline()
    if args.target.isdigit():
        numbers = [lesson.number for lesson in outline]
        if int(args.target) not in numbers:
            raise UsageError(f"no lesson {args.target}; the course has lessons {', '.join(map(str, numbers))}")
        return _app(args, start=(int(args.target), 0))
    exercises = [e.id for lesson in outline for e in lesson.exercises]
    if args.target not in exercises:
        raise UsageError(f"{args.target!r} is neither a lesson number nor an exercise ({', '.join(exercises)})")
    return _app(args, start=args.target)


def _progress(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.progress_report import print_progress

    return print_progress(args.data_dir, args.json, args.export)


def _reset(args: argparse.Namespace) -> int:
    from attnpos.tui.cli.progress_report import reset_progress

    return reset_progress(args.data_dir, args.exercise, args.yes)


def main(argv: list[str] | None, launchers: Launchers, checking_server: Spawned | None = None) -> int:
    """Run one command line (``sys.argv[1:]`` when None); the commands that open another interface call ``launchers``.

    ``checking_server``: the fork server the program started for ``check`` before it imported this
    (``attnpos.tui.main``), which that command's checker adopts."""
    arguments = sys.argv[1:] if argv is None else argv
    if arguments:
        args = build_parser().parse_args(arguments)
        if args.command is None:
            args.run = _app
    else:
        # Plain `attnpos`, the common case: open the course without building the whole parser.
        args = argparse.Namespace(data_dir=None, run=_app)
    args.launchers = launchers
    args.checking_server = checking_server
    try:
        return args.run(args)
    except UsageError as error:
        print(f"attnpos: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("attnpos: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`attnpos demos --json | head`): stop quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
