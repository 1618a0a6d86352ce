"""The app's side of the sandbox: the warm fork server, runs and their cancelling, the output drain."""

from __future__ import annotations

import base64
import errno
import functools
import io
import os
import secrets
import signal
import socket
import stat
import subprocess
import threading
import time
import tokenize
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Protocol, Sequence

from . import launch, run_folders, tasks
from .confinement import ConfinementUnavailable, strict_shortfall
from .protocol import MAX_SCRIPT_BYTES, read_back_budget, recv_frame, recv_frame_with_fds, send_frame
from .results import Limits, Reading, RunResult, build_result, read_results

# Extra time the app waits for the supervisor's report before it kills the learner itself: the wall-clock
# limit holds within this even if the supervisor is stopped or killed.
_BACKSTOP_GRACE_S = 1.0
# How long the app waits for the output pipe to close once the run has ended.
_DRAIN_WAIT_S = 2.0
# How long past the supervisor's own removal budget the app waits for it to exit.
_CLEAN_UP_GRACE_S = 2.0
STRICT_ENV = "ATTNPOS_STRICT"


class ScriptRefused(ValueError):
    """An answer file the sandbox will not run: a symbolic link, not a plain file, or too large; one line."""


def read_script(path: str | os.PathLike) -> bytes:
    """The bytes of the answer file at ``path``, opened without following a symbolic link.

    The one place answer files are opened, for ``check``, ``grade`` and
    ``watch`` alike: a link (``mallory.py -> alice.py``, or to a secret) is
    refused, not followed; so is anything but a plain file (a FIFO would
    block) and a file over :data:`MAX_SCRIPT_BYTES`. Raises ScriptRefused,
    or OSError when the file cannot be opened.
    """
    shown = os.fsdecode(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ScriptRefused(f"{shown} is a symbolic link; it is not followed (check the file itself)") from None
        raise
    with open(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ScriptRefused(f"{shown} is not a plain file")
        data = file.read(MAX_SCRIPT_BYTES + 1)
    refuse_if_too_large(max(info.st_size, len(data)), shown)
    return data


def decode_answer(data: bytes) -> str:
    """An answer file's bytes as source text, decoded as Python decodes a source file (PEP 263).

    The one decoding of answer bytes, on every route (check, watch, grade, grade-class, the app's
    external editor, the learner process reading its own script): a UTF-8 byte-order mark, which
    Windows editors write, is dropped, and a coding cookie on the first two lines is honoured;
    otherwise UTF-8. Raises UnicodeDecodeError when the bytes are not text in that encoding, or
    the cookie names no known encoding or contradicts the mark (Python's SyntaxError there).
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as problem:
        data.decode("utf-8")  # not UTF-8 where the cookie is looked for: raises with the byte it stops at
        raise UnicodeDecodeError("utf-8", data, 0, 1, problem.msg) from None
    return data.decode(encoding)


def encode_answer(source: str) -> bytes:
    """Bytes :func:`decode_answer` turns back into ``source``: UTF-8, or the encoding its own coding cookie declares."""
    data = source.encode("utf-8")
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data if declared in ("utf-8", "utf-8-sig") else source.encode(declared)
    except (SyntaxError, UnicodeEncodeError):  # Python reports what it cannot decode when it compiles the bytes
        return data


def refuse_if_too_large(size: int, shown: str) -> None:
    """Raise :class:`ScriptRefused` for a script of ``size`` bytes over :data:`MAX_SCRIPT_BYTES`, before anything reads it."""
    if size > MAX_SCRIPT_BYTES:
        raise ScriptRefused(f"{shown} is {_size(size)}, more than the {MAX_SCRIPT_BYTES // 1024} KB an answer may be")


def strict_from_environment() -> bool:
    """Whether ``ATTNPOS_STRICT=1`` asks for strict mode."""
    return os.environ.get(STRICT_ENV, "") == "1"


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


class ServerProcess(Protocol):
    """What a sandbox needs of its fork server's process: subprocess.Popen's poll, kill and wait."""

    def poll(self) -> int | None: ...

    def kill(self) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...


class Sandbox:
    """A warm fork server and the runs forked from it.

    Use it as a context manager, or call :meth:`close` when done; the server
    starts on entry (or on the first run) and is restarted if it dies.
    :meth:`run` is thread-safe; at most ``max_workers`` runs go at once and
    further callers wait for a free slot. ``preload`` names the modules the
    server imports once so that runs need not.

    ``strict`` (default: ``ATTNPOS_STRICT=1``) fails closed: the server runs
    inside bubblewrap where it is installed, and starting raises
    :class:`ConfinementUnavailable` (one line: why, and what to install)
    unless bubblewrap, or seccomp and Landlock ABI 6, are active.
    ``left_off`` names layers not to use ("landlock", "seccomp"), so that a
    test can show what the others stop alone; the level reported says so.
    """

    def __init__(
        self,
        max_workers: int = 4,
        preload: Sequence[str] = ("numpy", "attnpos.core", "attnpos.lessons.checker.substitutes"),
        strict: bool | None = None,
        left_off: frozenset[str] = frozenset(),
    ) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self._slots = threading.BoundedSemaphore(max_workers)
        self._max_workers = max_workers
        self._cgroup: str | None = None  # the server's pids cgroup, where one could be made
        self._preload = tuple(preload)
        self._left_off = frozenset(left_off)
        self.strict = strict_from_environment() if strict is None else strict
        self._lock = threading.Lock()
        self._server: ServerProcess | None = None
        self._control: socket.socket | None = None
        self._level: dict = {}
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

    @property
    def confinement(self) -> dict:
        """The confinement of this sandbox's runs, e.g. ``{"landlock": 6, "seccomp": True, "bwrap": False}``."""
        with self._lock:
            self._ensure_server()
            return dict(self._level)

    def close(self, wait: bool = True) -> None:
        """Cancel running runs and stop the fork server.

        ``wait``: wait for it to exit and remove its pids cgroup. Without (a
        command about to end), it exits by itself once its control socket
        closes, and the next sandbox's start sweeps the cgroup away.
        """
        self.cancel()
        with self._lock:
            server, control = self._server, self._control
            self._server = self._control = None
        if control is not None:
            control.close()  # the server exits when its control socket closes
        if server is not None and wait:
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if wait:
            self._remove_cgroup()

    def _remove_cgroup(self) -> None:
        cgroup, self._cgroup = self._cgroup, None
        remove_server_cgroup(cgroup)

    def cancel(self) -> None:
        """Cancel every run in progress (status "cancelled")."""
        with self._lock:
            runs = list(self._active)
        for run in runs:
            run.cancel()

    def run(
        self,
        path: str | os.PathLike,
        names: Sequence[str],
        limits: Limits = Limits(),
        cancel: CancelToken | None = None,
    ) -> RunResult:
        """Run the script at ``path`` and read back the module-level ``names``.

        The script is copied into a fresh run folder and runs from there as
        ``__main__``, with ``__file__`` and ``sys.argv[0]`` = its absolute
        path (as its tracebacks show it), the run folder first on
        ``sys.path``, no stdin, ``HOME`` in the run folder and an empty
        working folder; the run folder is removed afterwards. Its ``atexit``
        handlers and leftover threads are not waited for. ``cancel`` stops
        the run from another thread. Duplicate names are read once.
        Raises OSError if ``path`` cannot be opened, :class:`ScriptRefused`
        if it is a symbolic link, not a plain file or too large (see
        :func:`read_script`), TypeError if a name is not a str.
        """
        return self.run_bytes(read_script(path), path, names, limits, cancel)

    def run_bytes(
        self,
        source: bytes,
        path: str | os.PathLike,
        names: Sequence[str],
        limits: Limits = Limits(),
        cancel: CancelToken | None = None,
        reading: Reading | None = None,
        clean_up: list[Callable[[], None]] | None = None,
    ) -> RunResult:
        """Like :meth:`run`, for bytes already read (with :func:`read_script`) from the file at ``path``.

        ``reading``: what the learner process does with the script before it runs (:class:`Reading`).
        ``clean_up``: given, the run returns as soon as its results are read,
        and appends to it the wait for its supervisor to remove the run folder
        and exit, which the caller must call (a checker judges meanwhile);
        otherwise the run returns only once that is done.
        """
        return self._run(source, str(Path(path).absolute()), names, limits, cancel, reading, clean_up)

    def run_source(
        self,
        source: str,
        names: Sequence[str],
        limits: Limits = Limits(),
        filename: str = "answer.py",
        cancel: CancelToken | None = None,
        reading: Reading | None = None,
        clean_up: list[Callable[[], None]] | None = None,
    ) -> RunResult:
        """Like :meth:`run_bytes`, for source text run under the name ``filename``."""
        if not filename or Path(filename).name != filename:
            raise ValueError(f"filename must be a plain file name, not {filename!r}")
        return self._run(encode_answer(source), filename, names, limits, cancel, reading, clean_up)

    # -- one run

    def _run(
        self,
        source: bytes,
        filename: str,
        names: Sequence[str],
        limits: Limits,
        cancel: CancelToken | None,
        reading: Reading | None,
        clean_up: list[Callable[[], None]] | None,
    ) -> RunResult:
        if not all(isinstance(name, str) for name in names):
            raise TypeError(f"names must be strings: {names!r}")
        refuse_if_too_large(len(source), filename)
        wanted = tuple(dict.fromkeys(names))
        token = secrets.token_hex(16)
        request = {
            "source": base64.b64encode(source).decode("ascii"),
            "filename": filename,
            "names": list(wanted),
            "timeout_s": limits.timeout_s,
            "memory_mb": limits.memory_mb,
            "token": token,
            "reading": reading.as_json() if reading is not None else None,
        }
        with self._slots:
            started = time.monotonic()
            read_end, write_end = os.pipe()
            try:
                conn, level = self._open_supervisor(write_end, request)
            except BaseException:
                os.close(read_end)
                raise
            finally:
                os.close(write_end)
            drain = _OutputDrain(read_end, limits.output_cap)
            active = _ActiveRun(conn)
            with conn, self._tracked(active, cancel):
                # Counted from now: starting a fork server first must not eat into the run's time.
                end, run_fd, reported = _await_end(conn, active, time.monotonic() + limits.timeout_s + _BACKSTOP_GRACE_S)
                try:
                    # Only a learner that exited 0 on its own got past writing its results.
                    finished = end["ended"] == "exited" and end["exit_code"] == 0
                    results = read_results(run_fd, token, wanted, read_back_budget(limits.memory_mb)) if finished and run_fd is not None else None
                finally:
                    if run_fd is not None:
                        os.close(run_fd)
                _release(conn)  # the results are read: the supervisor removes the run folder meanwhile, and exits
                duration = time.monotonic() - started
                result = build_result(end, results, wanted, limits, drain.text(_DRAIN_WAIT_S), duration, level)
                if reported and clean_up is not None:
                    clean_up.append(functools.partial(_await_clean_up, conn.dup()))
                elif reported:  # a supervisor stopped or killed never reported: the backstop has ended its run
                    _await_clean_up(conn)
            return result

    def _open_supervisor(self, output_fd: int, request: dict) -> tuple[socket.socket, dict]:
        """Ask the fork server for a supervisor with ``request`` waiting for it; return our socket to it and the level."""
        ours, theirs = socket.socketpair()
        try:
            with self._lock:
                try:
                    socket.send_fds(self._ensure_server(), [b"r"], [theirs.fileno(), output_fd])
                except OSError:  # the server died since the last run: start a new one
                    self._stop_server_locked()
                    socket.send_fds(self._ensure_server(), [b"r"], [theirs.fileno(), output_fd])
                level = dict(self._level)
                request["tasks_capped"] = self._cgroup is not None
            # Sent once a supervisor is there to read it: a request larger than the socket's buffer (a script
            # of 170 KB or more) would otherwise block here for ever. Sent before this run can be cancelled,
            # so a cancel always follows it.
            ours.settimeout(request["timeout_s"] + _BACKSTOP_GRACE_S)  # a supervisor that never reads it
            send_frame(ours, request)
            ours.settimeout(None)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return ours, level

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
            self._server, self._control, self._level, self._cgroup = self._launch_server()
        return self._control

    def _launch_server(self) -> tuple[ServerProcess, socket.socket, dict, str | None]:
        """A new fork server, its control socket, its confinement level and its pids cgroup (a pool forks it instead: :mod:`.pool`)."""
        return _start_server(self._preload, self.strict, self._max_workers, self._left_off)

    def _stop_server_locked(self) -> None:
        if self._control is not None:
            self._control.close()
        if self._server is not None:
            self._server.kill()
            self._server.wait()
        self._server = self._control = None
        self._remove_cgroup()


def remove_server_cgroup(cgroup: str | None) -> None:
    """Remove an ended server's pids cgroup, waiting up to 2 s for the processes still leaving it."""
    # Supervisors outlive the server by moments (each ends with its run); the last one out empties it.
    if cgroup is not None:
        deadline = time.monotonic() + 2.0
        while os.path.isdir(cgroup) and time.monotonic() < deadline:
            tasks.remove_cgroup(cgroup)
            if os.path.isdir(cgroup):
                time.sleep(0.01)


def _start_server(
    preload: tuple[str, ...],
    strict: bool,
    concurrent_runs: int,
    left_off: frozenset[str],
    boot: str = launch.SERVER_BOOT,
    extra_tasks: int = 0,
) -> tuple[subprocess.Popen, socket.socket, dict, str | None]:
    """A fork server (or ``boot``'s process): in strict mode inside bubblewrap if it starts, and only if its confinement suffices."""
    bwrap_installed = launch.bwrap_installed()
    if strict and bwrap_installed:
        try:
            return launch.start_server(preload, True, concurrent_runs, left_off, boot, extra_tasks)
        except RuntimeError:
            pass  # bubblewrap is installed but cannot start here (no user namespaces): judge the kernel alone
    server, control, level, cgroup = launch.start_server(preload, False, concurrent_runs, left_off, boot, extra_tasks)
    shortfall = strict_shortfall(level, bwrap_installed) if strict else None
    if shortfall:
        control.close()
        server.wait()
        tasks.remove_cgroup(cgroup)
        raise ConfinementUnavailable(shortfall)
    return server, control, level, cgroup


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


def _await_end(conn: socket.socket, active: _ActiveRun, deadline: float) -> tuple[dict, int | None, bool]:
    """Wait for the supervisor's report of how the learner ended; return it, the run folder's descriptor and whether it came.

    If the report has not come by ``deadline`` (the supervisor was stopped,
    killed or hangs), kill the learner ourselves through its pidfd and
    report "timeout" or "lost".
    """
    pidfd = run_fd = None
    ended = "lost"
    try:
        conn.settimeout(max(deadline - time.monotonic(), 0.001))
        hello, fds = recv_frame_with_fds(conn, 2)
        if hello is not None and len(fds) == 2:
            pidfd, run_fd = fds
            conn.settimeout(max(deadline - time.monotonic(), 0.001))
            end = recv_frame(conn)
            if end is not None:
                active.finish()  # a cancel from now on would only make the supervisor drop the results unread
                return end, run_fd, True
        else:
            for fd in fds:
                os.close(fd)
    except socket.timeout:
        ended = "timeout"
    except OSError:
        pass
    finally:
        if pidfd is not None:
            _kill_learner(pidfd)
    return {"ended": ended, "exit_code": None, "signal": None}, run_fd, False


def _release(conn: socket.socket) -> None:
    """Tell the supervisor its run folder may go (an end of file on its socket)."""
    try:
        conn.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # it has gone already


def _await_clean_up(conn: socket.socket) -> None:
    """Wait until the supervisor has removed the run folder and exited: its socket's end of file; then close ``conn``.

    Nothing else holds its end (the learner closed its copy, the fork server
    its own), so the run leaves neither a process nor a file behind the
    result. Bounded by the supervisor's own budget for the removal.
    """
    with conn:
        conn.settimeout(run_folders.REMOVE_BUDGET_S + _CLEAN_UP_GRACE_S)
        try:
            while conn.recv(4096):
                pass
        except OSError:
            pass  # past the budget: what is left, a later server's sweep removes


def _kill_learner(pidfd: int) -> None:
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)  # a no-op when it has already ended
    except OSError:
        pass
    finally:
        os.close(pidfd)


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
