"""A cap on the tasks (processes and threads) a fork server's runs can make, so one run cannot exhaust the machine's.

Threads are allowed (NumPy and learners use them), and about 16,000 fit in
one run's address space: enough to exhaust a pids limit and make a
classmate's run fail to start. Two caps, whichever this machine offers:

* a **pids cgroup** per fork server (``pids.max``), made by the app and
  holding the server, its bubblewrap and every run it forks: cgroup v1's
  ``pids`` hierarchy, or a cgroup v2 folder whose parent already delegates
  ``pids``. It needs write access to the cgroup tree (root, or a delegated
  systemd scope), and holds for root too;
* ``RLIMIT_NPROC`` in the learner process (:func:`limit_learner`), set to
  the tasks running now plus :data:`MAX_TASKS`: the kernel ignores it for
  the root user and for a process holding ``CAP_SYS_RESOURCE`` or
  ``CAP_SYS_ADMIN``, so it counts only for other users (the learner holds
  no capability: :mod:`.confinement` drops them all).

A root learner with neither gets no new thread at all (the seccomp filter
refuses ``clone``): one task is a cap that holds.
"""

from __future__ import annotations

import os
import resource

# Tasks one run may add (its threads; no processes under seccomp). NumPy here is single-threaded, and an
# answer that uses threads needs a handful.
MAX_TASKS = 64
# The fork server, bubblewrap's two processes and, per concurrent run, a supervisor and a learner.
_SERVER_TASKS = 4
_V1_ROOT = "/sys/fs/cgroup/pids"
_V2_ROOTS = ("/sys/fs/cgroup", "/sys/fs/cgroup/unified")


def make_server_cgroup(concurrent_runs: int, extra_tasks: int = 0) -> str | None:
    """A new pids cgroup for one fork server, capped for ``concurrent_runs`` runs and ``extra_tasks`` more; None where none can be made.

    ``extra_tasks`` counts processes beside the runs: the pool's forked fork servers (:mod:`.pool`).
    """
    limit = _SERVER_TASKS + extra_tasks + concurrent_runs * (2 + MAX_TASKS)
    for parent in _candidate_parents():
        _remove_orphans(parent)
        folder = os.path.join(parent, f"attnpos-{os.getpid()}-{os.urandom(4).hex()}")
        try:
            os.mkdir(folder, 0o755)
        except OSError:
            continue
        try:
            with open(os.path.join(folder, "pids.max"), "w") as limit_file:
                limit_file.write(f"{limit}\n")
            return folder
        except OSError:
            remove_cgroup(folder)
    return None


def join_cgroup(folder: str, pid: int) -> bool:
    """Move process ``pid`` (and so everything it starts from now on) into the cgroup ``folder``."""
    try:
        with open(os.path.join(folder, "cgroup.procs"), "w") as procs:
            procs.write(f"{pid}\n")
        return True
    except OSError:
        return False


def remove_cgroup(folder: str | None) -> None:
    """Remove a server's cgroup once every process in it has ended (the kernel refuses while any lives)."""
    if folder is not None:
        try:
            os.rmdir(folder)
        except OSError:
            pass


def _remove_orphans(parent: str) -> None:
    """Remove the empty cgroups of apps that were killed before they could remove their own."""
    try:
        names = [name for name in os.listdir(parent) if name.startswith("attnpos-")]
    except OSError:
        return
    for name in names:
        owner = name.split("-")[1]
        if owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
            remove_cgroup(os.path.join(parent, name))  # refused while a process is still inside


def limit_learner() -> None:
    """Cap this (learner) process's user at the tasks running now plus :data:`MAX_TASKS`, for good.

    The count of tasks on the machine (``/proc/loadavg``) is at least the
    user's own, so the learner gets at least MAX_TASKS new ones; one read,
    where counting the user's own tasks would scan all of ``/proc``.
    """
    with open("/proc/loadavg", "rb") as loadavg:
        running = int(loadavg.read().split()[3].split(b"/")[1])
    _, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    limit = running + MAX_TASKS
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))


def _candidate_parents() -> list[str]:
    """The cgroup folders this process sits in, for v1's pids hierarchy and for v2 when it delegates pids."""
    try:
        with open("/proc/self/cgroup") as membership:
            lines = membership.read().splitlines()
    except OSError:
        return []
    parents = []
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(","):
            parents.append(_V1_ROOT + path.rstrip("/"))
        elif controllers == "":
            for root in _V2_ROOTS:
                folder = root + path.rstrip("/")
                try:
                    with open(os.path.join(folder, "cgroup.subtree_control")) as delegated:
                        if "pids" in delegated.read().split():
                            parents.append(folder)
                except OSError:
                    continue
    return parents
