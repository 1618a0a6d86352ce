"""The app's side of the sandbox: the warm fork server, runs and their cancelling, the output drain."""

from __future__ import annotations

import base64
import functools
import os
import signal
import socket
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Protocol, Sequence

from . import launch, run_folders, tasks
from .answers import encode_answer, read_script, refuse_if_too_large, size_text
from .confinement import ConfinementUnavailable, strict_shortfall
from .launch import strict_from_environment
from .protocol import read_back_budget, recv_frame, recv_frame_with_fds, send_fds, send_frame
from .results import Limits, Reading, RunResult, build_result, read_results

# Extra time the app waits for the supervisor's report before it kills the learner itself: the wall-clock
# limit holds within this even if the supervisor is stopped or killed.
_BACKSTOP_GRACE_S = 1.0
# How long the app waits for the output pipe to close once the run has ended.
_DRAIN_WAIT_S = 2.0
# How long past the supervisor's own removal budget the app waits for it to exit.
_CLEAN_UP_GRACE_S = 2.0


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
    ``spawned``: a server started already (:func:`.launch.spawn_for`), adopted
    if it is the one this sandbox would start, else stopped unused.
    """

    def __init__(
        self,
        max_workers: int = 4,
        preload: Sequence[str] = ("numpy", "attnpos.core", "attnpos.lessons.checker.substitutes"),
        strict: bool | None = None,
        left_off: frozenset[str] = frozenset(),
        spawned: launch.Spawned | None = None,
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
        self._spawned: launch.Spawned | None = None  # a server started by spawn() that no one has waited for yet
        if spawned is not None:
            if spawned.matches(self._preload, self.strict, max_workers, self._left_off):
                self._spawned = spawned
            else:  # started for another sandbox (another strictness, say): never run in one that is not this one's
                spawned.abandon(wait=False)
        self._active: set[_ActiveRun] = set()

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the fork server if it is not running (runs do this themselves), and wait until it is ready."""
        with self._lock:
            self._ensure_server()

    def spawn(self) -> None:
        """Start the fork server's process now, in this thread, without waiting for it: :meth:`start`, or the
        first run, waits until it is ready. A caller that spawns first overlaps the server's start with all it
        does meanwhile, from the moment it spawns (a thread would start it only once it got the GIL)."""
        with self._lock:
            if self._control is None and self._spawned is None:
                try:
                    self._spawned = launch.spawn_for(self._preload, self.strict, self._max_workers, self._left_off)
                except OSError:
                    pass  # start() tries again, and its failure reaches whoever waits for this sandbox, as it always has

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
            server, control, spawned = self._server, self._control, self._spawned
            self._server = self._control = self._spawned = None
        if spawned is not None:
            spawned.abandon(wait)
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
        token = os.urandom(16).hex()  # as secrets.token_hex makes it, without the hashing libraries secrets loads
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
                    send_fds(self._ensure_server(), b"r", [theirs.fileno(), output_fd])
                except OSError:  # the server died since the last run: start a new one
                    self._stop_server_locked()
                    send_fds(self._ensure_server(), b"r", [theirs.fileno(), output_fd])
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
        spawned, self._spawned = self._spawned, None
        return _start_server(self._preload, self.strict, self._max_workers, self._left_off, spawned=spawned)

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
    spawned: launch.Spawned | None = None,
) -> tuple[launch.ServerProcess, socket.socket, dict, str | None]:
    """A fork server (or ``boot``'s process), ready: in strict mode inside bubblewrap if it starts, and only if its
    confinement suffices. ``spawned``: its process, started already by :func:`.launch.spawn_for` with the same arguments."""
    if spawned is None:
        spawned = launch.spawn_for(preload, strict, concurrent_runs, left_off, boot, extra_tasks)
    bwrap_installed = spawned.in_bwrap  # in strict mode bubblewrap is tried wherever it is installed
    if spawned.in_bwrap:
        try:
            return launch.await_ready(spawned)
        except RuntimeError:  # bubblewrap is installed but cannot start here (no user namespaces): judge the kernel alone
            spawned = launch.spawn_server(preload, False, concurrent_runs, left_off, boot, extra_tasks)
    server, control, level, cgroup = launch.await_ready(spawned)
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
            text += f"\n[… {size_text(self._dropped)} of output dropped]\n"
        return text
