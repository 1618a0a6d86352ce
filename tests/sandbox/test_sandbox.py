"""The sandbox that runs learners' scripts: values, failures, limits, cleanup and isolation."""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from attnpos.lessons.sandbox import CancelToken, Limits, Reading, Sandbox

QUICK = Limits(timeout_s=2.0, memory_mb=1024)


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(max_workers=4) as box:
        yield box


def run(sandbox: Sandbox, source: str, names, limits: Limits = QUICK):
    return sandbox.run_source(textwrap.dedent(source), names, limits)


def test_correct_script_returns_arrays_bools_and_scalars(sandbox):
    result = run(
        sandbox,
        """
        import numpy as np
        from attnpos.core import softmax
        weights = softmax(np.zeros((2, 3)))
        flag = True
        count = 3
        ratio = 0.5
        np_scalar = np.float32(2.5)
    """,
        ["weights", "flag", "count", "ratio", "np_scalar"],
    )
    assert result.status == "ok" and result.error is None and result.exit_code == 0
    assert result.values["weights"].dtype == np.float64
    np.testing.assert_allclose(result.values["weights"], np.full((2, 3), 1 / 3))
    assert result.values["flag"].dtype == np.bool_ and result.values["flag"].item() is True
    assert result.values["count"].shape == () and result.values["count"].item() == 3
    assert result.values["ratio"].item() == 0.5
    assert result.values["np_scalar"].dtype == np.float32
    assert result.missing == () and result.bad_types == {}


def test_run_on_a_file_sets_main_file_and_argv(sandbox, tmp_path):
    script = tmp_path / "exercise.py"
    script.write_text("import sys\nis_main = __name__ == '__main__'\nsame_file = __file__ == sys.argv[0]\n")
    result = sandbox.run(script, ["is_main", "same_file"], QUICK)
    assert result.status == "ok"
    assert result.values["is_main"].item() and result.values["same_file"].item()


# The checker's reading module, named as a run's request names it (the sandbox itself imports nothing of attnpos).
READING = "attnpos.lessons.checker.rerun"
DOUBLED = "import numpy as np\nprint('ran')\nx = np.ones(2)\ny = x * 2\n"


def test_a_reading_answers_its_questions_and_rewrites_the_script_before_it_runs(sandbox):
    reading = Reading(READING, questions=(["typed_in", "x"], ["typed_in", "y"]), rewrite={"x": "scaled(x)"})
    result = sandbox.run_source(DOUBLED, ["y"], QUICK, reading=reading)
    assert result.status == "ok", (result.detail, result.stdout)
    assert result.answers == (True, False)  # asked of the script as written: x typed in, y computed
    assert result.values["y"].tolist() == [2.0**21, 2.0**21]  # the rewritten script ran: x scaled by 2^20


def test_a_script_the_reading_cannot_rewrite_does_not_run(sandbox):
    result = sandbox.run_source(DOUBLED, ["y"], QUICK, reading=Reading(READING, rewrite={"z": "scaled(z)"}))
    assert result.status == "not-rewritten" and result.missing == ("y",), result
    assert "`z` must be set at the top level" in result.detail and "ran" not in result.stdout


def test_a_reading_that_fails_says_so_and_runs_nothing(sandbox):
    result = sandbox.run_source(DOUBLED, ["y"], QUICK, reading=Reading(READING, questions=(["no_such_question"],)))
    assert result.status == "reading-failed" and "KeyError" in result.detail and "ran" not in result.stdout, result


def test_missing_name(sandbox):
    result = run(sandbox, "x = 1\n", ["x", "never_defined"])
    assert result.status == "ok"
    assert result.missing == ("never_defined",)
    assert set(result.values) == {"x"}


def test_non_numeric_values_are_bad_types(sandbox):
    result = run(
        sandbox,
        """
        import numpy as np
        text = "0.5"
        objects = np.array([1, None], dtype=object)
        def function(): return 1
        items = ["a", "b"]
        ragged = [[1, 2], [3]]
    """,
        ["text", "objects", "function", "items", "ragged"],
    )
    assert result.status == "ok" and result.values == {}
    assert result.bad_types == {"text": "str", "objects": "object array", "function": "function", "items": "list", "ragged": "list"}


def test_lists_and_tuples_of_numbers_are_read_as_arrays(sandbox):
    result = run(
        sandbox,
        """
        perm = [3, 0, 5, 1, 4, 2]
        pair = (0.5, 1.5)
    """,
        ["perm", "pair"],
    )
    assert result.values["perm"].tolist() == [3, 0, 5, 1, 4, 2] and result.values["pair"].dtype == float


