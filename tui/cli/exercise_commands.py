"""`attnpos check / exercise / watch / hint / exercises`: the checker on the command line (grading: grading_commands)."""

from __future__ import annotations

import importlib
import json
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from attnpos.lessons.checker import Checker, ConfinementUnavailable, ScriptRefused, printable
from attnpos.lessons.course.model import Course, Exercise
from attnpos.lessons.course.progress import default_data_dir
from attnpos.lessons.sandbox import decode_answer, read_script
from attnpos.tui.render.exercise_print import find_exercise, print_verdict, record, shown_path
from attnpos.tui.render.usage import UsageError

if TYPE_CHECKING:  # Rich is imported where something is drawn: `check --json` never needs it
    from rich.console import Console


def ready(checker: Checker) -> dict:
    """The checker's confinement, once its sandbox has started; strict mode's refusal is a one-line usage error (exit 2)."""
    try:
        return checker.confinement
    except ConfinementUnavailable as reason:
        raise UsageError(str(reason)) from None


def readable_file(path: Path) -> str:
    """The answer file's text, read as the checker reads it (never through a symbolic link); else a one-line UsageError."""
    if not path.exists() and not path.is_symlink():
        raise UsageError(f"no such file: {shown_path(path)}")
    if path.is_dir():
        raise UsageError(f"not a file: {shown_path(path)}")
    try:
        return decode_answer(read_script(path))
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


def run_check(course: Course, exercise_id: str, file: Path, as_json: bool, checker: Checker, data_dir: Path | None = None) -> int:
    """Check one file with ``checker`` (the command line's, already starting; the caller closes it)."""
    exercise = find_exercise(course, exercise_id)
    source = readable_file(file)  # what the app shows as the code that passed
    try:
        # Submitted before the sandbox is up: the runs, by the plan the last cold check kept, wait for the fork
        # server while this imports NumPy and the judges (docs/PERFORMANCE.md).
        checking = checker.submit_file(exercise, file)
    except (ScriptRefused, OSError, UnicodeDecodeError):  # changed since it was read just now
        raise UsageError(f"{shown_path(file)} changed while it was being checked; check it again") from None
    # What printing and recording the verdict imports, imported while the sandbox runs the answer, when this process
    # would only wait; not before the runs are sent, which it would delay (one interpreter lock).
    threading.Thread(target=_import_for_the_verdict, args=(as_json,), daemon=True).start()
    ready(checker)
    verdict = checker.result(checking)
    if as_json:
        print(json.dumps(verdict.as_json(shown_path(file))))
        record(verdict, source, data_dir, None)
    else:
        from rich.console import Console

        console = Console(highlight=False, emoji=False)  # a learner's ":x:" is text, not an emoji
        print_verdict(console, verdict, file)
        record(verdict, source, data_dir, console)
    return 0 if verdict.passed else 1


def _import_for_the_verdict(as_json: bool) -> None:
    if not as_json:
        importlib.import_module("rich.console")
    default_data_dir()  # platformdirs, where no data folder is given: progress is recorded after the verdict


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


def watch(course: Course, exercise_id: str, file: Path, interval: float, checker: Checker, data_dir: Path | None = None) -> int:
    """Re-check whenever the file changes, until ctrl+c (``watch_file``).

    One checker serves the session (the command line's, already starting; the
    caller closes it), so every check after the first is warm: its server is up
    and the judges imported.
    """
    from rich.console import Console

    exercise = find_exercise(course, exercise_id)
    readable_file(file)
    console = Console(highlight=False, emoji=False)
    ready(checker)
    try:
        watch_file(console, exercise, file, checker, interval, data_dir)
    except KeyboardInterrupt:
        return 0
    return 0


def watch_file(
    console: Console,
    exercise: Exercise,
    file: Path,
    checker: Checker,
    interval: float,
    data_dir: Path | None,
    until_passed: bool = False,
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
                verdict = checker.check_file(exercise, file)
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
