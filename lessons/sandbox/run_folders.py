"""Run folders: one private folder per run, under one base folder per user, swept when stale.

The supervisor makes a run's folder, holds an ``flock`` on it for the run's
life and hands the app an open descriptor of it; the app reads the results
and removes the folder through that descriptor. A folder whose lock nobody
holds belongs to a run whose supervisor and app both died: it is stale.
Descriptors rather than paths let the same code work when the fork server
sits in bubblewrap, where its folders live in a tmpfs the app cannot name.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time

_PREFIX = "run-"
# A folder younger than this is never swept: its supervisor may not have locked it yet.
_SWEEP_MIN_AGE_S = 60.0
# Longest a supervisor (or a sweep) spends removing one run folder; what is left, a later sweep removes. A run
# makes folders no faster than they are removed (each costs a few ms on a busy disk), so this is about three
# runs' worth of the fastest a script can fill one.
REMOVE_BUDGET_S = 30.0
# Longest the sweep of stale run folders delays a server's start.
SWEEP_BUDGET_S = 2.0


# Where run folders go when the session has no runtime folder: shared memory, a tmpfs on every Linux, when it has
# room for a file as large as a run may write at the default memory limit (a container's is often 64 MB). A run
# makes and removes a dozen files, and on a disk's file system that costs the kernel more than the run's own
# work: ext4 allocating their inodes took about a fifth of the fork server's CPU (docs/PERFORMANCE.md).
SHARED_MEMORY = "/dev/shm"
SHARED_MEMORY_ROOM_BYTES = 1 << 30


def base_folder() -> str:
    """This user's folder for run folders, made private if new; refuses one another user could reach.

    Under the session's runtime folder (``XDG_RUNTIME_DIR``), else shared
    memory if it has room, else the temp folder: a tmpfs where there is one.
    """
    base = os.path.join(_parent_folder(), f"attnpos-runs-{os.getuid()}")
    try:
        os.mkdir(base, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(base)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise PermissionError(f"{base} is not a private folder of this user; remove it and retry")
    return base


def _parent_folder() -> str:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return runtime
    try:
        shared = os.statvfs(SHARED_MEMORY)
        if shared.f_bavail * shared.f_frsize >= SHARED_MEMORY_ROOM_BYTES and os.access(SHARED_MEMORY, os.W_OK | os.X_OK):
            return SHARED_MEMORY
    except OSError:
        pass
    # Here, not above: tempfile (and shutil and random with it) took 4-6 ms of a cold check before its fork server
    # could start, where shared memory serves nearly everywhere.
    import tempfile

    return tempfile.gettempdir()


def make_run_folder(base: str) -> tuple[str, int]:
    """Create and lock a new run folder under ``base``; return its path and an open, locked descriptor."""
    path = _new_folder(base)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return path, fd


def _new_folder(base: str) -> str:
    """A new private folder under ``base``, named by 64 random bits, as tempfile.mkdtemp does (whose module, with
    shutil and random, the fork server need not import)."""
    while True:
        path = os.path.join(base, f"{_PREFIX}{os.urandom(8).hex()}")
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue


def sweep(base: str, budget_s: float = SWEEP_BUDGET_S) -> None:
    """Remove run folders under ``base`` that no live run holds (left by a crash or a kill -9).

    It runs as a server starts, so it stops after ``budget_s`` in all; the
    next start goes on where it stopped.
    """
    deadline = time.monotonic() + budget_s
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    base_fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for entry in entries:
            if time.monotonic() >= deadline:
                return
            if not entry.name.startswith(_PREFIX) or not entry.is_dir(follow_symlinks=False):
                continue
            try:
                if time.time() - entry.stat(follow_symlinks=False).st_mtime < _SWEEP_MIN_AGE_S:
                    continue
                os.chmod(entry.name, 0o700, dir_fd=base_fd)  # a script without seccomp may have locked it
                fd = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=base_fd)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue  # a live run holds it
            remove_contents(fd, max(deadline - time.monotonic(), 0.0))
            os.close(fd)
            try:
                os.rmdir(entry.name, dir_fd=base_fd)
            except OSError:
                pass
    finally:
        os.close(base_fd)


def remove_contents(folder_fd: int, budget_s: float = REMOVE_BUDGET_S) -> None:
    """Delete everything inside the folder open as ``folder_fd``, however deep, even what the script made unreadable.

    Works through descriptors, never following a symlink, so nothing outside
    the folder can be reached whatever the script left in it. Each folder is
    listed once, its files deleted and its subfolders noted, so the time is
    linear in what is there (28,000 empty folders side by side take a
    fraction of a second, not minutes); it walks down and back up one folder
    at a time (``..``), holding one descriptor, so thousands of nested
    folders exhaust neither the stack nor the descriptor table. It gives up
    after ``budget_s`` (a later start's sweep retries), so a supervisor
    always ends soon after its run. Nothing runs in the folder any more.
    """
    deadline = time.monotonic() + budget_s
    fd = os.dup(folder_fd)
    path: list[str] = []  # the folder names from the top folder down to where fd is
    pending: list[list[str]] = []  # per level, the subfolders still to empty
    try:
        os.chmod(fd, 0o700)
        pending.append(_empty_but_folders(fd))
        while time.monotonic() < deadline:
            if pending[-1]:
                subfolder = pending[-1].pop()
                child = os.open(subfolder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = child
                path.append(subfolder)
                pending.append(_empty_but_folders(fd))
                continue
            if not path:
                return
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = parent
            pending.pop()
            os.rmdir(path.pop(), dir_fd=fd)
    except OSError:
        pass  # beyond repair here: the sweep of a later start retries
    finally:
        os.close(fd)


def _empty_but_folders(fd: int) -> list[str]:
    """Delete the files, links and empty folders in the folder open as ``fd``; return the other subfolders' names."""
    folders = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                try:
                    os.rmdir(entry.name, dir_fd=fd)  # an empty one goes without being opened (an open costs ms)
                except OSError:
                    os.chmod(entry.name, 0o700, dir_fd=fd)  # a folder the script made unreadable
                    folders.append(entry.name)
                continue
            try:
                os.unlink(entry.name, dir_fd=fd)
            except FileNotFoundError:
                pass
    return folders
