"""Fresh fork servers without a cold start: each forked from one warm parent into namespaces of its own.

A :class:`Sandbox` starts its fork server cold (Python, NumPy and the
checker imported, about 230 ms). Grading gives every student's file a
sandbox of its own, so that nothing one file's runs leave behind can reach
another's; paid per file, the cold start was most of a grade's time. A
:class:`SandboxPool` pays it once: its **warm parent** is started exactly as
a fork server is (the same clean environment, inside bubblewrap in strict
mode where it starts, refused in strict mode when the confinement falls
short) and imports and warms everything, then serves only one request:
fork a new fork server. That child

* enters new user, mount, IPC and UTS namespaces where the kernel
  allows unprivileged ones (``unshare``), mapping only its own user and group;
* mounts a private tmpfs over the run folders' base, so no run folder of
  another file's server is even visible, and everything its runs wrote goes
  with the namespace when it exits, and an empty read-only one over the
  course's own folder (:mod:`.withheld`), so its runs cannot read a
  solution even where Landlock is missing;
* drops every capability the new user namespace gave it, bounding set
  included (:func:`.confinement.drop_capabilities`), so its supervisors and
  learner processes hold none;
* reports its confinement (the parent's, plus ``"namespaces"``: those it
  entered) with a pidfd of itself, and then is an ordinary fork server:
  :func:`.server.serve_requests`, whose runs are confined per run as always.

Where unprivileged user namespaces are disabled, the child is still a fresh
process that never ran learner code, forked from a parent that never did
either, and ``"namespaces"`` is empty.

Tasks: the warm parent starts in a pids cgroup of its own where one can be
made (:mod:`.tasks`), sized for ``jobs`` sandboxes of ``workers`` runs each
plus the forked servers. The app then moves each forked server, before it
serves anything, into a pids cgroup of its own capped as a fork server's is,
so one file's threads cannot use up a classmate's share. Should that move
fail, the server stays under the parent's shared cap and reports no cgroup:
its runs count as uncapped (a root learner gets no new thread).
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import socket
import subprocess
import threading
from collections.abc import Sequence

from . import confinement, server, tasks
from .client import Sandbox, _start_server, remove_server_cgroup
from .launch import ServerProcess, strict_from_environment
from .protocol import encode_frame, recv_fds, recv_frame_with_fds, send_fds
from .withheld import withheld_folders

POOL_BOOT = (
    "import sys; from attnpos.lessons.sandbox.pool import serve_pool; "
    "serve_pool(int(sys.argv[1]), sys.argv[2], sys.argv[3] == 'bwrap', sys.argv[4], sys.argv[5:])"
)
DEFAULT_PRELOAD = ("numpy", "attnpos.core", "attnpos.lessons.checker.substitutes")
# The namespaces a forked server enters, by name, with their clone flags (linux/sched.h). IPC matters most:
# a SysV segment or queue outlives the run that made it, so without it one file could leave a message for the
# next. No network namespace: learner processes cannot make a socket at all (seccomp), and making and tearing
# down one per file cost more than the rest of the fork together (about 30 ms a file on two busy cores).
NAMESPACES = {"user": 0x10000000, "mount": 0x00020000, "ipc": 0x08000000, "uts": 0x04000000}
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REC, _MS_PRIVATE = 0x1, 0x2, 0x4, 0x4000, 0x40000
_RUNS_TMPFS = b"size=512m,mode=0700"  # one file's runs together; the same size as bubblewrap's tmpfs
_WITHHELD_TMPFS = b"size=4k,mode=0555"  # empty and read-only, over the course's folder
# How long the app waits for a forked server to say it is ready (a fork and a few system calls).
_FORK_WAIT_S = 30.0


# --- the warm parent and the servers it forks (in their own processes) ----------------------


def serve_pool(control_fd: int, runs: str, in_bwrap: bool, left_off: str, preload: list[str]) -> None:
    """The warm parent's loop: prepare once, then fork a fork server per request until the app goes away.

    A request is one byte carrying one descriptor: the new server's control socket.
    ``left_off`` as for :func:`.server.serve`.
    """
    level = server.prepare(runs, in_bwrap, left_off, preload)
    server.announce_ready(level)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the servers; this loop never waits
    control = socket.socket(fileno=control_fd)
    while True:
        message, fds = recv_fds(control, 1, 1)
        if not message:
            return  # the app closed the control socket
        if len(fds) == 1 and os.fork() == 0:
            control.close()
            _become_server(fds[0], runs, level)
        for fd in fds:
            os.close(fd)


def _become_server(control_fd: int, runs: str, level: dict) -> None:
    """Enter fresh namespaces, say so, then serve runs as a fork server; never returns."""
    try:
        control = socket.socket(fileno=control_fd)
        own = {**level, "namespaces": enter_fresh_namespaces(runs)}
        pidfd = os.pidfd_open(os.getpid())
        send_fds(control, encode_frame(own), [pidfd])
        os.close(pidfd)
        server.serve_requests(control, runs, own)
    finally:
        os._exit(0)


def enter_fresh_namespaces(runs: str) -> list[str]:
    """Unshare :data:`NAMESPACES`, mount a private tmpfs on ``runs``, hide the course's folder and drop every capability.

    Returns the namespaces entered: all of them, or none where the kernel
    refuses unprivileged user namespaces. Raises OSError if a step after the
    unshare fails (the server then never starts: nothing runs half-isolated).
    """
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(sum(NAMESPACES.values())) != 0:
        return []
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as handle:
            handle.write(text)
    if libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "could not make the new mount namespace private")
    if libc.mount(b"tmpfs", os.fsencode(runs), b"tmpfs", _MS_NOSUID | _MS_NODEV, _RUNS_TMPFS) != 0:
        raise OSError(ctypes.get_errno(), f"could not mount a tmpfs on {runs}")
    for folder in withheld_folders():
        if libc.mount(b"tmpfs", os.fsencode(folder), b"tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV, _WITHHELD_TMPFS) != 0:
            raise OSError(ctypes.get_errno(), f"could not hide {folder}")
    confinement.drop_capabilities()
    return list(NAMESPACES)


# --- the app's side -------------------------------------------------------------------------------


class ForkedServer:
    """A fork server forked by the warm parent, known by its pidfd (it is not our child): Popen's poll, kill, wait."""

    def __init__(self, pidfd: int) -> None:
        self._pidfd: int | None = pidfd

    def poll(self) -> int | None:
        return self.wait(0) if self._ended(0) else None

    def kill(self) -> None:
        if self._pidfd is not None:
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            except OSError:
                pass  # ended already

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired("forked fork server", timeout or 0)
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        return 0  # the warm parent reaps it; its status is not ours to read

    def release(self) -> None:
        """Stop watching it (it exits by itself once its control socket is closed)."""
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None

    def _ended(self, timeout: float | None) -> bool:
        if self._pidfd is None:
            return True
        ready, _, _ = select.select([self._pidfd], [], [], timeout)
        return bool(ready)


