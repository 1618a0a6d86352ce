"""`attnpos grade`, `grade-class`, `gradescope-setup` and `classroom-setup`: the checker for instructors.

Both grading commands are always strict and give every file a fresh sandbox:
a fork server forked from one warm parent into namespaces of its own
(lessons/sandbox/pool.py), so one file's runs reach no other's.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from attnpos.lessons.checker import Checker, Limits, Verdict, open_checker
from attnpos.lessons.course.model import Course
from attnpos.lessons.grading import reports
from attnpos.lessons.grading.grades import (
    GRADING_TABLE,
    UNREADABLE,
    Grading,
    SubmissionError,
    assignment,
    grade_class,
    load_grading,
    only,
    read_submissions,
    settled,
    shown,
    submit_answer,
    summarise,
    verdict_or_checker_error,
)
from attnpos.tui.cli.exercise_commands import collect_files, readable_file, ready
from attnpos.tui.render.exercise_print import find_exercise, shown_path
from attnpos.tui.render.usage import UsageError


@contextmanager
def strict_checker(jobs: int, limits: Limits) -> Iterator[Checker]:
    """A started checker in strict mode, ``jobs`` files at once, each in a fresh sandbox; its refusal is a one-line
    usage error, and a missing bubblewrap is said once. Ctrl+C leaves at once (the checker closes without waiting)."""
    with open_checker(strict=True, jobs=jobs, limits=limits, fresh_sandbox_per_check=True) as checker:
        if not ready(checker)["bwrap"]:
            # Strict mode passed on seccomp and Landlock ABI 6; say so, since bubblewrap is what the user may expect.
            print(
                "attnpos: strict mode without bubblewrap (not installed, or it cannot start here): each file's runs are "
                "confined by seccomp, Landlock and the pool's fresh namespaces; apt-get install bubblewrap adds it",
                file=sys.stderr,
            )
        yield checker


@contextmanager
def progress_bar(total: int, what: str) -> Iterator[Callable[[], None]]:
    """A Rich progress bar on a terminal's stderr; nothing at all on a pipe or file. Yields the step function."""
    if not sys.stderr.isatty() or total == 0:
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(what, total=total)
        yield lambda: progress.advance(task)


def interrupted(done: Callable[[], str]) -> int:
    """Ctrl+C: say what stopped, at once; exit 130 as a shell does."""
    print(f"attnpos: interrupted; {done()}, no report written", file=sys.stderr)
    return 130


# --- grade: one exercise, many files --------------------------------------------------------------


def run_grade(course: Course, exercise_id: str, paths: list[Path], fmt: str, jobs: int, limits: Limits) -> int:
    exercise = find_exercise(course, exercise_id)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    files = collect_files(paths)
    checked = [0]

    def submitted(checker: Checker, file: Path, step: Callable[[], None]) -> Future[Verdict]:
        try:
            source = readable_file(file)  # never through a link, at most MAX_SCRIPT_BYTES: a row saying why not
        except UsageError as problem:
            # The same diagnosis grade-class gives a file it cannot read.
            check = settled(Verdict(exercise.id, False, UNREADABLE, f"The file could not be read: {problem}", {"error": str(problem)}))
        else:
            check = submit_answer(checker, exercise, source)

        def counted(_: Future[Verdict]) -> None:
            checked[0] += 1
            step()

        check.add_done_callback(counted)
        return check

    try:
        with strict_checker(jobs, limits) as checker, progress_bar(len(files), f"grading {exercise.id}") as step:
            level = checker.confinement
            checks = [submitted(checker, file, step) for file in files]
            checker.wait(checks)
            verdicts = [verdict_or_checker_error(exercise, check) for check in checks]
    except KeyboardInterrupt:
        return interrupted(lambda: f"{checked[0]} of {len(files)} files checked")
    passed = sum(v.passed for v in verdicts)
    if fmt == "json":
        rows = [{**v.as_json(shown(shown_path(f))), "message": shown(v.message)} for f, v in zip(files, verdicts, strict=True)]
        report = {"exercise": exercise.id, "results": rows, "total": len(rows), "passed": passed, "confinement": level}
        _print(json.dumps(report, indent=1) + "\n")
    elif fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["file", "passed", "diagnosis", "message", "confinement"])
        for f, v in zip(files, verdicts, strict=True):
            cells = [shown(shown_path(f)), v.passed, v.diagnosis, shown(v.message), json.dumps(v.confinement or level)]
            writer.writerow([reports.spreadsheet_cell(cell) for cell in cells])
        writer.writerow(["total", passed, "", f"{passed} of {len(files)} passed", ""])
        _print(out.getvalue())
    else:
        table = Table(title=f"{exercise.id}: {passed} of {len(files)} passed", box=None)
        for column in ("file", "result", "diagnosis"):
            table.add_column(column, overflow="fold")
        for f, v in zip(files, verdicts, strict=True):
            table.add_row(escape(shown(shown_path(f))), "[green]passed[/]" if v.passed else "[red]not yet[/]", v.diagnosis)
        console = Console(highlight=False)
        console.print(table)
        console.print(f"[dim]confinement: {escape(reports.confinement_words(verdicts[0].confinement if verdicts else level))}; each file in a fresh sandbox[/]")
    return 0


