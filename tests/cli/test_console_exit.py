"""The `attnpos` executable ends without Python's teardown, but only after what a normal exit does first."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_executable_ends_after_its_threads_and_atexit_handlers_with_the_commands_code(tmp_path):
    marker = tmp_path / "written-by-thread"
    script = textwrap.dedent(f"""
        import atexit, threading, time
        from attnpos.tui.main import console

        def late():
            time.sleep(0.2)  # still running when the command returns: a normal exit waits for it
            open({str(marker)!r}, "w").write("done")

        threading.Thread(target=late).start()
        atexit.register(lambda: print("atexit ran", flush=False))
        console(["check", "no-such-exercise", "missing.py"])
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr  # the command's own exit code: a usage error
    assert marker.read_text() == "done"
    assert result.stdout.endswith("atexit ran\n")  # printed by a handler and flushed before the process ended
    assert result.stderr.count("\n") == 1, result.stderr  # one line, no traceback