# A forked server: its process, its control socket, its confinement and its own pids cgroup (None if it has none).
Forked = tuple[ForkedServer, socket.socket, dict, "str | None"]


class SandboxPool:
    """One warm parent; :meth:`sandbox` gives a :class:`Sandbox` whose fork server is freshly forked from it.

    Thread-safe. ``strict`` as for :class:`Sandbox` (default: ``ATTNPOS_STRICT=1``);
    :meth:`start` raises ConfinementUnavailable when strict mode cannot be met.
    Up to ``spares`` servers are forked ahead (one per job is enough), so that
    a file's sandbox is ready when it is asked for. ``jobs`` sandboxes of
    ``workers`` runs each may run at once: the warm parent's pids cap is sized
    for them. ``left_off`` as for :class:`Sandbox`.
    """

    def __init__(
        self,
        strict: bool | None = None,
        preload: Sequence[str] = DEFAULT_PRELOAD,
        spares: int = 2,
        jobs: int = 1,
        workers: int = 2,
        left_off: frozenset[str] = frozenset(),
    ) -> None:
        if jobs < 1 or workers < 1:
            raise ValueError("jobs and workers must be at least 1")
        self.strict = strict_from_environment() if strict is None else strict
        self.preload = tuple(preload)
        self.workers = workers  # runs at once in one sandbox (:meth:`sandbox`'s default)
        self._jobs = jobs  # sandboxes in use at once
        self._left_off = frozenset(left_off)
        self._cgroup: str | None = None  # the warm parent's pids cgroup, where one could be made
        self._lock = threading.Lock()
        self._parent: ServerProcess | None = None
        self._control: socket.socket | None = None
        self._level: dict = {}
        self.forked_confinement: dict = {}  # what the latest forked server reported: the parent's level and its namespaces
        self._closed = False
        self.spares = spares
        self._spares: list[Forked] = []  # forked ahead, never used
        self._retired: list[str] = []  # cgroups of servers that have served, to remove once empty
        self._refilling = 0  # spares being forked in the background

    def __enter__(self) -> SandboxPool:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        with self._lock:
            self._ensure_parent()

    @property
    def confinement(self) -> dict:
        """The warm parent's confinement (each forked server adds the namespaces it entered)."""
        with self._lock:
            self._ensure_parent()
            return dict(self._level)

    def sandbox(self, max_workers: int | None = None) -> Sandbox:
        """A sandbox of its own (``workers`` runs at once unless said), to be closed after use; its fork server is forked on its first run."""
        return _SandboxFromPool(self, self.workers if max_workers is None else max_workers)

    def fork_server(self) -> Forked:
        """A fresh fork server: its process, its control socket, its confinement and its own pids cgroup (or None).

        Taken from the spares forked ahead when there is one (it has served
        nothing yet), else forked now; either way a replacement is forked in
        the background, so the next file does not wait for the fork.
        """
        with self._lock:
            spare = self._spares.pop(0) if self._spares else None
            refill = not self._closed and self._refilling < self.spares
            if refill:
                self._refilling += 1
        if refill:
            threading.Thread(target=self._refill, name="sandbox-pool-refill", daemon=True).start()
        self._remove_retired(wait=False)
        return spare if spare is not None else self._fork_now()

    def _refill(self) -> None:
        try:
            forked = self._fork_now()
        except (OSError, RuntimeError):
            forked = None  # the next fork_server forks in the foreground and raises there if this persists
        with self._lock:
            self._refilling -= 1
            if forked is not None and not self._closed and len(self._spares) < self.spares:
                self._spares.append(forked)
                forked = None
        if forked is not None:
            self.discard(forked)

    def _fork_now(self) -> Forked:
        ours, theirs = socket.socketpair()
        try:
            with theirs:
                with self._lock:
                    try:
                        send_fds(self._ensure_parent(), b"f", [theirs.fileno()])
                    except OSError:  # the warm parent died since: start another
                        self._stop_parent_locked()
                        send_fds(self._ensure_parent(), b"f", [theirs.fileno()])
            ours.settimeout(_FORK_WAIT_S)
            level, fds = recv_frame_with_fds(ours, 1)
            ours.settimeout(None)
        except BaseException:
            ours.close()
            raise
        if level is None or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            ours.close()
            raise RuntimeError("a fork server forked from the warm parent did not start")
        self.forked_confinement = dict(level)
        return ForkedServer(fds[0]), ours, level, self._own_cgroup(fds[0])

    def _own_cgroup(self, pidfd: int) -> str | None:
        """Move the new server (not serving yet, so alone) into a pids cgroup of its own; None where that fails."""
        if self._cgroup is None:
            return None  # no cgroup could be made for the parent either
        folder = tasks.make_server_cgroup(self.workers)
        if folder is None:
            return None
        pid = _pid_of(pidfd)
        if pid is None or not tasks.join_cgroup(folder, pid):
            tasks.remove_cgroup(folder)
            return None
        return folder

    def retire(self, cgroup: str | None) -> None:
        """A used server's cgroup, removed once its processes have left it (never waited for per file)."""
        if cgroup is not None:
            with self._lock:
                self._retired.append(cgroup)

    def _remove_retired(self, wait: bool) -> None:
        with self._lock:
            retired, self._retired = self._retired, []
        if wait:
            for cgroup in retired:
                remove_server_cgroup(cgroup)
            return
        for cgroup in retired:
            tasks.remove_cgroup(cgroup)
        self._retired_again([c for c in retired if os.path.isdir(c)])

    def _retired_again(self, cgroups: list[str]) -> None:
        with self._lock:
            self._retired.extend(cgroups)

    def discard(self, forked: Forked) -> None:
        """Stop a server that never served: closing its control socket ends it (the warm parent reaps it)."""
        server, control, _, cgroup = forked
        control.close()
        server.release()
        self.retire(cgroup)

    def close(self, wait: bool = True) -> None:
        """Stop the warm parent and the spares; the servers in use stop with their sandboxes. No fork after this.

        ``wait``: wait for the warm parent to exit and the cgroups to empty, so
        they can be removed; without it (Ctrl+C), leave them to the next start's sweep.
        """
        with self._lock:
            self._closed = True
            spares, self._spares = self._spares, []
        for spare in spares:  # first: one left in the parent's cgroup would keep it from being removed
            self.discard(spare)
        with self._lock:
            self._stop_parent_locked(graceful=True, wait=wait)
        self._remove_retired(wait=wait)

    def _ensure_parent(self) -> socket.socket:
        if self._closed:
            raise RuntimeError("the sandbox pool is closed")
        if self._parent is not None and self._parent.poll() is not None:
            self._stop_parent_locked()
        if self._control is None:
            # Every sandbox's runs at once, plus the forked servers: one per sandbox in use, the spares, their refills.
            self._parent, self._control, self._level, self._cgroup = _start_server(
                self.preload, self.strict, self._jobs * self.workers, self._left_off, boot=POOL_BOOT, extra_tasks=self._jobs + 2 * self.spares
            )
        return self._control

    def _stop_parent_locked(self, graceful: bool = False, wait: bool = True) -> None:
        parent, control = self._parent, self._control
        self._parent = self._control = None
        if control is not None:
            control.close()  # the warm parent exits when its control socket closes
        if parent is not None:
            if not graceful:
                parent.kill()
            try:
                parent.wait(timeout=5 if wait else 0)
            except subprocess.TimeoutExpired:
                parent.kill()
                if wait:
                    parent.wait()
        cgroup, self._cgroup = self._cgroup, None
        # Kept while a forked server is still in it; the next app's sweep removes it.
        if wait:
            remove_server_cgroup(cgroup)
        else:
            tasks.remove_cgroup(cgroup)


