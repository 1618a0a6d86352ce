"""`attnpos check / exercise / watch / hint / exercises`: the checker on the command line (grading: grading_commands)."""

from __future__ import annotations

import json
import os
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from attnpos.lessons.checking import (
    CancelToken,
    ConfinementUnavailable,
    Limits,
    Sandbox,
    ScriptRefused,
    Verdict,
    check_file,
    fenced,
    printable,
)
from attnpos.lessons.checking.judging import check_in_parallel
from attnpos.lessons.checking.sandbox import read_script
from attnpos.lessons.model import CITED_HINT, Course, Exercise
from attnpos.lessons.progress import Progress
from attnpos.tui.cli.early_sandbox import CHECK_WORKERS, EarlySandbox
from attnpos.tui.cli.usage import UsageError

if TYPE_CHECKING:  # Rich is imported where something is drawn: `check --json` never needs it
    from rich.console import Console


def shown_path(path: Path) -> str:
    """A path printable on any terminal, on one line, even when its name is not valid UTF-8 or holds control characters.

    A newline in a file name (``"x\\n✓ passed.py"``) is escaped too: a name is never learner text of many lines.
    """
    return printable(os.fsencode(path).decode("utf-8", "backslashreplace")).replace("\n", "\\n").replace("\t", "\\t")


def open_sandbox(max_workers: int, strict: bool | None) -> Sandbox:
    """A started sandbox; strict mode's refusal becomes a one-line usage error (exit 2)."""
    sandbox = Sandbox(max_workers=max_workers, strict=strict)
    try:
        sandbox.start()
    except ConfinementUnavailable as reason:
        raise UsageError(str(reason)) from None
    return sandbox


def find_exercise(course: Course, exercise_id: str) -> Exercise:
    try:
        return course.exercises[exercise_id]
    except KeyError:
        hint = "; the exercise id comes first, then the file" if exercise_id.endswith(".py") else ""
        raise UsageError(f"unknown exercise {exercise_id!r}; known: {', '.join(course.exercises)}{hint}") from None


