"""Starting the fork server: a clean environment, and inside bubblewrap when asked.

The server inherits no secret: its environment is an allow-list of exact
names (the command path, the locale, a few BLAS settings), with ``HOME`` pointing at its
run folders, so ``os.environ`` and ``/proc/self/environ`` of a learner
process show nothing of the user's. In bubblewrap it gets its own user,
PID, network, IPC, UTS and cgroup namespaces, sees read-only only the
system, the Python installation and the attnpos packages (never the home or
data folder, and an empty folder where the course's own is: :mod:`.withheld`), a fresh ``/proc`` and ``/dev``, and a size-limited tmpfs for
its run folders.
"""

from __future__ import annotations

import _socket  # the C module: `socket` and `subprocess` (with selectors, signal and locale) cost 23 M instructions before the server
import fcntl
import importlib.util
import os
import site
import sys
import threading

from . import run_folders, tasks
from .withheld import withheld_folders

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing before the fork server starts
if TYPE_CHECKING:
    import socket

STRICT_ENV = "ATTNPOS_STRICT"
# Longest a fork server may take to say it is ready: about 0.1 s on a quiet machine, seconds on a loaded one; past
# this it is stuck, and every check waiting on it is told so rather than waiting for ever.
SERVER_READY_S = 90.0
SERVER_BOOT = (
    "import sys; from attnpos.lessons.sandbox.server import serve; serve(int(sys.argv[1]), sys.argv[2], sys.argv[3] == 'bwrap', sys.argv[4], sys.argv[5:])"
)
# Before any boot: leave the folder the command was run in (posix_spawn has no cwd). With `-c`, Python looks for
# modules in the current folder first, and a numpy.py or json.py of the learner's there must not be what it imports.
_LEAVE_THE_CALLERS_FOLDER = "import os; os.chdir('/')\n"
# One BLAS thread: the fork server must stay single-threaded to fork safely.
SINGLE_THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "BLIS_NUM_THREADS": "1"}
# Exact names only: a prefix would pass whatever shares it (SSH forwards LC_* by default, so LC_DEPLOY_TOKEN would
# reach the learner, and MKL_LICENSE_KEY with MKL_).
_LOCALE_CATEGORIES = ("ALL", "CTYPE", "NUMERIC", "TIME", "COLLATE", "MONETARY", "MESSAGES", "PAPER", "NAME", "ADDRESS", "TELEPHONE")
_LOCALE_ENV = ("LANG", "LANGUAGE", *(f"LC_{category}" for category in (*_LOCALE_CATEGORIES, "MEASUREMENT", "IDENTIFICATION")))
_BLAS_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_VERBOSE", "MKL_CBWR", "MKL_ENABLE_INSTRUCTIONS", "MKL_DEBUG_CPU_TYPE", "BLIS_ARCH_TYPE")
_PASSED_ENV = frozenset(("PATH", "TZ", *_LOCALE_ENV, *_BLAS_ENV))
# Inside bubblewrap: where run folders live, and the tmpfs holding them (all runs of one server together).
_BWRAP_RUNS = "/tmp/attnpos-runs"
_BWRAP_TMPFS_BYTES = 512 * 1024 * 1024
_SYSTEM_READ_ONLY = ("/usr", "/lib", "/lib64", "/bin", "/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives")


def clean_environment(home: str) -> dict[str, str]:
    """The allow-listed environment for the fork server, ``HOME`` set to ``home``."""
    kept = {name: value for name, value in os.environ.items() if name in _PASSED_ENV}
    return {**kept, **SINGLE_THREAD_ENV, "HOME": home}


def strict_from_environment() -> bool:
    """Whether ``ATTNPOS_STRICT=1`` asks for strict mode."""
    return os.environ.get(STRICT_ENV, "") == "1"


def bwrap_installed() -> bool:
    """Whether bubblewrap is installed (whether it can start is known only by trying)."""
    import shutil  # here, not above: everything imported above is imported before the fork server starts

    return shutil.which("bwrap") is not None


