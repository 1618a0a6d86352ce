"""Run a learner's exercise script in a disposable, limited process.

A checker calls :func:`run_script` (or :meth:`Sandbox.run`) with the names it
wants to judge and gets back a :class:`RunResult` made only of plain data:
NumPy arrays read with ``allow_pickle=False``, strings and numbers.

How a run works (Linux; needs ``os.pidfd_open``, Linux 5.3+)
-------------------------------------------------------------
* A :class:`Sandbox` starts one **fork server**: a long-lived helper
  interpreter that has already imported NumPy and ``attnpos.core`` (BLAS
  pinned to one thread, so the helper stays single-threaded and safe to
  fork). Every run is forked from it, which skips the interpreter and NumPy
  start-up a cold ``python`` pays.
* Per run the app makes a socket pair and an output pipe and hands one end of
  each to the server (``socket.send_fds``). The server forks a **supervisor**
  (trusted sandbox code, no limits) and goes back to waiting.
* The supervisor marks itself a child subreaper (``PR_SET_CHILD_SUBREAPER``),
  so every process the learner starts stays its descendant even after a
  double fork or ``setsid``. It then forks the **learner process**, which
  starts its own session, points fds 1 and 2 at the output pipe and fd 0 at
  ``/dev/null``, sets ``RLIMIT_AS``/``RLIMIT_FSIZE`` to ``memory_mb`` and
  ``RLIMIT_CORE`` to 0, moves into a fresh empty working folder and runs the
  script as ``__main__``.
* The supervisor waits on a pidfd, the wall-clock deadline and the socket (a
  cancel, or the app going away, shows up there). When the learner ends, for
  any reason, the supervisor SIGKILLs the learner's process group, then
  SIGKILLs and reaps every remaining descendant (found in ``/proc``) until
  none is left, and reports how the learner ended over the socket.
* The app drains the pipe in a thread, keeping the first ``output_cap``
  bytes and counting the rest, so a print flood neither stalls the run nor
  fills memory. It removes the run's temporary folder afterwards.

How results travel
------------------
After the script's code has returned, the learner process creates a results
folder whose name holds a random token it received over the socket (not via
argv, environment or its working folder), writes each requested numeric
value with ``np.save(allow_pickle=False)`` and then, last, ``status.json``
carrying the token. The app reads only that folder, only plain files, with
``np.load(allow_pickle=False)`` and ``json.loads``, and accepts only numeric
dtypes. Nothing from the learner's process is unpickled or executed, and
nothing it prints affects the status.

Limits of these guarantees
--------------------------
The learner's code runs as the same user as the app. Against a deliberately
malicious script the result channel is best-effort: code that digs the token
out of the sandbox's own stack frames can forge a results folder, and it can
signal any process of the user (the supervisor, the fork server, the app).
Threads the script started keep running while the results are written.
Descendants are reaped in rounds; a fork bomb racing that loop may outlive
it. There are no per-run limits on process count, CPU share or network. A
file bigger than ``memory_mb`` cannot be written (SIGXFSZ, a "crash"). A
folder the script made unwritable may be left in the temp directory. macOS is
not supported (no pidfd, no subreaper, no ``/proc``).
"""

from __future__ import annotations

import atexit
import builtins
import ctypes
import importlib
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from select import select
from typing import Iterator, Sequence

import numpy as np

__all__ = [
    "STATUSES", "Limits", "ErrorInfo", "RunResult", "CancelToken", "Sandbox", "run_script", "run_source",
]

STATUSES = ("ok", "error", "crash", "timeout", "memory", "cancelled")

# Extra time the app waits for the supervisor's report before it kills the run itself.
_BACKSTOP_GRACE_S = 5.0
# How long the app waits for the output pipe to close once the run has ended.
_DRAIN_WAIT_S = 2.0
# Rounds of "kill every child, reap it" before the supervisor gives up on a fork bomb.
_MAX_KILL_ROUNDS = 200
_PR_SET_CHILD_SUBREAPER = 36
# One BLAS thread: the fork server must stay single-threaded to fork safely.
_SINGLE_THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_SERVER_BOOT = "import sys; from attnpos.lessons.sandbox import _serve; _serve(int(sys.argv[1]), sys.argv[2:])"
_NUMERIC_KINDS = "biufc"
_ARRAY_KIND_NAMES = {
    "O": "object array", "U": "str array", "S": "bytes array", "M": "datetime64 array",
    "m": "timedelta64 array", "V": "structured array",
}
_MAX_TEXT = 2000  # longest error message or type description kept from the learner