def readable_file(path: Path) -> str:
    """The answer file's text, read as the checker reads it (never through a symbolic link); else a one-line UsageError."""
    if not path.exists() and not path.is_symlink():
        raise UsageError(f"no such file: {shown_path(path)}")
    if path.is_dir():
        raise UsageError(f"not a file: {shown_path(path)}")
    try:
        return read_script(path).decode("utf-8")
    except ScriptRefused as refusal:
        raise UsageError(printable(str(refusal))) from None
    except OSError as error:
        raise UsageError(f"cannot read {shown_path(path)}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise UsageError(f"{shown_path(path)} is not UTF-8 text (byte {error.start}); save it as UTF-8") from None


def collect_files(paths: list[Path]) -> list[Path]:
    """Every file named, and every .py file directly inside each folder named."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            # A link is listed too (not followed): it gets a row of its own saying so.
            found = sorted(p for p in path.iterdir() if p.suffix == ".py" and (p.is_symlink() or p.is_file()))
            if not found:
                raise UsageError(f"no .py files in {shown_path(path)}")
            files.extend(found)  # each judged on its own: one unreadable file must not stop a class's grading
        else:
            if not path.exists() and not path.is_symlink():
                raise UsageError(f"no such file: {shown_path(path)}")
            files.append(path)  # a link, or a file that cannot be read, gets a row saying so
    return files


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
        body = Text(line[len(margin):], style=style)
        for piece in body.wrap(console, max(console.width - len(margin), 20), overflow="fold"):
            console.print(Text(margin, style=style) + piece, soft_wrap=True, highlight=False)


def record(verdict: Verdict, source: str, data_dir: Path | None, console: Console | None, then_why: bool = True) -> None:
    """A learner's own check counts in their progress too, as a check in the app does (with the code that passed).

    ``then_why``: say how to answer the why question after a pass (`watch` without an id asks it itself).
    """
    from rich.markup import escape

    progress = Progress.load(data_dir, lasting=False)
    state = progress.record_check(verdict.exercise, verdict.passed, source)
    if console is not None:
        for notice in progress.notices:
            console.print(f"[yellow]{escape(notice)}[/]")
        if verdict.passed and not state.why_correct and then_why:
            console.print(f"[bold]One question completes it:[/] attnpos why {verdict.exercise} (or in the app: attnpos open {verdict.exercise})")


def check_interruptibly(exercise: Exercise, file: Path, sandbox: Sandbox, limits: Limits) -> Verdict:
    """:func:`check_file` in a worker thread, so that Ctrl+C stops it at once whichever thread receives SIGINT."""
    cancel = CancelToken()
    return check_in_parallel([partial(check_file, exercise, file, sandbox, limits, cancel)], 1, cancel)[0]


def run_check(
    course: Course, exercise_id: str, file: Path, as_json: bool, limits: Limits, data_dir: Path | None = None,
    strict: bool | None = None, early: EarlySandbox | None = None,
) -> int:
    """Check one file; ``early``: a sandbox already starting (the command line's), else one is started here."""
    exercise = find_exercise(course, exercise_id)
    source = readable_file(file)  # what the app shows as the code that passed
    try:
        if early is not None:  # the caller releases it
            verdict = check_interruptibly(exercise, file, early.ready(), limits)
        else:
            with open_sandbox(CHECK_WORKERS, strict) as sandbox:
                verdict = check_interruptibly(exercise, file, sandbox, limits)
    except (ScriptRefused, OSError, UnicodeDecodeError):  # changed since it was read just now
        raise UsageError(f"{shown_path(file)} changed while it was being checked; check it again") from None
    if as_json:
        print(json.dumps(verdict.as_json(shown_path(file))))
        record(verdict, source, data_dir, None)
    else:
        from rich.console import Console

        console = Console(highlight=False)
        print_verdict(console, verdict, file)
        record(verdict, source, data_dir, console)
    return 0 if verdict.passed else 1


def write_starter(course: Course, exercise_id: str, folder: Path) -> int:
    exercise = find_exercise(course, exercise_id)
    target = folder / f"{exercise.id}.py"
    write_starter_file(exercise, target)
    print(f"wrote {shown_path(target)}: fill in the # TODO lines, then run")
    print(f"  attnpos check {exercise.id} {shown_path(target)}    (or: attnpos watch {exercise.id} {shown_path(target)})")
    return 0


def write_starter_file(exercise: Exercise, target: Path) -> None:
    """The starter at ``target``, never over a file that is there; its folder is made if missing."""
    folder = target.parent
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{shown_path(folder)} is not a folder; give --dir a folder to write {target.name} in")
    if target.exists():
        raise UsageError(f"{shown_path(target)} already exists; not overwriting your work")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(target, "x", encoding="utf-8") as handle:  # "x": a file made meanwhile is not overwritten either
            handle.write(exercise.starter)
    except OSError as error:
        raise UsageError(f"cannot write {shown_path(target)}: {error.strerror or error}") from None


def watch(
    course: Course, exercise_id: str, file: Path, interval: float, limits: Limits, data_dir: Path | None = None,
    strict: bool | None = None, early: EarlySandbox | None = None,
) -> int:
    """Re-check whenever the file changes, until ctrl+c (``watch_file``).

    One sandbox serves the session, so every check after the first is warm: its
    server is up and the checker imported. ``early``: one already starting.
    """
    from rich.console import Console

    exercise = find_exercise(course, exercise_id)
    readable_file(file)
    console = Console(highlight=False)
    sandbox = early.ready() if early is not None else open_sandbox(CHECK_WORKERS, strict)
    try:
        watch_file(console, exercise, file, sandbox, interval, limits, data_dir)
    except KeyboardInterrupt:
        return 0
    finally:
        if early is None:  # else the caller releases it
            sandbox.close()
    return 0


def watch_file(
    console: Console, exercise: Exercise, file: Path, sandbox: Sandbox, interval: float, limits: Limits,
    data_dir: Path | None, until_passed: bool = False,
) -> None:
    """Check ``file`` now and whenever it changes; polling works where file events do not (network folders).

    Returns after a pass when ``until_passed``; otherwise runs until interrupted.
    """
    from rich.markup import escape

    seen: tuple[int, int] | None = None
    gone = False
    while True:
        stamp: tuple[int, int] | None
        try:
            info = file.stat()
            stamp = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = None
        if stamp is None and not gone:
            gone = True
            console.print(f"[yellow]{escape(shown_path(file))} is gone; waiting for it to come back (ctrl+c stops)[/]")
        if stamp is not None and stamp != seen:
            gone = False
            seen = stamp
            console.rule(time.strftime("%H:%M:%S"))
            try:
                source = readable_file(file)
                verdict = check_interruptibly(exercise, file, sandbox, limits)
            except (UsageError, ScriptRefused, OSError, UnicodeDecodeError) as problem:
                console.print(f"[red]{escape(printable(str(problem)))}[/]")
                console.print("[dim]watching for changes; ctrl+c stops[/]")
                time.sleep(interval)
                continue
            print_verdict(console, verdict, file)
            record(verdict, source, data_dir, console, then_why=not until_passed)
            if verdict.passed and until_passed:
                return
            console.print("[dim]watching for changes; ctrl+c stops[/]")
        time.sleep(interval)


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