def test_exception_gives_the_learners_line_and_message_only(sandbox):
    result = run(
        sandbox,
        """
        import numpy as np

        def scale(v):
            return v / undefined_name

        x = np.ones(3)
        y = scale(x)
    """,
        ["x", "y"],
    )
    assert result.status == "error"
    assert result.error.type == "NameError"
    assert "undefined_name" in result.error.message
    assert result.error.line == 5 and result.error.source_line == "return v / undefined_name"
    assert "sandbox" not in result.error.traceback
    assert "answer.py" in result.error.traceback and "line 8" in result.error.traceback
    assert result.missing == ("y",) and "x" in result.values  # names as they were when it stopped


def test_endless_loop_times_out_within_the_limit(sandbox):
    limits = Limits(timeout_s=1.0)
    started = time.monotonic()
    result = run(sandbox, "while True:\n    pass\n", ["x"], limits)
    assert result.status == "timeout"
    assert time.monotonic() - started < limits.timeout_s + 1.5
    assert result.missing == ("x",)


@pytest.mark.parametrize("bomb", ["x = bytearray(4 * 1024**3)", "import numpy as np\nx = np.ones((40000, 40000))"])
def test_memory_bomb_is_a_memory_status(sandbox, bomb):
    result = run(sandbox, bomb + "\n", ["x"], Limits(timeout_s=5.0, memory_mb=512))
    assert result.status == "memory"
    assert result.error is not None and "MemoryError" in result.error.traceback


def test_segfault_is_a_crash_with_sigsegv(sandbox):
    result = run(sandbox, "x = 1\nimport ctypes\nctypes.string_at(0)\n", ["x"])
    assert result.status == "crash" and result.signal == signal.SIGSEGV
    assert result.missing == ("x",)


def test_os_exit_is_a_crash_with_its_exit_code(sandbox):
    result = run(sandbox, "x = 1\nimport os\nos._exit(3)\n", ["x"])
    assert result.status == "crash" and result.signal is None and result.exit_code == 3
    assert result.values == {} and result.missing == ("x",)


def test_sys_exit_before_the_names_exist_is_an_error(sandbox):
    result = run(sandbox, "import sys\nsys.exit(1)\nx = 1\n", ["x"])
    assert result.status == "error" and result.exit_code == 1
    assert result.error.type == "SystemExit" and result.error.line == 2
    assert result.missing == ("x",)


def test_sys_exit_zero_after_the_names_keeps_the_values(sandbox):
    result = run(sandbox, "import sys\nx = 2.0\nsys.exit(0)\n", ["x"])
    assert result.status == "ok" and result.values["x"].item() == 2.0


def test_deep_recursion_is_an_error_on_the_learners_line(sandbox):
    result = run(sandbox, "def down(n):\n    return down(n + 1)\n\ndown(0)\n", ["x"])
    assert result.status == "error" and result.error.type == "RecursionError" and result.error.line == 2


def test_print_flood_is_drained_and_capped(sandbox):
    limits = Limits(timeout_s=10.0, output_cap=4096)
    started = time.monotonic()
    result = run(
        sandbox,
        """
        line = "x" * 999
        for _ in range(50_000):
            print(line)
        done = True
    """,
        ["done"],
        limits,
    )
    assert time.monotonic() - started < 5.0
    assert result.status == "ok" and result.values["done"].item()
    assert len(result.stdout.encode()) < limits.output_cap + 100
    assert result.stdout.rstrip().endswith("MB of output dropped]")


def test_pickles_and_forged_results_never_reach_the_parent(sandbox, tmp_path):
    marker = tmp_path / "pwned"
    result = run(
        sandbox,
        f"""
        import glob, json, os, pickle
        import numpy as np

        class Payload:
            def __reduce__(self):
                return (open, ({str(marker)!r}, "w"))

        x = Payload()
        y = np.array([Payload()], dtype=object)
        z = np.zeros(3)
        blob = pickle.dumps(np.array([Payload()], dtype=object))
        for folder in (".", ".."):
            for name in ("0.npy", "1.npy", "x.npy", "results.npz"):
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(blob)
            with open(os.path.join(folder, "status.json"), "w") as f:
                json.dump({{"outcome": "ok", "values": [0, 1]}}, f)

        try:
            child = os.fork()  # refused where seccomp is active
        except PermissionError:
            child = None
        if child == 0:  # a child that waits to overwrite the real results with its own numbers
            os.setsid()
            while True:
                for path in glob.glob("../results-*/*.data"):
                    np.full(3, 42.0).tofile(path)
    """,
        ["x", "y", "z"],
    )
    assert not marker.exists()
    assert result.status == "ok"
    assert set(result.values) == {"z"}
    np.testing.assert_array_equal(result.values["z"], np.zeros(3))
    assert result.bad_types == {"x": "Payload", "y": "object array"}