# --- grade-class: every student's every exercise ---------------------------------------------------

FILE_OUTPUTS = ("gradebook", "markdown", "junit", "gradescope", "classroom")


def run_grade_class(
    course: Course,
    root: Path,
    single: bool,
    fmt: str,
    outputs: dict[str, Path | None],
    grading_path: Path | None,
    jobs: int,
    limits: Limits,
    feedback: Path | None = None,
    exercises: list[str] | None = None,
    only_student: str | None = None,
    merge: Path | None = None,
) -> int:
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if merge is not None and only_student is None:
        raise UsageError("--merge needs --only STUDENT: the student regraded into the earlier report")
    try:
        grading = load_grading(course, grading_path)
        submissions = read_submissions(root, course, single)
        if exercises is not None:
            course = assignment(course, submissions, exercises)
        if only_student is not None:
            submissions = only(submissions, only_student)
    except SubmissionError as problem:
        raise UsageError(str(problem)) from None
    for platform in ("gradescope", "classroom"):
        if outputs.get(platform) is not None and len(submissions) != 1:
            raise UsageError(
                f"--{platform} writes one submission's results, and {root} has {len(submissions)}; add --single to grade one student's folder or zip"
            )
    total = sum(answer.source is not None for s in submissions for answer in s.answers.values())
    checked = [0]
    try:
        with strict_checker(jobs, limits) as checker, progress_bar(total, "grading") as step:

            def on_checked() -> None:
                checked[0] += 1
                step()

            students = grade_class(course, submissions, grading, checker, on_checked)
            level = checker.confinement  # the last forked server's: the warm parent's, and the namespaces it entered
    except KeyboardInterrupt:
        return interrupted(lambda: f"{checked[0]} of {total} answers checked")
    if merge is not None:
        try:
            students = reports.merged_students(merge.read_text(encoding="utf-8"), course, grading, students)
        except (OSError, UnicodeDecodeError, ValueError) as problem:
            raise UsageError(f"cannot merge into {shown_path(merge)}: {getattr(problem, 'strerror', None) or problem}") from None
    summaries = summarise(course, students)
    writers: dict[str, Callable[[], str]] = {
        "gradebook": lambda: reports.gradebook_csv(course, students),
        "markdown": lambda: reports.class_markdown(course, students, summaries, level),
        "junit": lambda: reports.junit_xml(students),
        "gradescope": lambda: reports.gradescope_results(students[0]),
        "classroom": lambda: reports.classroom_results(students[0]),
    }
    for name, target in outputs.items():
        if target is not None:
            _write(target, writers[name]())
    if feedback is not None:
        for file_name, text in reports.feedback_files(course, grading, students).items():
            _write(feedback / file_name, text)
    if fmt == "json":
        _print(reports.class_json(course, grading, students, summaries, level))
    elif fmt == "csv":
        _print(reports.class_csv(students))
    else:
        Console(highlight=False).print(reports.class_renderable(course, students, summaries, level))
    return 0


