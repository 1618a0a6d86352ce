"""`attnpos check` starts its fork server before it imports anything else, and its checker adopts that server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from attnpos.lessons.checker import open_checker
from attnpos.lessons.checker.server_start import PRELOAD, runs_at_once, start_server
from attnpos.lessons.sandbox import Sandbox, launch

SOLUTION = Path(__file__).parents[2] / "lessons/content/exercises/constant-offset/solution.py"
# The program, with an audit hook noting, in order, the fork server's start and the modules it imports.
IN_ORDER = """
import sys
seen = []
def note(event, args):
    if event in ("subprocess.Popen", "os.posix_spawn"):
        seen.append("spawn")
    elif event == "import" and args[0].startswith(("attnpos.tui.cli", "numpy")) and args[0] not in seen:
        seen.append(args[0])
sys.addaudithook(note)
from attnpos.tui.main import main
code = main(sys.argv[1:])
import os
print("ORDER", " ".join(seen))
print("BLAS", os.environ.get("OPENBLAS_NUM_THREADS"))
sys.exit(code)
"""


def test_check_starts_its_fork_server_before_the_command_line_or_numpy(tmp_path):
    ran = subprocess.run(
        [sys.executable, "-c", IN_ORDER, "check", "constant-offset", str(SOLUTION)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path)},
    )
    assert ran.returncode == 0, ran.stderr
    assert "✓ passed" in ran.stdout
    order = ran.stdout.split("ORDER ")[1].split()
    assert order[0] == "spawn"  # no other process is started after it: the runs fork from this server
    assert order.count("spawn") == 1
    assert {"attnpos.tui.cli", "numpy"} <= set(order)
    assert "BLAS 1" in ran.stdout  # the judge's NumPy starts no pool of threads beside the starting server


def test_a_checker_adopts_the_server_started_for_it(monkeypatch):
    server = start_server(strict=False)

    def refuse(*args: object) -> None:
        raise AssertionError("a second fork server was started")

    monkeypatch.setattr(launch, "spawn_server", refuse)
    with open_checker(strict=False, server=server) as checker:
        assert checker.confinement  # it came up, and no other server could: the one started above
        assert server.server.poll() is None
    assert server.server.wait(timeout=30) is not None


def test_a_server_started_for_another_strictness_is_stopped_unused(monkeypatch):
    monkeypatch.setattr(launch, "bwrap_installed", lambda: True)
    server = start_server(strict=False)  # outside bubblewrap, where strict mode would start one inside
    sandbox = Sandbox(max_workers=runs_at_once(1), preload=PRELOAD, strict=True, spawned=server)
    try:
        assert server.server.wait(timeout=30) is not None  # its control socket closed, it exits
    finally:
        sandbox.close()


def test_check_asking_for_help_starts_no_server():
    from attnpos.tui.main import _start_check

    assert _start_check(["check", "--help"]) is None
