"""Issue 38's attacks on what surrounds a learner's process: the course's own files, locks between graded files, clean-up.

Each attack runs at the default level and in strict mode (bubblewrap), and
where a layer can hold alone (Landlock, bubblewrap, a pooled server's mount
namespace), with the others left off.
"""

from __future__ import annotations

import json
import textwrap
import threading
from pathlib import Path

import pytest
from rich.console import Console
from test_confinement import COURSE, QUICK, _descendants, _strict_sandbox, skip_strict

from attnpos.lessons.course import scanner
from attnpos.lessons.course.session import Session as LearnerSession
from attnpos.lessons.sandbox import Limits, Sandbox
from attnpos.lessons.sandbox.pool import SandboxPool
from attnpos.lessons.sandbox.withheld import split_around
from attnpos.tui.notebook import magic

EXERCISES = scanner.exercises_dir()
SOLUTION = EXERCISES / "rope" / "solution.py"
# A line of the solution no starter or error message holds: the mark of a leak.
LEAKED = max((line.strip() for line in SOLUTION.read_text().splitlines()), key=len)

# An answer that reads the course's files every way a red team tried, and raises what it read, so that it reaches
# the verdict's message (and a class report) if anything got through.
READ_THE_COURSE = f"""
import importlib.resources, os
import attnpos.lessons

package = os.path.dirname(attnpos.lessons.__file__)
paths = [
    {str(SOLUTION)!r},  # by path
    os.path.join(package, "content", "exercises", "rope", "solution.py"),  # through the package's __file__
    "/proc/self/root" + {str(SOLUTION)!r},  # through its own /proc entry
    {str(EXERCISES / "rope" / "exercise.toml")!r},  # the why question's answer
    {str(EXERCISES / "alibi" / "solution.py")!r},  # another exercise's folder
    {str(next((EXERCISES / "alibi" / "mistakes").iterdir()))!r},
]
read = []
for path in paths:
    try:
        with open(path, "rb") as handle:
            read.append(handle.read())
    except OSError:
        pass
for folder in ({str(EXERCISES)!r}, {str(EXERCISES / "alibi")!r}):
    try:
        read += os.listdir(folder)  # in bubblewrap the folder is there, and empty
    except OSError:
        pass
try:
    read.append(importlib.resources.files("attnpos.lessons").joinpath("content/exercises/rope/solution.py").read_bytes())
except OSError:
    pass
try:
    from attnpos.lessons.course.loader import load_course

    read.append(load_course().exercises["rope"].solution)
except Exception:
    pass
seen = sum(len(item) for item in read)
raise RuntimeError(f"read {{seen}} bytes: {{read!r}}"[:2000])
"""


def assert_nothing_read(result) -> None:
    assert result.status == "error", (result.status, result.detail, result.stdout)
    assert result.error.message.startswith("read 0 bytes"), result.error.message
    assert LEAKED not in result.error.message


@pytest.fixture(scope="module", params=["default", "strict"])
def sandbox(request):
    box = Sandbox(max_workers=2, strict=False) if request.param == "default" else _strict_sandbox()
    with box:
        yield box


# --- the course's own files ------------------------------------------------------------------


def test_no_solution_why_answer_or_other_exercise_can_be_read(sandbox):
    assert_nothing_read(sandbox.run_source(READ_THE_COURSE, ["seen"], QUICK))


def test_landlock_alone_withholds_the_course():
    with Sandbox(max_workers=1, strict=False, left_off=frozenset({"seccomp"})) as box:
        if not box.confinement["landlock"]:
            pytest.skip("needs Landlock (Linux 5.13)")
        assert_nothing_read(box.run_source(READ_THE_COURSE, ["seen"], QUICK))


def test_bubblewrap_alone_withholds_the_course():
    box = _strict_sandbox()
    box.close()
    with Sandbox(max_workers=1, strict=True, left_off=frozenset({"landlock", "seccomp"})) as box:
        assert box.confinement == {"landlock": 0, "seccomp": False, "bwrap": True}
        assert_nothing_read(box.run_source(READ_THE_COURSE, ["seen"], QUICK))


def test_a_pooled_servers_mount_namespace_alone_withholds_the_course():
    with SandboxPool(strict=False, spares=0, left_off=frozenset({"landlock", "seccomp"})) as pool:
        with pool.sandbox() as box:
            result = box.run_source(READ_THE_COURSE, ["seen"], QUICK)
            if not box.confinement.get("namespaces"):
                pytest.skip("unprivileged user namespaces are disabled here")
    assert_nothing_read(result)


def test_check_and_a_gradescope_report_carry_no_solution(attnpos, tmp_path):
    answer = tmp_path / "rope.py"
    answer.write_text(READ_THE_COURSE)
    checked = attnpos("check", "rope", str(answer), "--json")
    assert "read 0 bytes" in checked.stdout and LEAKED not in checked.stdout, checked.stdout
    report = tmp_path / "results.json"
    graded = attnpos("grade-class", str(tmp_path), "--single", "--gradescope", str(report))
    if graded.returncode == 2 and "strict mode needs" in graded.stderr:
        skip_strict(graded.stderr.strip())
    assert graded.returncode == 0, graded.stderr
    results = report.read_text()
    rope = next(test for test in json.loads(results)["tests"] if test["name"] == "rope")
    assert "read 0 bytes" in rope["output"] and LEAKED not in results


# --- locks between files graded together ---------------------------------------------------------