# ---------------------------------------------------------------- public API


@dataclass(frozen=True)
class Limits:
    """What one run may use.

    ``timeout_s``: wall-clock seconds before the run is killed ("timeout").
    ``memory_mb``: address-space cap of the learner process (``RLIMIT_AS``),
    including the roughly 100 MB the interpreter and NumPy already map; also
    the largest file it may write. ``output_cap``: bytes of stdout+stderr kept.
    """

    timeout_s: float = 10.0
    memory_mb: int = 1024
    output_cap: int = 64 * 1024

    def __post_init__(self) -> None:
        if self.timeout_s <= 0 or self.memory_mb <= 0 or self.output_cap < 0:
            raise ValueError(f"limits must be positive: {self}")


@dataclass(frozen=True)
class ErrorInfo:
    """The Python exception that stopped the script.

    ``type`` is the exception class name, ``message`` its text. ``line`` and
    ``source_line`` point at the innermost frame *of the learner's file* (for
    a SyntaxError, the offending line); both are None when no frame of that
    file was involved. ``traceback`` shows the learner's frames only, never
    the sandbox's.
    """

    type: str
    message: str
    line: int | None
    source_line: str | None
    traceback: str


@dataclass(frozen=True)
class RunResult:
    """What a run produced, as plain data.

    ``status`` is one of :data:`STATUSES`:

    * "ok": the script ran to its end (or called ``sys.exit(0)``/``sys.exit()``).
    * "error": it raised an exception, or called ``sys.exit`` with a non-zero
      code or a message; ``error`` says which and where.
    * "memory": it raised MemoryError (``error`` is set), or the kernel
      killed it with SIGKILL, which in practice means out of memory.
    * "crash": the process died without finishing: a signal such as SIGSEGV
      (``signal`` is set) or ``os._exit`` (``exit_code`` is set).
    * "timeout": it ran past ``Limits.timeout_s`` and was killed.
    * "cancelled": :meth:`CancelToken.cancel` or :meth:`Sandbox.cancel` stopped it.

    ``values``, ``bad_types`` and ``missing`` are read after the script's
    code returned, whether it ended normally or by an exception, so they show
    the names as they were when it stopped. ``values`` holds the requested
    names bound to a bool, int, float, complex, NumPy scalar or an ndarray of
    a bool/int/uint/float/complex dtype, as ``np.asarray`` gives them (lists
    and tuples of numbers too). ``bad_types`` maps the other requested
    names to a type description ("str", "list", "function", "object array",
    "int (too large for int64)"). ``missing`` lists the requested names the
    script never bound. When the process died, timed out or was cancelled
    nothing could be read: ``values`` and ``bad_types`` are empty and every
    requested name is in ``missing``.

    ``stdout`` is stdout and stderr interleaved, capped at
    ``Limits.output_cap`` bytes, ending with a "[… N MB of output dropped]"
    note when cut. ``exit_code`` is the code the script exited with (0 for a
    normal end, 1 after an exception, ``n`` for ``sys.exit(n)`` or
    ``os._exit(n)``), None when a signal ended it. ``detail`` is a one-line
    explanation of the status, ``duration_s`` the wall time of the run.
    """

    status: str
    values: dict[str, np.ndarray] = field(default_factory=dict)
    bad_types: dict[str, str] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    stdout: str = ""
    error: ErrorInfo | None = None
    signal: int | None = None
    exit_code: int | None = None
    detail: str = ""
    duration_s: float = 0.0


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
        results = _read_results(results_dir, token, names) if finished else None
        return _build_result(end, results, names, limits, drain.text(_DRAIN_WAIT_S), duration)

    def _open_supervisor(self, output_fd: int, request: dict) -> socket.socket:
        """Ask the fork server for a supervisor with ``request`` waiting for it; return our socket to it."""
        ours, theirs = socket.socketpair()
        try:
            _send_frame(ours, request)  # queued before anyone can cancel, so a cancel always follows it
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