def _print(text: str) -> None:
    """A report on stdout in its own encoding; what that cannot hold is escaped, never a UnicodeEncodeError after the checks."""
    encoding = sys.stdout.encoding or "utf-8"
    sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _write(target: Path, text: str) -> None:
    """Write ``target`` whole or not at all: a temporary file beside it, then a rename, so the last good report survives any failure."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        data = text.encode("utf-8")
        if target.parent != Path(""):
            target.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except (OSError, UnicodeEncodeError) as error:
        temporary.unlink(missing_ok=True)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UsageError(f"cannot write {shown_path(target)}: {reason}; the file there before is left as it was") from None


# --- platform set-up files ------------------------------------------------------------------------
# Both platforms run grade-class itself on one submission, with the instructor's grading table copied beside the set-up
# files, and install the attnpos the instructor runs: a wheel built from this checkout (attnpos is on no package index).

GRADESCOPE_SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu); the zip is unpacked in /autograder/source.
# Written by `attnpos gradescope-setup`; docs/GRADING.md explains it.
set -euo pipefail
apt-get update -qq
# bubblewrap gives grading its strongest confinement where the image lets it start.
apt-get install -y -qq python3 python3-venv bubblewrap
python3 -m venv /autograder/attnpos-venv
/autograder/attnpos-venv/bin/pip install --quiet {install}
"""

GRADESCOPE_RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission; the student's files are in /autograder/submission.
# Written by `attnpos gradescope-setup`; docs/GRADING.md explains it.
set -uo pipefail
mkdir -p /autograder/results
results=/autograder/results/results.json
if ! /autograder/attnpos-venv/bin/attnpos grade-class /autograder/submission --single --grading /autograder/source/grading.toml \\
        --gradescope "$results" --jobs 2 --json > /autograder/results/report.json 2> /autograder/results/problem.txt; then
    # Nothing graded (strict mode refused on this machine, or the submission is unusable): say why, score 0.
    /autograder/attnpos-venv/bin/python - "$results" <<'EOF'
import json, sys
problem = open("/autograder/results/problem.txt", encoding="utf-8", errors="replace").read().strip()
json.dump({{"score": 0, "output": "attnpos could not grade this submission: " + problem, "tests": []}}, open(sys.argv[1], "w"))
EOF
fi
cat /autograder/results/problem.txt >&2
"""

# The runner's step: grade-class on the student's repository, its results handed to the reporter as base64.
CLASSROOM_GRADE = """if ! attnpos grade-class . --single --grading .github/classroom/grading.toml --classroom attnpos-results.json --jobs 2 \\
    > /dev/null 2> attnpos-problem.txt; then
  python - <<'EOF'
import json
problem = open("attnpos-problem.txt", encoding="utf-8", errors="replace").read().strip()
results = {{"version": 1, "status": "error", "max_score": {max_points},
            "tests": [{{"name": "attnpos", "status": "error", "score": 0, "message": "attnpos could not grade this: " + problem}}]}}
json.dump(results, open("attnpos-results.json", "w"))
EOF
fi
cat attnpos-problem.txt >&2
echo "result=$(base64 -w0 attnpos-results.json)" >> "$GITHUB_OUTPUT"
"""


def checkout_root() -> Path | None:
    """The source tree of the attnpos running now (its pyproject.toml names it), or None for an installed copy."""
    root = Path(__file__).resolve().parents[2]  # tui/cli/grading_commands.py in the tree
    pyproject = root / "pyproject.toml"
    return root if pyproject.is_file() and 'name = "attnpos"' in pyproject.read_text(encoding="utf-8") else None


def build_wheel(folder: Path) -> Path:
    """A wheel of this checkout, built by pip into ``folder``; a one-line usage error when it cannot be."""
    root = checkout_root()
    if root is None:
        raise UsageError("this attnpos is not run from its source tree, so no wheel can be built of it: pass --install SPEC (a wheel you built)")
    with tempfile.TemporaryDirectory() as scratch:
        built = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", scratch, str(root)], capture_output=True, text=True
        )
        wheels = sorted(Path(scratch).glob("attnpos-*.whl"))
        if built.returncode != 0 or len(wheels) != 1:
            last = (built.stderr.strip().splitlines() or ["no wheel was written"])[-1]
            raise UsageError(f"pip could not build a wheel of {shown_path(root)}: {last}")
        target = folder / wheels[0].name
        _refuse_existing(folder, [target.name])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(wheels[0], target)
    return target


def grading_table(course: Course, grading_path: Path | None) -> tuple[Grading, str]:
    """The grading table the platform will use, checked first: the instructor's, or the course's own; and its text to copy."""
    try:
        return load_grading(course, grading_path), (grading_path or GRADING_TABLE).read_text(encoding="utf-8")
    except SubmissionError as problem:
        raise UsageError(str(problem)) from None


def gradescope_setup(course: Course, folder: Path, install: str | None, grading_path: Path | None) -> int:
    """Write setup.sh, run_autograder and grading.toml (and, without --install, a wheel of this checkout) for Gradescope's zip."""
    _, table = grading_table(course, grading_path)
    _refuse_existing(folder, ["setup.sh", "run_autograder", "grading.toml"])
    names = ["setup.sh", "run_autograder", "grading.toml"]
    if install is None:
        wheel = build_wheel(folder)
        install, names = f"/autograder/source/{wheel.name}", [*names, wheel.name]
    _write_new(folder, {"setup.sh": GRADESCOPE_SETUP.format(install=shlex.quote(install)), "run_autograder": GRADESCOPE_RUN.format()}, executable=True)
    _write_new(folder, {"grading.toml": table}, executable=False)
    print(f"wrote {', '.join(names)} in {shown_path(folder)}")
    print(f"  zip them (the files, not the folder) and upload as the autograder: cd {shlex.quote(str(folder))} && zip autograder.zip {' '.join(names)}")
    return 0