class ServerProcess:
    """A fork server's process, started by ``os.posix_spawnp`` in a session of its own: Popen's ``pid``, ``stdout``,
    ``stderr``, ``poll``, ``kill`` and ``wait``, without importing subprocess before the server starts.

    Its standard input is /dev/null, its output and errors are pipes, and it
    inherits ``pass_fd`` and any descriptor this process holds open for
    children (Python makes its own non-inheritable): the learner process closes
    every descriptor above 2 before it runs a line of the script.
    """

    def __init__(self, argv: list[str], env: dict[str, str], pass_fd: int) -> None:
        out_read, out_write = _above_stdio(os.pipe())
        err_read, err_write = _above_stdio(os.pipe())
        os.set_inheritable(pass_fd, True)
        try:
            actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0), (os.POSIX_SPAWN_DUP2, out_write, 1), (os.POSIX_SPAWN_DUP2, err_write, 2)]
            self.pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions, setsid=True)  # setsid: the terminal's Ctrl-C stays away
        except BaseException:
            os.close(out_read)
            os.close(err_read)
            raise
        finally:
            os.close(out_write)
            os.close(err_write)
        self.stdout = open(out_read, "rb")
        self.stderr = open(err_read, "rb")
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped by another (SIGCHLD ignored, say): it has ended, its status unknown, as Popen says
                self.returncode = 0
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        ended_already = self.poll()
        if ended_already is not None:
            return ended_already
        if timeout is not None:
            try:
                pidfd = os.pidfd_open(self.pid)
            except ProcessLookupError:  # gone, and reaped by another
                self.returncode = 0
                return self.returncode
            try:
                import select  # here, not above: everything imported above is imported before the fork server starts

                ended, _, _ = select.select([pidfd], [], [], timeout)
            finally:
                os.close(pidfd)
            if not ended:
                import subprocess

                raise subprocess.TimeoutExpired("attnpos fork server", timeout)
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            self.returncode = 0
            return self.returncode
        self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, 9)  # SIGKILL, without importing signal


def _above_stdio(pipe: tuple[int, int]) -> tuple[int, int]:
    """A pipe's ends, each moved above 0-2 where it landed there (a command run with its output closed): the
    server's own 0, 1 and 2 are made from them."""
    moved = []
    for fd in pipe:
        if fd < 3:
            above = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
            os.close(fd)
            fd = above
        moved.append(fd)
    return moved[0], moved[1]


class Spawned:
    """A fork server started and not yet known to be ready: its process, our control socket, its pids cgroup."""

    def __init__(self, server: ServerProcess, control: _socket.socket, cgroup: str | None, arguments: tuple) -> None:
        self.server = server
        self.control = control
        self.cgroup = cgroup
        self.arguments = arguments  # spawn_server's, as it was called
        self.in_bwrap: bool = arguments[1]
        self._joining: threading.Thread | None = None

    def join_cgroup_meanwhile(self) -> None:
        """Move the server into its cgroup beside its start; :meth:`settled` waits for that.

        Moving a process takes the kernel 15-100 ms (it waits for an RCU grace
        period), which neither the server, a Python about to import NumPy, nor
        the command's own imports need wait for: the server forks nothing
        until asked, and nothing is asked of it before :func:`await_ready`,
        which waits for the move. (Bubblewrap forks at once, so it joins
        before it starts.)
        """

        def join() -> None:
            assert self.cgroup is not None
            if not tasks.join_cgroup(self.cgroup, self.server.pid):  # it is capped by RLIMIT_NPROC alone, as with none
                tasks.remove_cgroup(self.cgroup)
                self.cgroup = None

        self._joining = threading.Thread(target=join, name="attnpos-cgroup-join", daemon=True)
        self._joining.start()

    def settled(self) -> None:
        """Wait until the server is in its cgroup (or, where that failed, ``cgroup`` is None)."""
        if self._joining is not None:
            self._joining.join()

    def matches(
        self,
        preload: tuple[str, ...],
        strict: bool,
        concurrent_runs: int,
        left_off: frozenset[str] = frozenset(),
        boot: str = SERVER_BOOT,
        extra_tasks: int = 0,
    ) -> bool:
        """Whether this is the server :func:`spawn_for` would start with these arguments now."""
        return self.arguments == (tuple(preload), strict and bwrap_installed(), concurrent_runs, frozenset(left_off), boot, extra_tasks)

    def abandon(self, wait: bool = True) -> None:
        """Stop it unread: it exits when its control socket closes (``wait``: for that, then its cgroup is removed)."""
        self.control.close()
        self.settled()
        for pipe in (self.server.stdout, self.server.stderr):
            if pipe is not None:
                pipe.close()
        if wait:
            self.server.wait()
            tasks.remove_cgroup(self.cgroup)


def start_server(
    preload: tuple[str, ...],
    in_bwrap: bool,
    concurrent_runs: int,
    left_off: frozenset[str] = frozenset(),
    boot: str = SERVER_BOOT,
    extra_tasks: int = 0,
) -> tuple[ServerProcess, socket.socket, dict, str | None]:
    """Start a fork server and wait until it is ready (:func:`spawn_server`, then :func:`await_ready`)."""
    return await_ready(spawn_server(preload, in_bwrap, concurrent_runs, left_off, boot, extra_tasks))


def spawn_for(
    preload: tuple[str, ...],
    strict: bool,
    concurrent_runs: int,
    left_off: frozenset[str] = frozenset(),
    boot: str = SERVER_BOOT,
    extra_tasks: int = 0,
) -> Spawned:
    """:func:`spawn_server`, in strict mode inside bubblewrap where it is installed."""
    return spawn_server(preload, strict and bwrap_installed(), concurrent_runs, left_off, boot, extra_tasks)