def _pid_of(pidfd: int) -> int | None:
    """The pid, in this process's PID namespace, of the process ``pidfd`` refers to; None if it has ended."""
    try:
        with open(f"/proc/self/fdinfo/{pidfd}") as info:
            for line in info:
                if line.startswith("Pid:"):
                    pid = int(line.split()[1])
                    return pid if pid > 0 else None
    except (OSError, ValueError):
        pass
    return None


class _SandboxFromPool(Sandbox):
    """A sandbox whose fork server the pool forks from its warm parent instead of starting cold."""

    def __init__(self, pool: SandboxPool, max_workers: int) -> None:
        super().__init__(max_workers=max_workers, preload=pool.preload, strict=pool.strict, left_off=pool._left_off)
        self._pool = pool

    def _launch_server(self) -> Forked:
        return self._pool.fork_server()

    def close(self, wait: bool = True) -> None:
        """Cancel running runs and stop the server without waiting for it to exit, whatever ``wait`` says.

        It exits on its own once its control socket closes, and the warm
        parent reaps it; waiting would add the namespaces' teardown to every file.
        """
        self.cancel()
        with self._lock:
            server, control = self._server, self._control
            self._server = self._control = None
        if control is not None:
            control.close()
        if isinstance(server, ForkedServer):
            server.release()
        self._remove_cgroup()

    def _remove_cgroup(self) -> None:
        cgroup, self._cgroup = self._cgroup, None
        self._pool.retire(cgroup)  # removed by the pool once the server's last process has left