def classroom_files(course: Course, install: str, grading: Grading) -> dict[str, str]:
    """GitHub Classroom's workflow: one runner, grade-class on the student's repository with the table beside it."""
    grade = CLASSROOM_GRADE.format(max_points=_points_text(sum(grading.points(e) for e in course.exercises)))
    lines = [
        "# Written by `attnpos classroom-setup`: grade-class grades the repository with .github/classroom/grading.toml",
        "# (the instructor's table: the same points as grade-class and Gradescope). docs/GRADING.md explains it.",
        "name: Autograding Tests",
        "'on': [push, repository_dispatch]",
        "permissions:",
        "  checks: write",
        "  actions: read",
        "  contents: read",
        "jobs:",
        "  run-autograding-tests:",
        "    runs-on: ubuntu-latest",
        "    if: github.actor != 'github-classroom[bot]'",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-python@v5",
        "        with:",
        "          python-version: '3.12'",
        "      - name: Install attnpos and bubblewrap",
        "        run: |",
        "          sudo apt-get install -y -qq bubblewrap",
        "          # Ubuntu 24.04 keeps bubblewrap from unprivileged user namespaces; this machine is thrown away after the run.",
        "          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true",
        f"          pip install {shlex.quote(install)}",
        "      - name: attnpos",
        "        id: attnpos",
        "        run: |",
        *(f"          {line}" if line else "" for line in grade.splitlines()),
        "      - name: Autograding Reporter",
        "        uses: classroom-resources/autograding-grading-reporter@v1",
        "        env:",
        '          ATTNPOS_RESULTS: "${{steps.attnpos.outputs.result}}"',
        "        with:",
        "          runners: attnpos",
    ]
    return {".github/workflows/classroom.yml": "\n".join(lines) + "\n"}


def _points_text(points: float) -> str:
    return str(int(points)) if float(points).is_integer() else str(round(points, 4))


def classroom_setup(course: Course, folder: Path, install: str | None, grading_path: Path | None) -> int:
    """Write the workflow, the grading table and (without --install) a wheel of this checkout into the template repository."""
    grading, table = grading_table(course, grading_path)
    _refuse_existing(folder, [".github/workflows/classroom.yml", ".github/classroom/grading.toml"])
    if install is None:
        install = f".github/classroom/{build_wheel(folder / '.github' / 'classroom').name}"
    files = {**classroom_files(course, install, grading), ".github/classroom/grading.toml": table}
    _write_new(folder, files, executable=False)
    print(f"wrote {', '.join(str(folder / name) for name in files)} and {install}: commit them to the assignment's template repository")
    return 0


def _refuse_existing(folder: Path, names: list[str]) -> None:
    existing = [name for name in names if (folder / name).exists()]
    if existing:
        raise UsageError(f"{shown_path(folder / existing[0])} already exists; not overwriting it")


def _write_new(folder: Path, files: dict[str, str], executable: bool) -> None:
    _refuse_existing(folder, list(files))
    try:
        for name, text in files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            if executable:
                target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    except OSError as error:
        raise UsageError(f"cannot write in {shown_path(folder)}: {error.strerror or error}") from None