# ---------------------------------------------------------------- app side


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
        hello = _recv_frame(conn)
        if hello is not None:
            pid = hello["pid"]
            end = _recv_frame(conn)
            if end is not None:
                return end
    except socket.timeout:
        ended = "timeout"
    except OSError:
        pass
    _kill_group(pid)
    return {"ended": ended, "exit_code": None, "signal": None}


def _kill_group(pid: int | None) -> None:
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


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


@dataclass(frozen=True)
class _Results:
    """The learner process's own report, validated."""

    outcome: str
    exit_code: int
    error: ErrorInfo | None
    values: dict[str, np.ndarray]
    bad_types: dict[str, str]
    missing: tuple[str, ...]


def _read_results(results_dir: Path, token: str, names: tuple[str, ...]) -> _Results | None:
    """Read the results folder as plain data; None if absent, forged or malformed."""
    try:
        if not results_dir.is_dir() or results_dir.is_symlink():
            return None
        report = json.loads(_read_plain_file(results_dir / "status.json").decode("utf-8"))
        if report["token"] != token or report["outcome"] not in ("ok", "error", "memory"):
            return None
        return _Results(
            outcome=report["outcome"],
            exit_code=int(report["exit_code"]),
            error=_error_from(report["error"]),
            values={names[i]: _load_numeric(results_dir / f"{i}.npy") for i in _indices(report["values"], names)},
            bad_types={names[int(i)]: str(kind)[:_MAX_TEXT] for i, kind in report["bad_types"].items()},
            missing=tuple(names[i] for i in _indices(report["missing"], names)),
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def _read_plain_file(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{path.name} is not a plain file")
        return file.read()


def _load_numeric(path: Path) -> np.ndarray:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with open(fd, "rb") as file:
        array = np.load(file, allow_pickle=False)
    if not isinstance(array, np.ndarray) or array.dtype.kind not in _NUMERIC_KINDS:
        raise ValueError(f"{path.name} is not a numeric array")
    return array


def _indices(raw: list, names: tuple[str, ...]) -> list[int]:
    indices = [int(i) for i in raw]
    if any(not 0 <= i < len(names) for i in indices):
        raise IndexError("name index out of range")
    return indices


def _error_from(raw: dict | None) -> ErrorInfo | None:
    if raw is None:
        return None
    line = raw["line"]
    source_line = raw["source_line"]
    return ErrorInfo(
        type=str(raw["type"])[:_MAX_TEXT], message=str(raw["message"])[:_MAX_TEXT],
        line=int(line) if line is not None else None,
        source_line=str(source_line)[:_MAX_TEXT] if source_line is not None else None,
        traceback=str(raw["traceback"])[: 10 * _MAX_TEXT],
    )


def _build_result(
    end: dict, results: _Results | None, names: tuple[str, ...], limits: Limits, output: str, duration: float,
) -> RunResult:
    """Combine the supervisor's report, the learner's results and the output into a RunResult."""
    signal_number = end.get("signal")
    if results is not None and signal_number is None:
        return RunResult(
            status=results.outcome, values=results.values, bad_types=results.bad_types, missing=results.missing,
            stdout=output, error=results.error, exit_code=results.exit_code,
            detail=_outcome_detail(results), duration_s=duration,
        )
    status, detail = _failure(end, limits)
    return RunResult(
        status=status, missing=names, stdout=output, exit_code=end.get("exit_code"),
        signal=signal_number if status in ("crash", "memory") else None,  # not our own timeout/cancel kill
        detail=detail, duration_s=duration,
    )


def _outcome_detail(results: _Results) -> str:
    if results.error is None:
        return "the script ran to its end"
    where = f" on line {results.error.line}" if results.error.line else ""
    return f"the script stopped with {results.error.type}{where}"


def _failure(end: dict, limits: Limits) -> tuple[str, str]:
    """Status and detail for a run that left no results."""
    ended, signal_number, exit_code = end["ended"], end.get("signal"), end.get("exit_code")
    if ended == "timeout":
        return "timeout", f"the script ran longer than {limits.timeout_s:g} s and was stopped"
    if ended == "cancelled":
        return "cancelled", "the run was cancelled"
    if ended == "lost":
        return "crash", "the sandbox lost track of the run (its supervisor was killed)"
    if signal_number == signal.SIGKILL:
        return "memory", "the process was killed (SIGKILL), most likely by the kernel for running out of memory"
    if signal_number is not None:
        return "crash", f"the process was killed by {_signal_name(signal_number)}"
    return "crash", f"the process exited with code {exit_code} before the script finished (os._exit?)"


def _signal_name(number: int) -> str:
    try:
        return f"{signal.Signals(number).name} ({signal.strsignal(number)})"
    except ValueError:
        return f"signal {number}"


def _send_frame(sock: socket.socket, message: dict) -> None:
    data = json.dumps(message).encode()
    sock.sendall(struct.pack("!I", len(data)) + data)


def _recv_frame(sock: socket.socket) -> dict | None:
    """One length-prefixed JSON message, or None at end of stream."""
    header = _recv_exactly(sock, 4)
    if header is None:
        return None
    body = _recv_exactly(sock, struct.unpack("!I", header)[0])
    return None if body is None else json.loads(body)


def _recv_exactly(sock: socket.socket, count: int) -> bytes | None:
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


# ---------------------------------------------------------------- fork server and supervisor


def _serve(control_fd: int, preload: list[str]) -> None:
    """The fork server's loop: import ``preload``, then fork a supervisor per request until the app goes away."""
    for module in preload:
        importlib.import_module(module)
    if "numpy" in preload:
        _warm_numpy()
    control = socket.socket(fileno=control_fd)
    _announce_ready()
    while True:
        _reap_finished_children()
        message, fds, _, _ = socket.recv_fds(control, 1, 2)
        if not message:
            return  # the app closed the control socket
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            continue
        if os.fork() == 0:
            control.close()
            _become_supervisor(*fds)
        for fd in fds:
            os.close(fd)


def _warm_numpy() -> None:
    """Do once, before any fork, the first-use work every answer would otherwise repeat.

    NumPy's first matrix product, random draw, exp and .npy write each set up
    buffers and dispatch tables; done here they are inherited by every run.
    """
    import io

    rng = np.random.RandomState(0)
    x = rng.randn(1, 6, 8)
    scores = x @ rng.randn(8, 8) @ np.swapaxes(x, -1, -2)
    np.exp(scores - scores.max(axis=-1, keepdims=True)).sum(axis=-1)
    np.abs(scores).max()
    np.save(io.BytesIO(), scores, allow_pickle=False)


def _announce_ready() -> None:
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the app stops reading these pipes now
    os.dup2(devnull, 2)
    os.close(devnull)


def _reap_finished_children() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def _become_supervisor(conn_fd: int, output_fd: int) -> None:
    """Run one learner process to its end and report how it ended; never returns."""
    try:
        conn = socket.socket(fileno=conn_fd)
        request = _recv_frame(conn)
        if request is not None:
            _supervise(conn, output_fd, request)
    finally:
        os._exit(0)


def _supervise(conn: socket.socket, output_fd: int, request: dict) -> None:
    _become_subreaper()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        conn.close()  # the learner must not be able to speak for the supervisor
        _become_learner(output_fd, request)
    os.close(output_fd)
    _send_frame(conn, {"pid": pid})
    ended = _wait_for_learner(pid, conn, started + request["timeout_s"])
    _kill_group(pid)  # while the learner is unreaped its pid cannot name another group
    _, wait_status = os.waitpid(pid, 0)
    _kill_descendants(frozenset({os.getpid()}))
    _send_frame(conn, {"ended": ended, **_describe_wait_status(wait_status)})


def _become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def _wait_for_learner(pid: int, conn: socket.socket, deadline: float) -> str:
    """"exited", "timeout", or "cancelled" (the app cancelled or went away)."""
    pidfd = os.pidfd_open(pid)
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            ready, _, _ = select([pidfd, conn], [], [], remaining)
            if pidfd in ready:
                return "exited"
            if conn in ready:
                return "cancelled"
    finally:
        os.close(pidfd)


def _kill_descendants(parents: frozenset[int], spare: int | None = None) -> None:
    """SIGKILL, round after round, every live process whose parent is in ``parents``, except ``spare``.

    A killed process's children are re-parented to the supervisor (the
    subreaper), so with the supervisor in ``parents`` the next round gets
    them, even if they left the learner's session. Our own children are reaped.
    """
    for _ in range(_MAX_KILL_ROUNDS):
        _reap_finished_children()
        targets = [pid for pid in _live_children(parents) if pid != spare]
        if not targets:
            return
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in targets:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass  # the supervisor's child: the learner cannot reap it, only kill it


def _live_children(parents: frozenset[int]) -> list[int]:
    """Processes (not zombies) whose parent is in ``parents``.

    Read from /proc/PID/task/TID/children, which lists just the children; a
    scan of all of /proc (the fallback, for kernels without that file) costs
    milliseconds per round, a good part of a warm check.
    """
    try:
        candidates = {
            int(child)
            for parent in parents
            for task in os.listdir(f"/proc/{parent}/task")
            for child in Path(f"/proc/{parent}/task/{task}/children").read_text().split()
        }
    except FileNotFoundError:
        candidates = {int(entry) for entry in os.listdir("/proc") if entry.isdigit()}
    except OSError:
        return []
    children = []
    for pid in candidates:
        try:
            with open(f"/proc/{pid}/stat", "rb") as status_file:
                state, parent = status_file.read().rsplit(b")", 1)[1].split()[:2]
        except OSError:
            continue  # gone meanwhile
        if int(parent) in parents and state not in (b"Z", b"X"):
            children.append(pid)
    return children


def _describe_wait_status(wait_status: int) -> dict:
    if os.WIFSIGNALED(wait_status):
        return {"exit_code": None, "signal": os.WTERMSIG(wait_status)}
    return {"exit_code": os.WEXITSTATUS(wait_status), "signal": None}


# ---------------------------------------------------------------- learner process


def _become_learner(output_fd: int, request: dict) -> None:
    """Limit this process, run the script and write its results; never returns."""
    exit_code = 70  # reached only if the sandbox itself fails here
    supervisor = os.getppid()
    try:
        os.setsid()
        _redirect_stdio(output_fd)
        _limit_resources(request["memory_mb"])
        os.chdir(request["workdir"])
        namespace, outcome, script_exit_code, error = _execute(request["script"])
        _kill_own_processes(supervisor)
        _write_results(Path(request["results"]), request["token"], request["names"], namespace,
                       outcome, script_exit_code, error)
        exit_code = 0
    finally:
        _flush_stdio()
        os._exit(exit_code)


def _kill_own_processes(supervisor: int) -> None:
    """Kill every process the script started, so none can tamper with the results about to be written."""
    parents = {os.getpid()}
    if os.getppid() == supervisor:  # orphans went to the supervisor; if it is gone, never touch another parent's
        parents.add(supervisor)
    _kill_descendants(frozenset(parents), spare=os.getpid())


def _redirect_stdio(output_fd: int) -> None:
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.close(stdin)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    # Line-buffered so that stdout and stderr interleave in order and a crash loses little.
    sys.stdout.reconfigure(line_buffering=True)


def _flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:  # the learner may have replaced or closed them
            pass


def _limit_resources(memory_mb: int) -> None:
    memory = memory_mb * 1024 * 1024
    _set_limit(resource.RLIMIT_AS, memory)
    _set_limit(resource.RLIMIT_FSIZE, memory)
    _set_limit(resource.RLIMIT_CORE, 0)


def _set_limit(which: int, value: int) -> None:
    """Set soft and hard limit (so the script cannot raise it), never above the current hard limit."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def _execute(script: str) -> tuple[dict, str, int, dict | None]:
    """Run the script as __main__; return its namespace, outcome, exit code and error."""
    source = Path(script).read_bytes()
    lines = source.decode("utf-8", errors="replace").splitlines()
    module = types.ModuleType("__main__")
    module.__file__ = script
    module.__builtins__ = builtins
    sys.modules["__main__"] = module
    sys.argv = [script]
    sys.path[0] = os.path.dirname(script)
    try:
        # dont_inherit: the sandbox's own `from __future__` imports must not apply to the script.
        exec(compile(source, script, "exec", dont_inherit=True), module.__dict__)
    except SystemExit as exit_request:
        code = exit_request.code
        if code is None or code == 0:
            return module.__dict__, "ok", 0, None
        exit_code = code if isinstance(code, int) else 1
        return module.__dict__, "error", exit_code, _describe_exception(exit_request, script, lines)
    except MemoryError as exc:
        return module.__dict__, "memory", 1, _describe_exception(exc, script, lines)
    except BaseException as exc:
        return module.__dict__, "error", 1, _describe_exception(exc, script, lines)
    return module.__dict__, "ok", 0, None


def _describe_exception(exc: BaseException, script: str, lines: list[str]) -> dict:
    """Type, message and the learner's line for an exception, from the learner's frames only."""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == script]
    line = frames[-1].lineno if frames else None
    message = _safe_str(exc)
    if isinstance(exc, SyntaxError) and exc.filename == script:
        line, message = exc.lineno, str(exc.msg)
    source_line = lines[line - 1].strip() if line and 0 < line <= len(lines) else None
    shown = traceback.StackSummary.from_list(frames).format()
    try:
        shown += traceback.format_exception_only(type(exc), exc)
    except Exception:  # a learner's __str__ may raise
        shown.append(f"{type(exc).__name__}: {message}\n")
    return {
        "type": type(exc).__name__, "message": message[:_MAX_TEXT], "line": line,
        "source_line": source_line, "traceback": "".join(shown),
    }


def _safe_str(value: object) -> str:
    try:
        return str(value)
    except Exception:
        return f"<{type(value).__name__} whose str() failed>"


def _write_results(
    results_dir: Path, token: str, names: list[str], namespace: dict, outcome: str, exit_code: int,
    error: dict | None,
) -> None:
    """Save the requested names as .npy files, then status.json; the folder must not exist yet."""
    results_dir.mkdir(mode=0o700)  # fails if someone made it before the script's code returned
    saved, bad_types, missing = [], {}, []
    for index, name in enumerate(names):
        if name not in namespace:
            missing.append(index)
            continue
        array = _numeric_array(namespace[name])
        if isinstance(array, str):
            bad_types[index] = array
            continue
        try:
            np.save(results_dir / f"{index}.npy", array, allow_pickle=False)
            saved.append(index)
        except (MemoryError, OSError, ValueError) as exc:
            bad_types[index] = f"{type(namespace[name]).__name__} (could not be saved: {type(exc).__name__})"
    report = {
        "token": token, "outcome": outcome, "exit_code": exit_code, "error": error,
        "values": saved, "bad_types": bad_types, "missing": missing,
    }
    partial = results_dir / "status.partial"
    partial.write_text(json.dumps(report), encoding="utf-8")
    partial.replace(results_dir / "status.json")  # the app sees the report whole or not at all


def _numeric_array(value: object) -> np.ndarray | str:
    """The value as an ndarray if it is numeric, else a short description of its type."""
    if isinstance(value, (list, tuple)):  # `perm = [3, 0, 5, 1, 4, 2]`, as the lessons write it
        try:
            array = np.asarray(value)
        except (ValueError, TypeError, OverflowError, MemoryError, RecursionError):
            return type(value).__name__
        return array if array.dtype.kind in _NUMERIC_KINDS else type(value).__name__
    if not isinstance(value, (bool, int, float, complex, np.number, np.bool_, np.ndarray)):
        return type(value).__name__
    try:
        array = np.asarray(value)
    except Exception:
        return type(value).__name__
    if array.dtype.kind in _NUMERIC_KINDS:
        return array
    if isinstance(value, np.ndarray):
        return _ARRAY_KIND_NAMES.get(array.dtype.kind, f"{array.dtype} array")
    return f"{type(value).__name__} (too large for int64)"
