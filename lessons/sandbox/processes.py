"""Finding and killing a run's processes, shared by the supervisor and the learner process."""

from __future__ import annotations

import os
import signal
from pathlib import Path

# Rounds of "kill every child, reap it" before the supervisor gives up on a fork bomb.
_MAX_KILL_ROUNDS = 200
# Whether this kernel lists a task's children (CONFIG_PROC_CHILDREN); known in the fork server, before any
# confinement hides the answer.
_CHILDREN_FILES = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def reap_finished_children() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def kill_descendants(parents: frozenset[int], spare: int | None = None) -> None:
    """SIGKILL, round after round, every live process whose parent is in ``parents``, except ``spare``.

    A killed process's children are re-parented to the supervisor (the
    subreaper), so with the supervisor in ``parents`` the next round gets
    them, even if they left the learner's session. Our own children are reaped.
    """
    for _ in range(_MAX_KILL_ROUNDS):
        reap_finished_children()
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
    milliseconds per round, a good part of a warm check. A thread that ends
    meanwhile, or whose file the learner's Landlock rules do not grant (only
    its main thread's), is passed over.
    """
    if not _CHILDREN_FILES:
        try:
            candidates = {int(entry) for entry in os.listdir("/proc") if entry.isdigit()}
        except OSError:  # a learner's Landlock rules hide /proc
            return []
    else:
        candidates = set()
        for parent_pid in parents:
            try:
                tasks = os.listdir(f"/proc/{parent_pid}/task")
            except OSError:
                continue
            for task in tasks:
                try:
                    listed = Path(f"/proc/{parent_pid}/task/{task}/children").read_text().split()
                except OSError:
                    continue
                candidates.update(int(child) for child in listed)
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


def kill_group(pid: int | None) -> None:
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
