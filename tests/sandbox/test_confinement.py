"""The hostile suite: each attack of issue 17 as a learner script, at the default level and in strict mode.

Every attack is asserted blocked where this kernel offers the layer that
blocks it, and skipped with the reason where it does not. Nothing here
writes outside the test's temporary folders (an attack that got through
would leave its marker there), the only network target is a listener this
test starts on 127.0.0.1, and every script is bounded in memory, disk and time.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from attnpos.lessons.checker import open_checker
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.sandbox import ConfinementUnavailable, Limits, Sandbox, printable, run_folders

QUICK = Limits(timeout_s=3.0, memory_mb=768)
# Shared by every attack: blocked(action) is 1 when the action raised OSError (refused, or invisible in bubblewrap), else 0.
PRELUDE = """
import os, signal, socket, sys

def blocked(action):
    try:
        action()
    except OSError:
        return 1
    return 0
"""
COURSE = load_course()


# .ci/run sets it: there the strict-mode tests must run, so what would skip them fails instead.
STRICT_REQUIRED = os.environ.get("ATTNPOS_REQUIRE_STRICT") == "1"


def skip_strict(reason: str):
    if STRICT_REQUIRED:
        pytest.fail(f"{reason}; .ci/run requires strict mode (ATTNPOS_REQUIRE_STRICT=1)")
    pytest.skip(reason)


def _strict_sandbox() -> Sandbox:
    if not Path("/usr/bin/bwrap").exists() and not any(Path(folder, "bwrap").exists() for folder in os.environ.get("PATH", "").split(os.pathsep)):
        skip_strict("bubblewrap is not installed (apt-get install bubblewrap)")
    box = Sandbox(max_workers=2, strict=True)
    try:
        box.start()
    except ConfinementUnavailable as reason:
        skip_strict(str(reason))
    if not box.confinement["bwrap"]:
        box.close()
        alone = subprocess.run(["bwrap", "--unshare-all", "--ro-bind", "/", "/", "true"], capture_output=True)
        if alone.returncode == 0:
            pytest.fail("bubblewrap works here, yet the sandbox's fork server did not start inside it")
        skip_strict(f"bubblewrap is installed but cannot start here: {alone.stderr.decode().strip()}")
    return box


@pytest.fixture(scope="module", params=["default", "strict"])
def sandbox(request):
    box = Sandbox(max_workers=2, strict=False) if request.param == "default" else _strict_sandbox()
    with box:
        yield box


@pytest.fixture(scope="module")
def checker(sandbox):
    """A checker as strict as ``sandbox``, for the tests that check whole answers at each level."""
    with open_checker(strict=sandbox.strict) as confined:
        yield confined


def run(sandbox: Sandbox, source: str, names=("refused",), limits: Limits = QUICK):
    return sandbox.run_source(PRELUDE + textwrap.dedent(source), list(names), limits)


def needs(sandbox: Sandbox, *layers: str) -> dict:
    """Skip unless one of ``layers`` is active ("seccomp", "landlock", "landlock4", "landlock6", "bwrap")."""
    level = sandbox.confinement
    active = {
        "seccomp": level["seccomp"],
        "landlock": level["landlock"] >= 1,
        "landlock4": level["landlock"] >= 4,
        "landlock6": level["landlock"] >= 6,
        "bwrap": level["bwrap"],
    }
    if not any(active[layer] for layer in layers):
        pytest.skip(f"needs {' or '.join(layers)}; this machine has {level}")
    return level


def assert_refused(result, expected: int = 1, name: str = "refused"):
    assert result.status == "ok", (result.status, result.detail, result.stdout, result.error)
    assert result.values[name].item() == expected, result.stdout


# --- lasting forgery ---------------------------------------------------------------


def test_no_process_is_left_behind_to_rewrite_later_results(sandbox):
    needs(sandbox, "seccomp")
    result = run(
        sandbox,
        """
        import subprocess, threading
        refused = blocked(os.fork) + blocked(lambda: subprocess.Popen(["sleep", "60"]))
        refused += blocked(lambda: os.posix_spawn("/bin/sleep", ["sleep", "60"], {}))
        threads = 1
        try:
            worker = threading.Thread(target=lambda: None)  # threads stay allowed: NumPy and learners use them
            worker.start(); worker.join()
        except RuntimeError:  # where no task cap holds (root without a pids cgroup), none at all
            threads = 0
    """,
        ["refused", "threads"],
    )
    assert_refused(result, 3)
    assert result.values["threads"].item() == int(os.getuid() != 0 or sandbox._cgroup is not None)
    wrong = sandbox.run_source("max_diff = 1.0\n", ["max_diff"], QUICK)
    assert wrong.values["max_diff"].item() == 1.0  # a later run reads its own numbers only


def test_the_installed_checker_and_site_packages_cannot_be_changed(sandbox, tmp_path):
    needs(sandbox, "landlock", "bwrap")
    import site

    import attnpos.lessons.checker.judging as checker

    before = Path(checker.__file__).read_bytes()
    pth = Path(site.getsitepackages()[0]) / f"attnpos-hostile-{os.getpid()}.pth"
    try:
        result = run(
            sandbox,
            f"""
            refused = blocked(lambda: open({checker.__file__!r}, "a"))  # opened for appending, nothing written
            refused += blocked(lambda: os.close(os.open({str(pth)!r}, os.O_WRONLY | os.O_CREAT | os.O_EXCL)))
            refused += blocked(lambda: open({str(tmp_path / "marker")!r}, "w"))
        """,
        )
        assert_refused(result, 3)
        assert not pth.exists() and not (tmp_path / "marker").exists()
    finally:
        pth.unlink(missing_ok=True)
    assert Path(checker.__file__).read_bytes() == before


# --- escaping the limits -----------------------------------------------------------


def test_the_supervisor_fork_server_and_app_cannot_be_signalled(sandbox):
    needs(sandbox, "seccomp", "landlock6", "bwrap")
    app = os.getpid()
    result = run(
        sandbox,
        f"""
        attempts = [(pid, sig) for pid in (os.getppid(), {app}) for sig in (0, signal.SIGCONT)]  # harmless if sent
        refused = sum(blocked(lambda p=pid, s=sig: os.kill(p, s)) for pid, sig in attempts)
        own = blocked(lambda: os.kill(os.getpid(), 0))  # its own process stays reachable
    """,
        ["refused", "own"],
    )
    assert_refused(result, 4)
    assert result.values["own"].item() == 0
    assert sandbox._server.poll() is None  # the fork server lives on


def test_stopping_the_supervisor_does_not_stretch_the_time_limit(sandbox):
    needs(sandbox, "seccomp", "landlock6", "bwrap")
    limits = Limits(timeout_s=1.0)
    result = run(sandbox, "refused = blocked(lambda: os.kill(os.getppid(), signal.SIGSTOP))\n")
    assert_refused(result)
    # The learner cannot stop its supervisor; stopped from outside, the app's own clock still ends the run.
    supervisors_before = set(_descendants(sandbox._server.pid))
    outcome = {}
    worker = threading.Thread(target=lambda: outcome.update(result=run(sandbox, "while True:\n    pass\n", (), limits)))
    started = time.monotonic()
    worker.start()
    stopped = _stop_new_supervisor(sandbox._server.pid, supervisors_before)
    worker.join(15)
    elapsed = time.monotonic() - started
    for pid in stopped:
        _resume(pid)
    assert stopped, "no supervisor appeared to stop"
    assert outcome["result"].status == "timeout" and elapsed < limits.timeout_s + 2.5


def test_children_cannot_multiply_the_memory_cap(sandbox):
    needs(sandbox, "seccomp")
    result = run(sandbox, "refused = sum(blocked(os.fork) for _ in range(4))\n")
    assert_refused(result, 4)


def test_shared_memory_files_cannot_outlive_the_run(sandbox):
    needs(sandbox, "landlock")
    name = f"/dev/shm/attnpos-hostile-{os.getpid()}"
    try:
        result = run(sandbox, f"refused = blocked(lambda: open({name!r}, 'wb').write(b'x' * 1024))\n")
        assert_refused(result)
        assert not Path(name).exists()
    finally:
        Path(name).unlink(missing_ok=True)


def test_the_apps_memory_and_environment_cannot_be_read_through_proc(sandbox):
    needs(sandbox, "landlock", "bwrap")
    app = os.getpid()
    result = run(
        sandbox,
        f"""
        refused = blocked(lambda: open("/proc/{app}/mem", "rb").read(1))
        refused += blocked(lambda: open("/proc/{app}/environ", "rb").read())
        refused += blocked(lambda: open(f"/proc/{{os.getppid()}}/environ", "rb").read())  # the supervisor's
        refused += blocked(lambda: os.listdir("/proc"))
        own = blocked(lambda: open("/proc/self/status").read())  # its own entry stays readable
    """,
        ["refused", "own"],
    )
    assert_refused(result, 4)
    assert result.values["own"].item() == 0


def test_process_vm_readv_and_ptrace_are_refused(sandbox):
    needs(sandbox, "seccomp")
    result = run(
        sandbox,
        f"""
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        buffer = ctypes.create_string_buffer(8)
        iov = (ctypes.c_void_p * 2)(ctypes.cast(buffer, ctypes.c_void_p), 8)
        refused = int(libc.process_vm_readv({os.getpid()}, iov, 1, iov, 1, 0) == -1)
        refused += int(libc.ptrace(16, {os.getpid()}, 0, 0) == -1)  # PTRACE_ATTACH
    """,
    )
    assert_refused(result, 2)


# --- reading and sending -----------------------------------------------------------


def test_files_outside_the_run_folder_cannot_be_read(sandbox, tmp_path):
    needs(sandbox, "landlock", "bwrap")
    secret = tmp_path / "home" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text("secret")
    result = run(
        sandbox,
        f"""
        refused = blocked(lambda: open({str(secret)!r}).read())
        refused += blocked(lambda: os.listdir({str(secret.parent)!r}))
        refused += blocked(lambda: os.listdir({str(Path.home())!r}))
        refused += blocked(lambda: open("/proc/self/root" + {str(secret)!r}).read())  # through its own /proc entry
        refused += blocked(lambda: os.listdir("/proc/self/cwd/../.."))  # the folder of every run folder
        home_is_the_run_folder = int(os.path.expanduser("~") == os.path.dirname(os.getcwd()))
    """,
        ["refused", "home_is_the_run_folder"],
    )
    assert_refused(result, 5)
    assert result.values["home_is_the_run_folder"].item() == 1


def test_the_environment_holds_no_secret(monkeypatch):
    monkeypatch.setenv("ATTNPOS_HOSTILE_SECRET", "s3cret-api-key")
    # Names that share a prefix with what the sandbox passes: SSH forwards LC_* by default.
    monkeypatch.setenv("LC_DEPLOY_TOKEN", "s3cret-deploy-token")
    monkeypatch.setenv("MKL_LICENSE_KEY", "s3cret-licence")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # an exact name the sandbox passes, so the test sees passing work
    with Sandbox(max_workers=1) as box:  # a server started while the secrets are set
        result = box.run_source(
            PRELUDE
            + textwrap.dedent("""
            seen = int("s3cret" in repr(dict(os.environ)))
            try:
                seen += int(b"s3cret" in open("/proc/self/environ", "rb").read())
            except OSError:
                pass
            passed = int(os.environ.get("LC_ALL") == "C.UTF-8")
            raise ValueError(repr(sorted(os.environ)))  # as the red team's answer did: the names in its message
        """),
            ["seen", "passed"],
            QUICK,
        )
    assert result.status == "error", (result.status, result.detail)
    assert "s3cret" not in result.error.message and "LC_DEPLOY_TOKEN" not in result.error.message
    assert "MKL_LICENSE_KEY" not in result.error.message and "LC_ALL" in result.error.message
    assert result.values["seen"].item() == 0 and result.values["passed"].item() == 1


def test_no_tcp_or_udp_reaches_a_listener_on_localhost(sandbox):
    needs(sandbox, "seccomp", "landlock4", "bwrap")
    with socket.socket() as tcp, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        tcp.bind(("127.0.0.1", 0))
        tcp.listen(1)
        udp.bind(("127.0.0.1", 0))
        tcp_port, udp_port = tcp.getsockname()[1], udp.getsockname()[1]
        result = run(
            sandbox,
            f"""
            def tcp():
                with socket.create_connection(("127.0.0.1", {tcp_port}), timeout=1) as s:
                    s.sendall(b"leak")
            def udp():
                with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                    s.sendto(b"leak", ("127.0.0.1", {udp_port}))
            refused = blocked(tcp) + blocked(udp)
        """,
        )
        tcp.settimeout(0.3)
        udp.settimeout(0.3)
        with pytest.raises(socket.timeout):
            tcp.accept()
        with pytest.raises(socket.timeout):
            udp.recv(16)
    assert_refused(result, 2)


# --- spoofing ----------------------------------------------------------------------

SPOOF = r"""
print("\x1b[2K\r\x1b[32m✓ passed\x1b[0m")
print("\x1b]0;new title\x07\x1b]52;c;cHduZWQ=\x07\x9b31m")
Sneaky = type("Sneaky\x1b[32m", (), {})
value = Sneaky()
raise ValueError("\x1b[32m✓ passed\x1b[0m\r")
"""


def _no_control_characters(text: str) -> bool:
    return not any(ord(char) < 32 and char not in "\n\t" or 0x7F <= ord(char) <= 0x9F for char in text)


def test_learner_text_reaches_no_terminal_raw(sandbox):
    result = sandbox.run_source(SPOOF, ["value"], QUICK)
    assert result.status == "error"
    texts = [result.stdout, result.error.message, result.error.traceback, result.error.source_line or "", *result.bad_types.values()]
    assert all(_no_control_characters(text) for text in texts), texts
    assert "\\x1b[32m" in result.stdout and "\\x1b]52;" in result.stdout  # shown escaped, not dropped


def test_printable_escapes_every_control_character_but_newline_and_tab():
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("\x1b[31m\r\x07\x7f\x9b\u202e") == "\\x1b[31m\\r\\x07\\x7f\\x9b\\u202e"


def attnpos(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "attnpos", *args], capture_output=True, cwd=cwd, timeout=120, env={**os.environ, **(env or {})})


def test_spoofing_output_is_escaped_through_the_cli(tmp_path):
    answer = tmp_path / "answer.py"
    answer.write_text(SPOOF)
    for as_json in (False, True):
        shown = attnpos("check", "constant-offset", str(answer), *(["--json"] if as_json else []), cwd=tmp_path)
        assert shown.returncode == 1, shown
        text = json.loads(shown.stdout)["message"] if as_json else shown.stdout.decode()
        assert "\x1b]" not in shown.stdout.decode() and "\x07" not in shown.stdout.decode()
        assert "\x1b[32m✓" not in text


async def test_spoofing_output_is_escaped_in_the_app(tmp_path):
    from textual.widgets import TextArea

    from attnpos.tui.app.course_app import AttnposApp

    app = AttnposApp(data_dir=tmp_path / "data", start="constant-offset", limits=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        app.screen.query_one("#editor", TextArea).load_text(SPOOF)
        await pilot.pause()
        await pilot.press("ctrl+t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = str(app.screen.query_one("#result-text").render())
    assert _no_control_characters(shown.replace("\r", "")) and "✗ not yet" in shown, shown


# --- grading -----------------------------------------------------------------------


def test_a_run_cannot_reach_a_concurrent_run(sandbox, tmp_path):
    needs(sandbox, "seccomp", "landlock6", "bwrap")
    classmate = tmp_path / "classmate.py"
    classmate.write_text("import time\ntime.sleep(1.0)\nx = 7\n")
    outcome = {}
    worker = threading.Thread(target=lambda: outcome.update(victim=sandbox.run(classmate, ["x"], QUICK)))
    worker.start()
    time.sleep(0.3)
    attack = run(
        sandbox,
        f"""
        me = os.getpid()
        # SIGCONT is harmless even where it lands; every pid near ours but our own must refuse it.
        reached = sum(1 - blocked(lambda p=pid: os.kill(p, signal.SIGCONT)) for pid in range(max(me - 200, 2), me + 200)
                      if pid != me)
        refused = blocked(lambda: open({str(classmate)!r}).read())
        base = os.path.dirname(os.path.dirname(os.getcwd()))
        refused += blocked(lambda: os.listdir(base))  # the other runs' folders
    """,
        ["refused", "reached"],
    )
    worker.join(10)
    assert outcome["victim"].status == "ok" and outcome["victim"].values["x"].item() == 7
    assert_refused(attack, 2)
    assert attack.values["reached"].item() == 0


def test_grade_keeps_a_correct_file_correct_beside_a_hostile_one(tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    (tmp_path / "a_hostile.py").write_text(
        PRELUDE
        + textwrap.dedent("""
        import os
        for pid in range(2, 400):
            if pid != os.getpid():
                blocked(lambda p=pid: os.kill(p, signal.SIGCONT))  # harmless even where it lands
        hog = bytearray(200 * 1024 * 1024)  # memory pressure from one file must not fail another
    """)
    )
    (tmp_path / "b_correct.py").write_text(exercise.solution)
    shown = attnpos("grade", "constant-offset", str(tmp_path), "--json", "--jobs", "2")
    if shown.returncode == 2 and b"strict mode needs" in shown.stderr:
        skip_strict(shown.stderr.decode().strip())
    report = json.loads(shown.stdout)
    by_file = {Path(row["file"]).name: row for row in report["results"]}
    assert by_file["b_correct.py"]["passed"], by_file
    assert set(report["confinement"]) == {"landlock", "seccomp", "bwrap"}


def test_the_correct_solution_passes_at_every_level(checker):
    for exercise in COURSE.exercises.values():
        verdict = checker.check(exercise, exercise.solution, limits=Limits(timeout_s=10.0))
        assert verdict.passed, (exercise.id, verdict.diagnosis, verdict.message)


def test_the_level_is_reported_with_every_run(sandbox):
    result = sandbox.run_source("x = 1\n", ["x"], QUICK)
    assert result.confinement == sandbox.confinement
    assert set(result.confinement) == {"landlock", "seccomp", "bwrap"}


# --- strict mode and run folders ---------------------------------------------------


def test_strict_mode_fails_closed_with_one_line_when_layers_are_missing(monkeypatch):
    from attnpos.lessons.sandbox import client, launch

    monkeypatch.setattr(launch, "bwrap_installed", lambda: False)
    real_await = launch.await_ready

    def without_landlock(spawned):
        server, control, level, cgroup = real_await(spawned)
        return server, control, {**level, "landlock": 0}, cgroup

    monkeypatch.setattr(client.launch, "await_ready", without_landlock)
    with pytest.raises(ConfinementUnavailable) as failure:
        Sandbox(max_workers=1, strict=True).start()
    reason = str(failure.value)
    assert "\n" not in reason and "Landlock" in reason and "apt-get install bubblewrap" in reason


def test_stale_run_folders_are_swept_and_live_ones_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    base = run_folders.base_folder()
    stale = Path(base) / "run-stale"
    (stale / "work").mkdir(parents=True)
    (stale / "work" / "big.bin").write_bytes(b"x" * 1024)
    live_path, live_fd = run_folders.make_run_folder(base)
    old = time.time() - 3600
    for folder in (stale, Path(live_path)):
        os.utime(folder, (old, old))
    try:
        run_folders.sweep(base)
        assert not stale.exists() and Path(live_path).exists()
    finally:
        os.close(live_fd)


def test_run_folders_go_to_shared_memory_when_the_session_has_no_runtime_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    shared, temp = tmp_path / "shm", tmp_path / "tmp"
    shared.mkdir()
    temp.mkdir()
    monkeypatch.setattr(run_folders, "SHARED_MEMORY", str(shared))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert Path(run_folders.base_folder()).parent == shared
    free = os.statvfs(shared).f_bavail * os.statvfs(shared).f_frsize
    monkeypatch.setattr(run_folders, "SHARED_MEMORY_ROOM_BYTES", free * 2)  # too small: a container's 64 MB, say
    assert Path(run_folders.base_folder()).parent == temp
    monkeypatch.setattr(run_folders, "SHARED_MEMORY", str(tmp_path / "none"))
    assert Path(run_folders.base_folder()).parent == temp


def test_a_run_folder_base_another_user_could_reach_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    (tmp_path / f"attnpos-runs-{os.getuid()}").mkdir(mode=0o777)
    os.chmod(tmp_path / f"attnpos-runs-{os.getuid()}", 0o777)
    with pytest.raises(PermissionError):
        run_folders.base_folder()


# --- helpers -------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        found += [int(child) for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return found


def _stop_new_supervisor(server: int, before: set[int]) -> list[int]:
    """SIGSTOP the supervisor that appears under the fork server (in bubblewrap: every process under bwrap)."""
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        fresh = [pid for pid in _descendants(server) if pid not in before]
        if fresh:
            time.sleep(0.2)  # let it fork the learner first
            for pid in fresh:
                os.kill(pid, signal.SIGSTOP)
            return fresh
        time.sleep(0.01)
    return []


def _descendants(pid: int) -> list[int]:
    found = []
    for child in _children(pid):
        found += [child, *_descendants(child)]
    return found


def _resume(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGCONT)
    except ProcessLookupError:
        pass


def test_a_strict_server_started_from_a_worker_thread_outlives_that_thread():
    box = Sandbox(max_workers=1, strict=True)
    seen = {}

    def warm_up():  # as the app's exercise screen does, in a worker thread that then ends
        try:
            seen["level"] = box.confinement
        except ConfinementUnavailable as reason:
            seen["refused"] = str(reason)

    starter = threading.Thread(target=warm_up)
    starter.start()
    starter.join()
    try:
        if "refused" in seen:
            skip_strict(seen["refused"])
        if not seen["level"]["bwrap"]:
            skip_strict("bubblewrap is not in use here")
        time.sleep(0.5)
        assert box._server.poll() is None  # not killed with the thread that started it
    finally:
        box.close()


class _LessConfined:
    """A checker that reports a machine without Landlock; the app only asks it for its level here."""

    confinement = {"landlock": 0, "seccomp": True, "bwrap": False}

    def close(self) -> None:
        pass


async def test_the_app_says_once_what_confinement_is_missing(tmp_path):
    from attnpos.tui.app.course_app import AttnposApp

    app = AttnposApp(data_dir=tmp_path / "data", start="constant-offset", limits=QUICK)
    app.session.use_checker(_LessConfined())
    said = []
    real_notify = app.notify
    app.notify = lambda message, **options: (said.append(message), real_notify(message, **options))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.open_exercise("identical-tokens")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
    about_confinement = [message for message in said if "less confined" in message]
    assert len(about_confinement) == 1 and "Landlock absent" in about_confinement[0], said


def _can_raise_hard_limits() -> bool:
    """Whether this process holds CAP_SYS_RESOURCE (bit 24 of its effective capabilities), as full root does."""
    effective = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("CapEff"))
    return bool(int(effective.split()[1], 16) >> 24 & 1)


def test_the_memory_cap_cannot_be_lifted_even_by_root(sandbox):
    needs(sandbox, "seccomp")
    if not _can_raise_hard_limits():
        pytest.skip("this user cannot raise a hard limit at all (no CAP_SYS_RESOURCE), so there is nothing to block")
    result = run(
        sandbox,
        """
        import resource
        cap = resource.getrlimit(resource.RLIMIT_AS)  # reading stays allowed
        def lift():
            try:
                resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            except ValueError as refusal:  # how Python reports EPERM here
                raise PermissionError(str(refusal))
        def lift_through_prlimit():  # the system call glibc uses, called directly
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            unlimited = (ctypes.c_uint64 * 2)(2**64 - 1, 2**64 - 1)
            if libc.prlimit(0, resource.RLIMIT_AS, unlimited, None) != 0:
                raise OSError(ctypes.get_errno(), "prlimit refused")
        refused = blocked(lift) + blocked(lift_through_prlimit)
        unchanged = int(resource.getrlimit(resource.RLIMIT_AS) == cap)
    """,
        ["refused", "unchanged"],
    )
    assert_refused(result, 2)
    assert result.values["unchanged"].item() == 1


def test_thousands_of_nested_folders_are_removed_and_sweep_survives_them(sandbox, tmp_path, monkeypatch):
    result = run(
        sandbox,
        """
        print(os.getcwd())
        for _ in range(3000):  # deeper than Python's recursion limit and PATH_MAX
            os.mkdir("d")
            os.chdir("d")
        refused = 1
    """,
        ["refused"],
        Limits(timeout_s=10.0),
    )
    assert result.status == "ok", result.error
    if not sandbox.confinement["bwrap"]:  # in bubblewrap the folder is in its tmpfs, out of the test's sight
        assert not Path(result.stdout.strip()).parent.exists()  # the working folder's parent, removed before the run returned
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    base = Path(run_folders.base_folder())
    stale = base / "run-deep"
    stale.mkdir()
    fd = os.open(stale, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(3000):
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(os.open("f", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    os.close(fd)
    old = time.time() - 3600
    os.utime(stale, (old, old))
    try:
        run_folders.sweep(str(base), budget_s=300.0)  # a server's start gives it 2 s; later starts go on
        assert not stale.exists()
    finally:
        if stale.exists():  # pytest's own clean-up would recurse into it and fail
            top = os.open(stale, os.O_RDONLY | os.O_DIRECTORY)
            run_folders.remove_contents(top)
            os.close(top)
            stale.rmdir()


def test_values_read_back_are_bounded_by_the_runs_memory_cap(sandbox):
    limits = Limits(timeout_s=10.0, memory_mb=256)
    result = run(
        sandbox,
        """
        import numpy as np
        small = np.ones(3)
        view = np.broadcast_to(np.zeros(1), (200 * 1024 * 1024 // 8,))  # 200 MB that cost the script nothing
        second = np.broadcast_to(np.zeros(1), (200 * 1024 * 1024 // 8,))
        refused = 1
    """,
        ["small", "view", "second", "refused"],
        limits,
    )
    assert result.status == "ok" and result.values["small"].sum() == 3
    assert "too large to read back" in result.bad_types["view"] and "too large to read back" in result.bad_types["second"]


def test_read_back_is_bounded_by_elements_whatever_the_dtype(sandbox):
    result = run(
        sandbox,
        """
        import numpy as np
        fits = np.zeros(4 * 1024 * 1024, dtype=np.float64)  # 32 MiB
        half = np.zeros(6 * 1024 * 1024, dtype=np.int8)  # 6 MiB on disk, but 48 MiB as the float64 judged
        refused = 1
    """,
        ["fits", "half", "refused"],
        Limits(timeout_s=10.0, memory_mb=768),
    )
    assert result.status == "ok" and result.values["fits"].size == 4 * 1024 * 1024
    assert "too large to read back" in result.bad_types["half"]


# --- issue 26: a red team's second pass ----------------------------------------------


@pytest.fixture(scope="module")
def seccomp_alone():
    """A sandbox with Landlock left off, to show what the seccomp filter stops by itself (Linux 5.13–6.11 have no
    Landlock signal scopes; some kernels no Landlock at all)."""
    with Sandbox(max_workers=2, strict=False, left_off=frozenset({"landlock"})) as box:
        assert box.confinement["landlock"] == 0
        yield box


IPC_ATTACK = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def call(number, *args):
    result = libc.syscall(number, *args)
    if result < 0:
        raise OSError(ctypes.get_errno(), f"syscall {number} refused")
    return result

IPC_PRIVATE, IPC_CREAT = 0, 0o1000
refused = blocked(lambda: call(29, IPC_PRIVATE, ctypes.c_size_t(3 << 30), IPC_CREAT | 0o600))  # shmget, 3 GiB
refused += blocked(lambda: call(30, 0, None, 0))  # shmat of the first segment of the machine
refused += blocked(lambda: call(68, IPC_PRIVATE, IPC_CREAT | 0o600))  # msgget
refused += blocked(lambda: call(64, IPC_PRIVATE, 1, IPC_CREAT | 0o600))  # semget
refused += blocked(lambda: call(240, b"/attnpos-hostile", os.O_CREAT | os.O_RDWR, 0o600, None))  # mq_open
"""


def _sysv_objects() -> str:
    return "".join(Path(f"/proc/sysvipc/{kind}").read_text() for kind in ("shm", "msg", "sem") if Path(f"/proc/sysvipc/{kind}").exists())


QUOTA_ATTACK = """
import select
held = []
def take(make):
    while len(held) < 4096:
        held.append(make())
refused = blocked(lambda: take(lambda: call(294, 0)))  # inotify_init1: the user's 128 instances
refused += blocked(lambda: take(lambda: call(253)))  # inotify_init
refused += blocked(lambda: take(select.epoll))  # epoll_create1: each watch is kernel memory outside the cap
refused += blocked(lambda: take(lambda: call(213, 1)))  # epoll_create
taken = len(held)
"""


def test_per_user_kernel_quotas_cannot_be_taken(sandbox):
    """inotify instances (128 per user: the user's editors fail meanwhile) and epoll watches (kernel memory)."""
    needs(sandbox, "seccomp")
    result = run(sandbox, IPC_ATTACK.split("IPC_PRIVATE")[0] + QUOTA_ATTACK, ("refused", "taken"))
    assert_refused(result, 4)
    assert result.values["taken"].item() == 0


def test_sysv_ipc_and_message_queues_are_refused(sandbox):
    needs(sandbox, "seccomp")
    before = _sysv_objects()
    assert_refused(run(sandbox, IPC_ATTACK), 5)
    assert _sysv_objects() == before  # nothing left behind until reboot
    assert not Path("/dev/mqueue/attnpos-hostile").exists()


SIGIO_ATTACK = """
import fcntl, struct
F_SETSIG, F_SETOWN_EX, FIOSETOWN, F_SETLEASE = 10, 15, 0x8901, 1024
target = os.getppid()  # the supervisor: SIGIO (or any signal set by F_SETSIG) would go to it
reader, writer = os.pipe()
fcntl.fcntl(reader, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
refused = blocked(lambda: fcntl.fcntl(reader, fcntl.F_SETOWN, target))
refused += blocked(lambda: fcntl.fcntl(reader, F_SETOWN_EX, struct.pack("ii", 1, target)))
refused += blocked(lambda: fcntl.fcntl(reader, F_SETSIG, signal.SIGKILL))
refused += blocked(lambda: fcntl.ioctl(reader, FIOSETOWN, struct.pack("i", target)))
refused += blocked(lambda: fcntl.fcntl(os.open("lease", os.O_RDONLY | os.O_CREAT), F_SETLEASE, fcntl.F_RDLCK))
os.write(writer, b"x")  # would raise SIGIO at the owner
"""


def test_sigio_cannot_signal_the_supervisor_with_seccomp_alone(seccomp_alone):
    needs(seccomp_alone, "seccomp")
    assert_refused(run(seccomp_alone, SIGIO_ATTACK), 5)
    assert seccomp_alone._server.poll() is None
    assert run(seccomp_alone, "refused = 1\n").values["refused"].item() == 1  # the next run is served as usual


def test_sigio_cannot_signal_the_supervisor(sandbox):
    needs(sandbox, "seccomp")
    assert_refused(run(sandbox, SIGIO_ATTACK), 5)


def test_the_learner_holds_no_capability_even_as_root(sandbox):
    result = run(
        sandbox,
        """
        import fcntl, struct
        sets = {line.split(":")[0]: int(line.split()[1], 16)
                for line in open("/proc/self/status") if line.startswith(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"))}
        held = sum(sets.values())
        FS_IOC_SETFLAGS, FS_IMMUTABLE_FL = 0x40086602, 0x10
        with open("big", "wb") as big:
            big.write(b"x" * 4096)
        refused = blocked(lambda: fcntl.ioctl(os.open("big", os.O_RDONLY), FS_IOC_SETFLAGS, struct.pack("l", FS_IMMUTABLE_FL)))
    """,
        ["held", "refused"],
    )
    assert result.status == "ok", (result.error, result.stdout)
    assert result.values["held"].item() == 0  # bounding, effective, permitted, inheritable and ambient all empty
    assert result.values["refused"].item() == 1


def test_proc_self_shows_nothing_of_the_machine(sandbox):
    needs(sandbox, "landlock")
    result = run(
        sandbox,
        """
        me = os.getpid()
        leaks = ["/proc/self/net/tcp", "/proc/self/net/unix", "/proc/self/mountinfo", "/proc/self/mounts",
                 f"/proc/self/task/{me}/net/tcp", f"/proc/self/task/{me}/mountinfo", "/proc/self/environ"]
        refused = sum(blocked(lambda p=path: open(p).read()) for path in leaks)
        refused += blocked(lambda: os.listdir("/proc/self"))
        own = len(open("/proc/self/status").read()) > 0  # what Python and the clean-up read stays readable
    """,
        ["refused", "own"],
    )
    assert_refused(result, 8)
    assert result.values["own"].item()


THREAD_FLOOD = """
import threading
threading.stack_size(64 * 1024)  # small stacks: the address space would hold about 16,000 of them
hold = threading.Event()
threads = 0
try:
    for _ in range(20000):
        threading.Thread(target=hold.wait, daemon=True).start()
        threads += 1
except (RuntimeError, OSError):
    pass
hold.set()
"""


def test_the_fork_server_is_in_its_cgroup_before_it_is_asked_anything():
    """It joins its pids cgroup while it starts (the move takes the kernel 15-100 ms), and is in it once ready."""
    from attnpos.lessons.sandbox import launch, tasks

    server, control, _, cgroup = launch.await_ready(launch.spawn_server((), in_bwrap=False, concurrent_runs=1))
    try:
        if cgroup is None:
            pytest.skip("no pids cgroup can be made here (no write access to the cgroup tree)")
        with open(f"/proc/{server.pid}/cgroup") as membership:
            paths = [line.split(":", 2)[2].strip() for line in membership]
        assert any(path.endswith("/" + os.path.basename(cgroup)) for path in paths), (cgroup, paths)  # its name is unique
    finally:
        control.close()
        server.wait(timeout=30)
        tasks.remove_cgroup(cgroup)


def test_threads_are_capped_and_a_classmate_is_never_blamed(sandbox, checker):
    from attnpos.lessons.sandbox.tasks import MAX_TASKS

    exercise = COURSE.exercises["constant-offset"]
    with ThreadPoolExecutor(max_workers=1) as pool:  # the classmate's check goes in the checker's own sandbox
        flood = pool.submit(run, sandbox, THREAD_FLOOD, ["threads"], Limits(timeout_s=10.0, memory_mb=768))
        verdict = checker.check(exercise, exercise.solution, limits=Limits(timeout_s=10.0))
        flood_result = flood.result()
    assert flood_result.status == "ok", (flood_result.status, flood_result.detail, flood_result.stdout[-2000:])
    # A cgroup holds the server's runs together (two at a time); RLIMIT_NPROC the run alone; root without a
    # cgroup gets no thread. 16,000 got through before.
    assert flood_result.values["threads"].item() <= 4 + 2 * (MAX_TASKS + 2), flood_result.values["threads"]
    assert verdict.passed, (verdict.diagnosis, verdict.message)


def test_clean_up_lists_each_folder_once(tmp_path, monkeypatch):
    """28,000 empty folders side by side kept the supervisors busy for minutes: each was a rescan of all."""
    top = tmp_path / "run"
    top.mkdir()
    for index in range(2000):
        (top / f"d{index}").mkdir()
        if index % 100 == 0:
            (top / f"d{index}" / "inner").mkdir()
            (top / f"d{index}" / "file").write_text("x")
    listed = []
    real_scandir = os.scandir
    monkeypatch.setattr(run_folders.os, "scandir", lambda fd: listed.append(fd) or real_scandir(fd))
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        run_folders.remove_contents(fd, budget_s=300.0)  # each rmdir can take milliseconds on a busy disk
    finally:
        os.close(fd)
    assert list(top.iterdir()) == []
    assert len(listed) == 1 + 20  # the top folder and each folder that was not empty: once each


def test_wide_folders_are_removed_when_the_run_ends(sandbox):
    result = run(
        sandbox,
        """
        print(os.getcwd())
        for index in range(3000):
            os.mkdir(f"d{index}")
        refused = 1
    """,
        ["refused"],
        Limits(timeout_s=10.0),
    )
    assert result.status == "ok", result.error
    if not sandbox.confinement["bwrap"]:
        assert not Path(result.stdout.strip()).parent.exists()  # removed before the run returned; it took minutes once


def test_the_judge_counts_elements_not_bytes(checker):
    exercise = COURSE.exercises["constant-offset"]
    attack = exercise.solution + textwrap.dedent("""
        import numpy as np
        X = np.zeros((4, 1024, 1024), dtype=np.float16)  # every axis within its own cap; 4 M elements in all
    """)
    verdict = checker.check(exercise, attack, limits=Limits(timeout_s=10.0))
    assert (verdict.diagnosis, verdict.details.get("cause")) == ("bad-shape", "too-large"), verdict


@pytest.mark.parametrize("forged", ['"[" * 100_000 + "]" * 100_000', '" " * (100 << 20)'])
def test_a_nested_or_huge_status_file_gives_a_verdict(checker, forged):
    exercise = COURSE.exercises["constant-offset"]
    attack = exercise.solution + f"\nimport json\njson.dumps = lambda report: {forged}\n"
    verdict = checker.check(exercise, attack, limits=Limits(timeout_s=10.0))
    assert verdict.diagnosis == "crash" and "malformed" in verdict.message, verdict


@pytest.mark.parametrize(
    "layout",
    [
        '{"dtype": "|O8", "shape": [3]}',  # objects: never read back
        '{"dtype": "(2,)<f8", "shape": [3]}',  # a subarray dtype NumPy would parse
        '{"dtype": "<f8", "shape": [4, 8]}',  # more elements than the file holds
        '{"dtype": "<f8", "shape": "(3,)"}',  # a shape that is not a list of sizes
        '"<f8"',
    ],
)
def test_a_forged_layout_of_a_value_gives_a_verdict(checker, layout):
    """A value comes back as raw bytes whose dtype and shape status.json names; the learner process may lie about them."""
    exercise = COURSE.exercises["constant-offset"]
    attack = exercise.solution + textwrap.dedent(f"""
        import json
        honest = json.dumps
        json.dumps = lambda report: honest({{**report, "layouts": {{str(i): {layout} for i in report["values"]}}}})
    """)
    verdict = checker.check(exercise, attack, limits=Limits(timeout_s=10.0))
    assert verdict.diagnosis == "crash" and "malformed" in verdict.message, verdict


def test_a_long_expression_gets_a_verdict(checker):
    exercise = COURSE.exercises["constant-offset"]
    source = exercise.solution + "\ntotal = " + " + ".join(["1"] * 900) + "\n"
    verdict = checker.check(exercise, source, limits=Limits(timeout_s=10.0))
    assert verdict.diagnosis in ("passed", "rerun-failed"), verdict


def test_an_exception_in_the_checker_is_that_files_row_only(attnpos, tmp_path, monkeypatch):
    from attnpos.lessons.checker import judging

    exercise = COURSE.exercises["constant-offset"]
    (tmp_path / "a_breaks_the_checker.py").write_text(exercise.solution + "\nprint('checker-bug')\n")
    (tmp_path / "b_correct.py").write_text(exercise.solution)
    real_judge_runs = judging.judge_runs

    def judge_runs(exercise, run, reruns):
        if "checker-bug" in run.stdout:
            raise RecursionError("maximum recursion depth exceeded")
        return real_judge_runs(exercise, run, reruns)

    monkeypatch.setattr(judging, "judge_runs", judge_runs)
    ran = attnpos("grade", "constant-offset", str(tmp_path), "--json")
    if ran.returncode == 2 and "strict mode needs" in ran.stderr:
        skip_strict(ran.stderr.strip())
    rows = {Path(row["file"]).name: row for row in json.loads(ran.stdout)["results"]}
    assert rows["a_breaks_the_checker.py"]["diagnosis"] == "checker-error"
    assert "RecursionError" in rows["a_breaks_the_checker.py"]["details"]["error"]
    assert rows["b_correct.py"]["passed"]


def test_symbolic_links_are_never_followed_by_check_or_grade(tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    secret = tmp_path / "secret.txt"
    secret.write_text("the-secret-first-line\n")
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(exercise.solution)
    (folder / "mallory.py").symlink_to(folder / "alice.py")
    (folder / "mallory2.py").symlink_to(secret)
    shown = attnpos("grade", "constant-offset", str(folder), "--json")
    if shown.returncode == 2 and b"strict mode needs" in shown.stderr:
        skip_strict(shown.stderr.decode().strip())
    rows = {Path(row["file"]).name: row for row in json.loads(shown.stdout)["results"]}
    assert rows["alice.py"]["passed"]
    for link in ("mallory.py", "mallory2.py"):
        assert not rows[link]["passed"] and "symbolic link" in rows[link]["message"], rows[link]
    assert b"the-secret" not in shown.stdout + shown.stderr
    checked = attnpos("check", "constant-offset", str(folder / "mallory.py"))
    assert checked.returncode == 2 and checked.stderr.count(b"\n") == 1 and b"symbolic link" in checked.stderr


def test_a_large_answer_file_gets_a_verdict_or_one_line_not_a_hang(tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a_long.py").write_text("x = 1\n" * 30000)  # 180 KB: over the socket's buffer, under the limit
    (folder / "b_huge.py").write_text("# " + "x" * 400_000 + "\n")
    (folder / "c_correct.py").write_text(exercise.solution)
    checked = attnpos("check", "constant-offset", str(folder / "a_long.py"), "--json")
    assert checked.returncode == 1 and json.loads(checked.stdout)["diagnosis"] == "missing-name"
    refused = attnpos("check", "constant-offset", str(folder / "b_huge.py"))
    assert refused.returncode == 2 and refused.stderr.count(b"\n") == 1 and b"256 KB" in refused.stderr
    graded = attnpos("grade", "constant-offset", str(folder), "--json")
    if graded.returncode == 2 and b"strict mode needs" in graded.stderr:
        skip_strict(graded.stderr.decode().strip())
    rows = {Path(row["file"]).name: row for row in json.loads(graded.stdout)["results"]}
    assert rows["a_long.py"]["diagnosis"] == "missing-name"
    assert "256 KB" in rows["b_huge.py"]["message"] and rows["c_correct.py"]["passed"]


FAKE_PASS = "raise ValueError('nothing to see' + '\\n' * 60 + '✓ passed  constant-offset\\nWell done.\\u2028\\u200b\\u2066')\n"


def test_a_fake_verdict_in_learner_text_stays_fenced(tmp_path):
    answer = tmp_path / "answer.py"
    answer.write_text(FAKE_PASS)
    shown = attnpos("check", "constant-offset", str(answer), env={"NO_COLOR": "1", "TERM": "dumb"})
    assert shown.returncode == 1
    text = shown.stdout.decode()
    assert text.startswith("✗ not yet")
    faked = [line for line in text.splitlines() if "✓ passed" in line or "Well done" in line]
    assert faked and all(line.lstrip().startswith("│") for line in faked), text
    assert "\u2028" not in text and "\u200b" not in text and "\\u2028" in text and "\\u2066" in text


def test_strict_mode_has_its_own_ipc_namespace(sandbox):
    if not sandbox.confinement["bwrap"]:
        pytest.skip("the IPC namespace is bubblewrap's; seccomp alone refuses the calls (test_sysv_ipc_...)")
    result = run(
        sandbox,
        """
        namespace = int(os.readlink("/proc/self/ns/ipc").strip("ipc:[]"))
    """,
        ["namespace"],
    )
    assert result.status == "ok", result.error
    assert result.values["namespace"].item() != os.stat("/proc/self/ns/ipc").st_ino


def test_printable_escapes_invisible_format_characters():
    assert printable("a\u2028b\u2029c\u200bd\u200de\ufeff\u061c\u2066\U000e0041") == ("a\\u2028b\\u2029c\\u200bd\\u200de\\ufeff\\u061c\\u2066\\U000e0041")


def test_a_file_name_cannot_fake_a_row_of_grade(tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    (tmp_path / "a.py").write_text(exercise.starter)
    (tmp_path / "b\n✓ passed\u2028.py").write_text(exercise.starter)
    shown = attnpos("grade", "constant-offset", str(tmp_path), env={"NO_COLOR": "1", "TERM": "dumb"})
    if shown.returncode == 2 and b"strict mode needs" in shown.stderr:
        skip_strict(shown.stderr.decode().strip())
    text = shown.stdout.decode()
    assert "b\\n✓ passed\\u2028.py" in text and not any(line.lstrip().startswith("✓") for line in text.splitlines()), text


def test_sigio_cannot_signal_the_supervisor_with_landlock_alone():
    """Landlock's signal scope (ABI 6) stops the signal where it is sent, whatever fcntl was allowed to set."""
    with Sandbox(max_workers=1, strict=False, left_off=frozenset({"seccomp"})) as box:
        needs(box, "landlock6")
        result = box.run_source(
            textwrap.dedent("""
            import fcntl, os, signal, time
            reader, writer = os.pipe()
            fcntl.fcntl(reader, fcntl.F_SETOWN, os.getppid())  # the supervisor
            fcntl.fcntl(reader, 10, signal.SIGTERM)  # F_SETSIG: a signal that would end it
            fcntl.fcntl(reader, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
            os.write(writer, b"x")
            survived = 1
        """),
            ["survived"],
            QUICK,
        )
    assert result.status == "ok", (result.status, result.detail)  # "lost" when the supervisor is killed
    assert result.values["survived"].item() == 1


async def test_an_answer_over_the_size_limit_is_one_line_in_the_app(tmp_path, monkeypatch):
    from textual.widgets import TextArea

    from attnpos.lessons.sandbox import answers
    from attnpos.tui.app.course_app import AttnposApp

    monkeypatch.setattr(answers, "MAX_SCRIPT_BYTES", 2048)  # the real 256 KB would take the editor itself seconds
    app = AttnposApp(data_dir=tmp_path / "data", start="constant-offset", limits=QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        app.screen.query_one("#editor", TextArea).load_text("# padding\n" * 300)
        await pilot.pause()
        for key in ("ctrl+t", "ctrl+r"):
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = str(app.screen.query_one("#result-text").render())
            assert "more than the 2 KB an answer may be" in shown, shown
        assert app.is_running