def test_child_processes_do_not_outlive_the_run(sandbox):
    result = run(
        sandbox,
        """
        import subprocess
        import numpy as np
        kept, refused = [], 0
        for n in range(50):
            try:
                kept.append(subprocess.Popen(["sleep", "1000"], start_new_session=n >= 40))
            except PermissionError:  # seccomp refuses new processes
                refused += 1
        pids = np.array([p.pid for p in kept], dtype=int)
    """,
        ["pids", "refused"],
        Limits(timeout_s=10.0),
    )
    assert result.status == "ok"
    if sandbox.confinement["seccomp"]:
        assert result.values["refused"].item() == 50
    else:
        assert len(result.values["pids"]) == 50
    survivors = [pid for pid in result.values["pids"] if _is_alive(int(pid))]
    assert survivors == []


def test_chdir_and_environment_changes_stay_in_the_run(sandbox):
    cwd, environment = os.getcwd(), dict(os.environ)
    result = run(
        sandbox,
        """
        import os
        os.chdir("/")
        os.environ["ATTNPOS_SANDBOX_LEAK"] = "1"
        os.environ.pop("PATH", None)
        x = 1
    """,
        ["x"],
    )
    assert result.status == "ok"
    assert os.getcwd() == cwd and dict(os.environ) == environment


def test_printing_a_verdict_changes_nothing(sandbox):
    result = run(
        sandbox,
        """
        print("PASSED: all checks ok")
        print('{"status": "ok", "values": {"x": 42}}')
        x = 1
    """,
        ["x", "y"],
    )
    assert result.status == "ok" and result.values["x"].item() == 1 and result.missing == ("y",)
    assert "PASSED" in result.stdout


def test_warm_runs_beat_a_cold_interpreter(sandbox):
    def median_seconds(action, repeats=5):
        samples = []
        for _ in range(repeats):
            started = time.perf_counter()
            action()
            samples.append(time.perf_counter() - started)
        return statistics.median(samples)

    warm = median_seconds(lambda: run(sandbox, "import numpy as np\nx = np.ones(3)\n", ["x"]))
    cold = median_seconds(lambda: subprocess.run([sys.executable, "-c", "import numpy"], check=True))
    assert warm < cold


def test_a_run_inherits_the_servers_imports_frozen_and_collects_its_own_garbage(sandbox):
    result = run(
        sandbox,
        """
        import gc
        frozen = gc.get_freeze_count()
        class Cycle:
            pass
        gc.disable()  # counted by the one collection below
        for _ in range(1000):
            node = Cycle()
            node.self = node
        del node
        collected = gc.collect()
        gc.enable()
    """,
        ["frozen", "collected"],
    )
    assert result.status == "ok", result
    assert result.values["frozen"].item() > 10_000  # NumPy's and the core's objects, never walked by a run's collections
    assert result.values["collected"].item() >= 1000  # the run's own cycles are still collected


def test_concurrent_runs_from_four_threads(sandbox):
    def square(n: int):
        return run(sandbox, f"import numpy as np\nimport time\ntime.sleep(0.2)\nx = np.arange({n}) ** 2\n", ["x"])

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(square, range(1, 9)))
    for n, result in enumerate(results, start=1):
        assert result.status == "ok"
        np.testing.assert_array_equal(result.values["x"], np.arange(n) ** 2)


def test_cancel_stops_a_running_loop(sandbox):
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    started = time.monotonic()
    result = sandbox.run_source("while True:\n    pass\n", ["x"], Limits(timeout_s=10.0), cancel=token)
    assert result.status == "cancelled"
    assert time.monotonic() - started < 2.0


def test_sandbox_cancel_stops_every_run(sandbox):
    threading.Timer(0.3, sandbox.cancel).start()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda _: run(sandbox, "while True:\n    pass\n", ["x"], Limits(timeout_s=10.0)), range(2)))
    assert [result.status for result in results] == ["cancelled", "cancelled"]


def test_a_dead_fork_server_is_replaced_for_the_next_run(sandbox):
    assert run(sandbox, "x = 1\n", ["x"]).status == "ok"
    sandbox._server.kill()  # as if it had crashed: the learner itself cannot reach it (tests/sandbox/test_confinement.py)
    sandbox._server.wait()
    assert run(sandbox, "x = 2\n", ["x"]).values["x"].item() == 2


def test_the_run_folder_is_removed(sandbox):
    result = run(sandbox, "import os\nprint(os.getcwd())\nopen('scratch.txt', 'w').write('x')\nx = 1\n", ["x"])
    assert result.status == "ok"
    workdir = Path(result.stdout.strip())
    assert workdir.name == "work"
    assert not workdir.parent.exists()  # removed before the run returned


def _is_alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie, read from /proc."""
    try:
        status = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return status not in (b"Z", b"X")
