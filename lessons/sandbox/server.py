"""The fork server and the supervisor it forks for each run.

The fork server has imported NumPy once and detected the confinement the
kernel offers; per request it forks a supervisor (trusted code, no limits),
which makes the run folder, forks the learner process, hands the app a
pidfd of the learner and the run folder's descriptor, waits for the learner
against the wall-clock deadline and the app's socket, kills everything it
left behind, reports how it ended and, once the app has read the results,
removes the run folder and exits; the app waits for that before it returns
the run's result.
"""

from __future__ import annotations

import _socket
import binascii
import ctypes
import gc
import importlib
import json
import os
import signal
import sys
import time
from select import select

import numpy as np

from . import confinement, landlock, run_folders
from .learner import become_learner
from .processes import kill_descendants, kill_group
from .protocol import encode_frame, recv_fds, recv_frame, send_fds, send_frame

_PR_SET_CHILD_SUBREAPER = 36
# How long a supervisor keeps the run folder for the app to read the results once it has reported.
_READ_WAIT_S = 60.0


def serve(control_fd: int, runs: str, in_bwrap: bool, left_off: str, preload: list[str]) -> None:
    """The fork server's loop: import ``preload``, then fork a supervisor per request until the app goes away.

    Run folders are made under ``runs``; ``in_bwrap`` says whether the app
    started this server inside bubblewrap; ``left_off`` lists, comma-separated,
    layers not to use (for tests of one layer alone; "-" for none).
    """
    level = prepare(runs, in_bwrap, left_off, preload)
    announce_ready(level)
    serve_requests(_socket.socket(fileno=control_fd), runs, level)


def prepare(runs: str, in_bwrap: bool, left_off: str, preload: list[str]) -> dict:
    """Import ``preload``, warm NumPy, make ``runs``; return the confinement this kernel offers, less ``left_off``.

    Also the warm parent's start in :mod:`.pool`, whose forked servers then skip it.
    """
    # Importing NumPy and the core makes objects by the hundred thousand, nearly none of them garbage: the collector,
    # run every 700 allocations, found little and took 4 % of the server's start (callgrind).
    gc.disable()
    try:
        for module in preload:
            importlib.import_module(module)
        if "numpy" in preload:
            _warm_numpy()
    finally:
        # Moved out of the collector's generations: enabled again over a heap of young objects, its first pass would
        # walk every one (14 ms of the server's start), and each later full pass in a run would touch, so copy, every
        # page the run shares with this server.
        gc.freeze()
        gc.enable()
    os.makedirs(runs, mode=0o700, exist_ok=True)
    landlock.installation()  # what every learner may read, worked out once and inherited
    return confinement.detect(in_bwrap, frozenset(left_off.split(",")) - {"-"})


def serve_requests(control: _socket.socket, runs: str, level: dict) -> None:
    """Fork a supervisor per request on ``control`` until the app closes it.

    Supervisors are reaped by the kernel as they exit, so none lingers as a
    zombie once its run has returned.
    """
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    while True:
        message, fds = recv_fds(control, 1, 2)
        if not message:
            return  # the app closed the control socket
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            continue
        if os.fork() == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # a supervisor waits for its learner
            _become_supervisor(fds[0], fds[1], runs, level)
        for fd in fds:
            os.close(fd)


def _warm_numpy() -> None:
    """Do once, before any fork, the first-use work every answer would otherwise repeat.

    NumPy's first matrix product, random draw and exp each set up buffers and
    dispatch tables; done here they are inherited by every run.
    """
    rng = np.random.RandomState(0)
    x = rng.randn(1, 6, 8)
    scores = x @ rng.randn(8, 8) @ np.swapaxes(x, -1, -2)
    np.exp(scores - scores.max(axis=-1, keepdims=True)).sum(axis=-1)
    np.abs(scores).max()


def announce_ready(level: dict) -> None:
    sys.stdout.write(f"ready {json.dumps(level)}\n")
    sys.stdout.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the app stops reading these pipes now
    os.dup2(devnull, 2)
    os.close(devnull)


def _become_supervisor(conn_fd: int, output_fd: int, runs: str, level: dict) -> None:
    """Run one learner process to its end and report how it ended; never returns."""
    try:
        conn = _socket.socket(fileno=conn_fd)
        request = recv_frame(conn)
        if request is not None:
            run_folder, run_fd = run_folders.make_run_folder(runs)
            try:
                _supervise(conn, output_fd, request, run_folder, run_fd, level)
            finally:
                run_folders.remove_contents(run_fd)
                os.rmdir(run_folder)
    finally:
        os._exit(0)


def _supervise(conn: _socket.socket, output_fd: int, request: dict, run_folder: str, run_fd: int, level: dict) -> None:
    _become_subreaper()
    started = time.monotonic()
    script = _copy_script(request, run_folder)
    pid = os.fork()
    if pid == 0:
        conn.close()  # the learner must not be able to speak for the supervisor
        become_learner(output_fd, request, run_folder, script, level)
    os.close(output_fd)
    pidfd = os.pidfd_open(pid)
    # A pidfd lets the app kill the learner if this supervisor fails, with no pid to mistake (or translate
    # from bubblewrap's PID namespace); the folder's descriptor lets it read the results wherever they are.
    send_fds(conn, encode_frame({"pid": pid}), [pidfd, run_fd])
    ended = _wait_for_learner(pidfd, conn, started + request["timeout_s"])
    # The learner itself first: a run cancelled at once can get here before the learner's setsid, when
    # its group does not exist yet, and the waitpid below would wait for a script that runs on.
    signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    os.close(pidfd)
    kill_group(pid)  # while the learner is unreaped its pid cannot name another group
    _, wait_status = os.waitpid(pid, 0)
    kill_descendants(frozenset({os.getpid()}))
    send_frame(conn, {"ended": ended, **_describe_wait_status(wait_status)})
    _wait_until_read(conn)


def _copy_script(request: dict, run_folder: str) -> str:
    """Write the learner's script into its run folder, the only place the learner process may read it."""
    script = os.path.join(run_folder, "script.py")  # a fixed name: it can clash with nothing the run makes
    with open(script, "wb") as copy:
        copy.write(binascii.a2b_base64(request["source"]))  # base64.b64decode, without its module's import
    os.mkdir(os.path.join(run_folder, "work"), 0o700)
    return script


def _wait_until_read(conn: _socket.socket) -> None:
    """Wait for the app to close its end (it has read the results), or give up after a while."""
    conn.settimeout(_READ_WAIT_S)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


def _become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def _wait_for_learner(pidfd: int, conn: _socket.socket, deadline: float) -> str:
    """ "exited", "timeout", or "cancelled" (the app cancelled or went away)."""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "timeout"
        ready, _, _ = select([pidfd, conn.fileno()], [], [], remaining)
        if pidfd in ready:
            return "exited"
        if conn.fileno() in ready:
            return "cancelled"


def _describe_wait_status(wait_status: int) -> dict:
    if os.WIFSIGNALED(wait_status):
        return {"exit_code": None, "signal": os.WTERMSIG(wait_status)}
    return {"exit_code": os.WEXITSTATUS(wait_status), "signal": None}
