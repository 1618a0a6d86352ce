"""The fork server and the supervisor it forks for each run.

The fork server has imported NumPy once; per request it forks a supervisor
(trusted code, no limits), which forks the learner process, waits for it
against the wall-clock deadline and the app's socket, kills everything the
learner left behind and reports how it ended.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import socket
import sys
import time
from select import select

import numpy as np

from .learner import become_learner
from .processes import kill_descendants, kill_group, reap_finished_children
from .protocol import recv_frame, send_frame

_PR_SET_CHILD_SUBREAPER = 36


def serve(control_fd: int, preload: list[str]) -> None:
    """The fork server's loop: import ``preload``, then fork a supervisor per request until the app goes away."""
    for module in preload:
        importlib.import_module(module)
    if "numpy" in preload:
        _warm_numpy()
    control = socket.socket(fileno=control_fd)
    _announce_ready()
    while True:
        reap_finished_children()
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


def _become_supervisor(conn_fd: int, output_fd: int) -> None:
    """Run one learner process to its end and report how it ended; never returns."""
    try:
        conn = socket.socket(fileno=conn_fd)
        request = recv_frame(conn)
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
        become_learner(output_fd, request)
    os.close(output_fd)
    send_frame(conn, {"pid": pid})
    ended = _wait_for_learner(pid, conn, started + request["timeout_s"])
    kill_group(pid)  # while the learner is unreaped its pid cannot name another group
    _, wait_status = os.waitpid(pid, 0)
    kill_descendants(frozenset({os.getpid()}))
    send_frame(conn, {"ended": ended, **_describe_wait_status(wait_status)})


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


def _describe_wait_status(wait_status: int) -> dict:
    if os.WIFSIGNALED(wait_status):
        return {"exit_code": None, "signal": os.WTERMSIG(wait_status)}
    return {"exit_code": os.WEXITSTATUS(wait_status), "signal": None}
