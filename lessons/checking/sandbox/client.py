"""The app's side of the sandbox: the warm fork server, runs and their cancelling, the output drain."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from .processes import kill_group
from .protocol import recv_frame, send_frame
from .results import Limits, RunResult, build_result, read_results

# Extra time the app waits for the supervisor's report before it kills the run itself.
_BACKSTOP_GRACE_S = 5.0
# How long the app waits for the output pipe to close once the run has ended.
_DRAIN_WAIT_S = 2.0
# One BLAS thread: the fork server must stay single-threaded to fork safely.
_SINGLE_THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_SERVER_BOOT = (
    "import sys; from attnpos.lessons.checking.sandbox.server import serve; serve(int(sys.argv[1]), sys.argv[2:])"
)


class CancelToken:
    """Stops the runs it is passed to; thread-safe.

    Cancelling kills the run's whole process tree and makes the run return
    status "cancelled". A token cancelled before the run starts cancels it
    at once. A token can be shared by several runs.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._runs: set[_ActiveRun] = set()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` has been called."""
        return self._cancelled

    def cancel(self) -> None:
        """Stop every run using this token, now and later."""
        with self._lock:
            self._cancelled = True
            runs = list(self._runs)
        for run in runs:
            run.cancel()

    def _attach(self, run: _ActiveRun) -> None:
        with self._lock:
            self._runs.add(run)
            cancelled = self._cancelled
        if cancelled:
            run.cancel()

    def _detach(self, run: _ActiveRun) -> None:
        with self._lock:
            self._runs.discard(run)


class Sandbox:
    """A warm fork server and the runs forked from it.

    Use it as a context manager, or call :meth:`close` when done; the server
    starts on entry (or on the first run) and is restarted if it dies.
    :meth:`run` is thread-safe; at most ``max_workers`` runs go at once and
    further callers wait for a free slot. ``preload`` names the modules the
    server imports once so that runs need not.
    """

    def __init__(self, max_workers: int = 4, preload: Sequence[str] = ("numpy", "attnpos.core", "attnpos.lessons.checking.substitutes")) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self._slots = threading.BoundedSemaphore(max_workers)
        self._preload = tuple(preload)
        self._lock = threading.Lock()
        self._server: subprocess.Popen | None = None
        self._control: socket.socket | None = None
        self._active: set[_ActiveRun] = set()

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the fork server if it is not running (runs do this themselves)."""
        with self._lock:
            self._ensure_server()

    def close(self) -> None:
        """Cancel running runs and stop the fork server."""
        self.cancel()
        with self._lock:
            server, control = self._server, self._control
            self._server = self._control = None
        if control is not None:
            control.close()  # the server exits when its control socket closes
        if server is not None:
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    def cancel(self) -> None:
        """Cancel every run in progress (status "cancelled")."""
        with self._lock:
            runs = list(self._active)
        for run in runs:
            run.cancel()

    def run(
        self, path: str | os.PathLike, names: Sequence[str], limits: Limits = Limits(),
        cancel: CancelToken | None = None,
    ) -> RunResult:
        """Run the script at ``path`` and read back the module-level ``names``.

        The script runs as ``__main__`` with ``__file__`` = its absolute path,
        ``sys.argv = [path]``, its folder first on ``sys.path``, no stdin and a
        fresh empty working folder that is removed afterwards. Its ``atexit``
        handlers and leftover threads are not waited for. ``cancel`` stops
        the run from another thread. Duplicate names are read once.
        Raises FileNotFoundError if ``path`` is not a file, TypeError if a
        name is not a str.
        """
        script = Path(path).resolve()
        if not script.is_file():
            raise FileNotFoundError(f"no script at {script}")
        if not all(isinstance(name, str) for name in names):
            raise TypeError(f"names must be strings: {names!r}")
        wanted = tuple(dict.fromkeys(names))
        with self._slots:
            root = Path(tempfile.mkdtemp(prefix="attnpos-run-"))
            try:
                return self._run_in(root, script, wanted, limits, cancel)
            finally:
                shutil.rmtree(root, ignore_errors=True)

    def run_source(
        self, source: str, names: Sequence[str], limits: Limits = Limits(), filename: str = "answer.py",
        cancel: CancelToken | None = None,
    ) -> RunResult:
        """Like :meth:`run`, for source text saved as ``filename`` in a temporary folder."""
        if not filename or Path(filename).name != filename:
            raise ValueError(f"filename must be a plain file name, not {filename!r}")
        with tempfile.TemporaryDirectory(prefix="attnpos-src-") as folder:
            script = Path(folder) / filename
            script.write_text(source, encoding="utf-8")
            return self.run(script, names, limits, cancel)

    # -- one run

    def _run_in(
        self, root: Path, script: Path, names: tuple[str, ...], limits: Limits, cancel: CancelToken | None,
    ) -> RunResult:
        token = secrets.token_hex(16)
        workdir = root / "work"
        workdir.mkdir()
        results_dir = root / f"results-{token}"
        request = {
            "script": str(script), "names": list(names), "timeout_s": limits.timeout_s,
            "memory_mb": limits.memory_mb, "workdir": str(workdir), "results": str(results_dir), "token": token,
        }
        started = time.monotonic()
        read_end, write_end = os.pipe()
        try:
            conn = self._open_supervisor(write_end, request)
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        drain = _OutputDrain(read_end, limits.output_cap)
        with conn, self._tracked(_ActiveRun(conn), cancel):
            end = _await_end(conn, limits.timeout_s + _BACKSTOP_GRACE_S)
        duration = time.monotonic() - started
        # Only a learner that exited 0 on its own got past writing its results.
        finished = end["ended"] == "exited" and end["exit_code"] == 0
        results = read_results(results_dir, token, names) if finished else None
        return build_result(end, results, names, limits, drain.text(_DRAIN_WAIT_S), duration)

    def _open_supervisor(self, output_fd: int, request: dict) -> socket.socket:
        """Ask the fork server for a supervisor with ``request`` waiting for it; return our socket to it."""
        ours, theirs = socket.socketpair()
        try:
            send_frame(ours, request)  # queued before anyone can cancel, so a cancel always follows it
            with self._lock:
                try:
                    socket.send_fds(self._ensure_server(), [b"r"], [theirs.fileno(), output_fd])
                except OSError:  # the server died since the last run: start a new one
                    self._stop_server_locked()
                    socket.send_fds(self._ensure_server(), [b"r"], [theirs.fileno(), output_fd])
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return ours

    @contextmanager
    def _tracked(self, run: _ActiveRun, cancel: CancelToken | None) -> Iterator[None]:
        """Make the run reachable by :meth:`cancel` and by its token while it runs."""
        with self._lock:
            self._active.add(run)
        if cancel is not None:
            cancel._attach(run)
        try:
            yield
        finally:
            run.finish()
            if cancel is not None:
                cancel._detach(run)
            with self._lock:
                self._active.discard(run)

    # -- the fork server

    def _ensure_server(self) -> socket.socket:
        """The control socket of a live server, starting one if needed; caller holds the lock."""
        if self._server is not None and self._server.poll() is not None:
            self._stop_server_locked()
        if self._control is None:
            self._server, self._control = _start_server(self._preload)
        return self._control

    def _stop_server_locked(self) -> None:
        if self._control is not None:
            self._control.close()
        if self._server is not None:
            self._server.kill()
            self._server.wait()
        self._server = self._control = None


def run_script(
    path: str | os.PathLike, names: Sequence[str], limits: Limits = Limits(), cancel: CancelToken | None = None,
) -> RunResult:
    """Run a script in the shared default :class:`Sandbox` (see :meth:`Sandbox.run`)."""
    return _default_sandbox().run(path, names, limits, cancel)


def run_source(
    source: str, names: Sequence[str], limits: Limits = Limits(), filename: str = "answer.py",
    cancel: CancelToken | None = None,
) -> RunResult:
    """Run source text in the shared default :class:`Sandbox` (see :meth:`Sandbox.run_source`)."""
    return _default_sandbox().run_source(source, names, limits, filename, cancel)


_default: Sandbox | None = None
_default_lock = threading.Lock()


def _default_sandbox() -> Sandbox:
    global _default
    with _default_lock:
        if _default is None:
            _default = Sandbox()
            atexit.register(_default.close)
        return _default



class _ActiveRun:
    """A run in progress, as far as cancelling it goes."""

    def __init__(self, conn: socket.socket) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self._finished = False

    def cancel(self) -> None:
        # Shutting our sending side gives the supervisor an EOF, which it treats as "kill the run".
        with self._lock:
            if not self._finished:
                try:
                    self._conn.shutdown(socket.SHUT_WR)
                except OSError:
                    pass

    def finish(self) -> None:
        with self._lock:
            self._finished = True


def _start_server(preload: tuple[str, ...]) -> tuple[subprocess.Popen, socket.socket]:
    """Start the fork server; return it and the control socket that feeds it requests."""
    ours, theirs = socket.socketpair()
    with theirs:
        server = subprocess.Popen(
            [sys.executable, "-c", _SERVER_BOOT, str(theirs.fileno()), *preload],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,  # keep the terminal's Ctrl-C away from it
            env={**os.environ, **_SINGLE_THREAD_ENV},
        )
    ready = server.stdout.readline()
    if ready != b"ready\n":
        complaint = server.stderr.read().decode(errors="replace")
        server.wait()
        ours.close()
        raise RuntimeError(f"the sandbox's fork server did not start:\n{complaint}")
    server.stdout.close()
    server.stderr.close()
    return server, ours


def _await_end(conn: socket.socket, patience_s: float) -> dict:
    """Wait for the supervisor's report of how the learner ended.

    If the report never comes (the supervisor was killed or hangs), kill the
    learner's process group ourselves and report "timeout" or "lost".
    """
    conn.settimeout(patience_s)
    pid = None
    ended = "lost"
    try:
        hello = recv_frame(conn)
        if hello is not None:
            pid = hello["pid"]
            end = recv_frame(conn)
            if end is not None:
                return end
    except socket.timeout:
        ended = "timeout"
    except OSError:
        pass
    kill_group(pid)
    return {"ended": ended, "exit_code": None, "signal": None}


class _OutputDrain:
    """Reads a pipe to its end in a thread, keeping the first ``cap`` bytes and counting the rest."""

    def __init__(self, fd: int, cap: int) -> None:
        self._pipe = open(fd, "rb", buffering=0)
        self._cap = cap
        self._kept = bytearray()
        self._dropped = 0
        self._thread = threading.Thread(target=self._pump, name="sandbox-output", daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        with self._pipe:
            while chunk := self._pipe.read(1 << 16):
                room = max(self._cap - len(self._kept), 0)
                self._kept += chunk[:room]
                self._dropped += max(len(chunk) - room, 0)

    def text(self, wait_s: float) -> str:
        """The output so far, waiting up to ``wait_s`` for the pipe to close (a stray writer may keep it open)."""
        self._thread.join(wait_s)
        text = bytes(self._kept).decode("utf-8", errors="replace")
        if self._dropped:
            text += f"\n[… {_size(self._dropped)} of output dropped]\n"
        return text


def _size(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