def spawn_server(
    preload: tuple[str, ...],
    in_bwrap: bool,
    concurrent_runs: int,
    left_off: frozenset[str] = frozenset(),
    boot: str = SERVER_BOOT,
    extra_tasks: int = 0,
) -> Spawned:
    """Start a fork server's process, without waiting for it to be ready.

    Outside bubblewrap its run folders go under this user's base folder,
    swept of stale ones first; inside, in bubblewrap's own tmpfs. The
    layers in ``left_off`` ("landlock", "seccomp") are not used. Where a
    pids cgroup can be made (:mod:`.tasks`), the server is in it before it
    is asked anything (bubblewrap before it starts),
    capped for ``concurrent_runs`` runs and ``extra_tasks`` more; the caller
    removes it (:func:`.tasks.remove_cgroup`) once the server has ended.
    ``boot`` is the Python that runs it: the fork server's loop, or the pool's
    warm parent (:mod:`.pool`), called with the same arguments.
    """
    if in_bwrap:
        runs = _BWRAP_RUNS
    else:
        runs = run_folders.base_folder()
        run_folders.sweep(runs)
    cgroup = tasks.make_server_cgroup(concurrent_runs, extra_tasks)
    ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        layers_left_off = ",".join(sorted(left_off)) or "-"
        python = [
            sys.executable,
            "-c",
            _LEAVE_THE_CALLERS_FOLDER + boot,
            str(theirs.fileno()),
            runs,
            "bwrap" if in_bwrap else "host",
            layers_left_off,
            *preload,
        ]
        command = _bwrap_command() + python if in_bwrap else python
        if cgroup is not None and in_bwrap:  # joined before bubblewrap starts, so every process it forks is inside
            command = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', os.path.join(cgroup, "cgroup.procs"), *command]
        server = ServerProcess(command, clean_environment(runs), theirs.fileno())
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    spawned = Spawned(server, ours, cgroup, (tuple(preload), in_bwrap, concurrent_runs, frozenset(left_off), boot, extra_tasks))
    if cgroup is not None and not in_bwrap:
        spawned.join_cgroup_meanwhile()
    return spawned


def await_ready(spawned: Spawned) -> tuple[ServerProcess, socket.socket, dict, str | None]:
    """Wait until ``spawned`` says it is ready; return it, its control socket, its confinement level and its pids cgroup.

    Raises RuntimeError if the server does not come up.
    """
    spawned.settled()
    import json  # here, not above: everything imported above is imported before the fork server starts

    server, stdout, stderr = spawned.server, spawned.server.stdout, spawned.server.stderr
    assert stdout is not None and stderr is not None  # both are pipes
    import select

    said, _, _ = select.select([stdout], [], [], SERVER_READY_S)
    ready = stdout.readline() if said else b""
    if not ready.startswith(b"ready "):
        if not said:  # hung on its way up: a check waiting on it would wait for ever
            server.kill()
        complaint = stderr.read().decode(errors="replace") if said else f"it said nothing in {SERVER_READY_S:.0f} s"
        server.wait()
        spawned.control.close()
        tasks.remove_cgroup(spawned.cgroup)
        raise RuntimeError(f"the sandbox's fork server did not start:\n{complaint}")
    stdout.close()
    stderr.close()
    import socket  # the client's own by now: the socket module's object, which the client's types name

    return server, socket.socket(fileno=spawned.control.detach()), json.loads(ready[len(b"ready ") :]), spawned.cgroup


def _bwrap_command() -> list[str]:
    # No --die-with-parent: its signal follows the *thread* that started bwrap, and the app starts the server
    # from a worker thread that soon ends. The server stops by itself when the app's control socket closes.
    command = ["bwrap", "--unshare-all", "--new-session"]
    # The tmpfs first: mounted after the binds it would hide a Python installation that lives under /tmp
    # (CI's fresh virtual environment does).
    command += ["--size", str(_BWRAP_TMPFS_BYTES), "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"]
    for path in _SYSTEM_READ_ONLY:
        command += ["--ro-bind-try", path, path]
    for path in sorted(_python_folders()):
        command += ["--ro-bind", path, path]
    for path in withheld_folders():  # the course's folder, inside a package bound above: an empty one over it
        command += ["--tmpfs", path, "--remount-ro", path]
    return command + ["--chdir", "/"]


def _python_folders() -> set[str]:
    """The interpreter, its standard library and packages (a user site too), and NumPy and attnpos, wherever installed."""
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(os.path.realpath(sys.executable)), *site.getsitepackages()}
    if site.ENABLE_USER_SITE:
        folders.add(site.getusersitepackages())
    for package in ("numpy", "attnpos", "attnpos.core", "attnpos.lessons"):
        spec = importlib.util.find_spec(package)
        if spec is not None:
            folders.update(spec.submodule_search_locations or ())
    return {os.path.realpath(folder) for folder in folders if os.path.isdir(folder)}