# Every run opens the same standard library; a lock held on one of its files is seen by every other run.
LOCKS = """
import ast, fcntl, json, os, struct, time

files = [open(module.__file__, "rb") for module in (os, ast, json)]  # three bits, say
attempts = [
    lambda f: fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB),
    lambda f: fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 7),
    lambda f: fcntl.fcntl(f, 37, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 7, 1, 0)),  # F_OFD_SETLK
    lambda f: fcntl.fcntl(f, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)),
    lambda f: fcntl.fcntl(f, 36, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)),  # F_OFD_GETLK
]
refused = taken = 0
for handle in files:
    for attempt in attempts:
        try:
            attempt(handle)
            taken += 1
        except PermissionError:
            refused += 1
        except OSError:  # EAGAIN: the other run holds it, which is the channel
            taken += 1
"""


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_two_files_graded_at_once_cannot_signal_through_locks(strict):
    if strict:
        _strict_sandbox().close()
    sender = LOCKS + "\ntime.sleep(0.5)  # holds whatever it took while the other looks\n"
    receiver = LOCKS
    results: dict = {}
    with SandboxPool(strict=strict, spares=2, jobs=2) as pool:
        if not pool.confinement["seccomp"]:
            pytest.skip("needs seccomp (x86-64 Linux)")
        boxes = [pool.sandbox(), pool.sandbox()]

        def grade(name: str, box: Sandbox, source: str) -> None:
            results[name] = box.run_source(source, ["refused", "taken"], QUICK)

        workers = [threading.Thread(target=grade, args=pair) for pair in (("sender", boxes[0], sender), ("receiver", boxes[1], receiver))]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        for box in boxes:
            box.close()
    for name in ("sender", "receiver"):
        assert results[name].status == "ok", (name, results[name].error)
        assert results[name].values["taken"].item() == 0 and results[name].values["refused"].item() == 15


# --- clean-up --------------------------------------------------------------------------------------


def test_no_process_or_file_of_a_run_outlives_its_result(sandbox):
    sandbox.start()
    server = sandbox._server.pid
    before = set(_descendants(server))
    result = sandbox.run_source(
        textwrap.dedent("""
        import os
        print(os.getcwd())
        for index in range(240):
            open(f"f{index}", "w").close()
            if index % 3 == 0:
                os.makedirs(f"d{index}/inner")
        x = 1
    """),
        ["x"],
        Limits(timeout_s=10.0),
    )
    assert result.status == "ok", result.error
    # The supervisor and the learner have exited: gone, or in the kernel's last steps of exiting, no code of theirs left to run.
    assert [pid for pid in set(_descendants(server)) - before if _runs_code(pid)] == []
    if not sandbox.confinement["bwrap"]:  # in bubblewrap the run folder is in its tmpfs, out of the test's sight
        assert not Path(result.stdout.strip()).parent.exists()


_PF_EXITING = 0x4  # include/linux/sched.h: the task has entered do_exit


def _runs_code(pid: int) -> bool:
    """Whether a process can still run code of its own: it exists, is no zombie and has not begun to exit."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    except FileNotFoundError:
        return False
    state, flags = fields[0], int(fields[6])  # fields 3 and 9 of proc(5)
    return state not in (b"Z", b"X") and not flags & _PF_EXITING


@pytest.mark.parametrize("route", ["app", "served beyond loopback", "notebook magic"])
def test_the_app_serve_and_the_notebook_magic_show_no_solution(route, tmp_path, monkeypatch):
    """The app's checks (also each browser session of serve: on loopback at the default level, beyond it strict) and the magic's."""
    if route == "notebook magic":
        session = magic.Session(tmp_path)
        console = Console(record=True, width=200, color_system=None)
        magic.run_magic(session, "check rope", READ_THE_COURSE, [].append, console)
        shown = console.export_text()
        session.checker().close()
    else:
        if route == "served beyond loopback":
            monkeypatch.setenv("ATTNPOS_STRICT", "1")
            _strict_sandbox().close()
        learner = LearnerSession(tmp_path)
        verdict = learner.checker.check(learner.course.exercises["rope"], READ_THE_COURSE, filename="rope.py")
        learner.close()
        shown = f"{verdict.message} {verdict.details}"
    assert "read 0 bytes" in shown and LEAKED not in shown, shown


def test_a_checks_verdict_comes_once_its_runs_folders_are_gone(checker):
    """Through the checker, which judges while the runs' supervisors remove their folders: the verdict waits for them."""
    exercise = COURSE.exercises["constant-offset"]
    filling = "import os\nfor index in range(300):\n    open(f'f{index}', 'w').close()\nraise RuntimeError(os.getcwd())\n"
    verdict = checker.check(exercise, filling)
    folder = Path(verdict.details["error"].removeprefix("RuntimeError: "))
    assert folder.name == "work", verdict.details
    assert not folder.parent.exists()


def test_an_installed_package_is_granted_around_the_course_folder(tmp_path):
    """A wheel's layout: the course's folder inside site-packages, which Landlock would otherwise grant whole."""
    site = tmp_path / "site-packages"
    for folder in ("numpy", "attnpos/core", "attnpos/lessons/checker", "attnpos/lessons/content/exercises/rope"):
        (site / folder).mkdir(parents=True)
    (site / "attnpos/__init__.py").write_text("")
    (site / "attnpos/lessons/content/exercises/rope/solution.py").write_text("")
    withheld = [str(site / "attnpos/lessons/content")]
    covering = split_around({str(site), str(tmp_path / "missing")}, withheld)
    assert covering == sorted(str(site / path) for path in ("numpy", "attnpos/__init__.py", "attnpos/core", "attnpos/lessons/checker"))
    assert split_around({withheld[0] + "/exercises"}, withheld) == []  # a root inside the course's folder: dropped
