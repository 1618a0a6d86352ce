"""Landlock through ctypes: what the learner process may touch, all rules in one place.

Landlock (``Documentation/userspace-api/landlock.rst``) lets an unprivileged
process take away its own rights; they can never be given back, and every
process it starts inherits them. The ABI grew with the kernel, so each right
is asked for only when the running kernel knows it (best effort):

====  =======  ==========================================================
ABI   Linux    what it adds here
====  =======  ==========================================================
1     5.13     files: read, write, list, make, remove, execute
2     5.19     ``REFER`` (renames and links across folders)
3     6.2      ``TRUNCATE``
4     6.7      TCP ``bind`` and ``connect``
5     6.10     ``IOCTL_DEV`` (ioctl on devices)
6     6.12     scopes: signals and abstract UNIX sockets stay inside the domain
====  =======  ==========================================================

The rules (:func:`learner_rules`): read-only the Python installation and the
system libraries (less the course's own folder, :mod:`.withheld`), a few entries of the learner's own ``/proc/PID`` (not
``net/`` or ``mountinfo``) and a few device and ``/etc`` files; read-write its run folder; execute nothing; no TCP; no signal
or abstract-socket connection to any process outside the learner's domain.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from pathlib import Path

from .withheld import split_around, withheld_folders

# Syscall numbers are the same on every architecture (added after the table unification).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK = 1 << 8, 1 << 9, 1 << 10, 1 << 11
MAKE_SYM, REFER, TRUNCATE, IOCTL_DEV = 1 << 12, 1 << 13, 1 << 14, 1 << 15
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1

# Filesystem rights each ABI handles (denies unless a rule allows them).
_FS_RIGHTS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1}
_ALL_FS_RIGHTS = (1 << 16) - 1  # ABI 5 and later
# The only rights a rule on a plain file (not a folder) may carry.
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV

READ_ONLY = READ_FILE | READ_DIR
READ_WRITE = (
    READ_FILE | READ_DIR | WRITE_FILE | TRUNCATE | MAKE_REG | MAKE_DIR | MAKE_SYM | REMOVE_FILE | REMOVE_DIR | REFER
)  # no execute, no devices, sockets or FIFOs

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # packed in the kernel's header
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The Landlock ABI this kernel offers, 0 when Landlock is absent or disabled."""
    version = _libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def learner_rules(run_folder: str) -> list[tuple[str, int]]:
    """Every (path, rights) the learner process is granted; whatever is not listed is denied."""
    readable = {
        *installation(),
        "/etc/ld.so.cache",
        "/etc/localtime",  # what the loader and time.localtime read
        "/dev/urandom",
        "/dev/zero",
        *_own_proc_entries(),
    }
    rules = [(path, READ_ONLY) for path in sorted(readable) if os.path.exists(path)]
    # Its threads' ids, to find the processes it started (their children files are granted for the main thread).
    rules.append((f"/proc/{os.getpid()}/task", READ_DIR))
    rules.append(("/dev/null", READ_FILE | WRITE_FILE))
    rules.append((run_folder, READ_WRITE))
    return rules


@functools.lru_cache(maxsize=1)
def installation() -> tuple[str, ...]:
    """The interpreter, its standard library and packages, attnpos and the system's libraries, less the course's folder.

    The same for every run: the fork server works it out once (:func:`.server.prepare`) and its learners inherit it.
    """
    roots = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,  # the interpreter, stdlib, packages
        *_import_folders(),
        "/usr",
        "/lib",
        "/lib64",  # modules imported late; shared libraries
    }
    return tuple(split_around(roots, withheld_folders()))


# What of its own /proc/PID the learner may read: what Python, NumPy and the sandbox's clean-up read, about
# itself only. Not net/ (the machine's sockets and listeners), mountinfo, environ, cwd, root or the rest.
_OWN_PROC_FILES = ("stat", "status", "statm", "limits", "cmdline", "comm", "maps", "smaps_rollup", "fd", "fdinfo")


def _own_proc_entries() -> list[str]:
    pid = os.getpid()
    return [f"/proc/{pid}/{entry}" for entry in _OWN_PROC_FILES] + [f"/proc/{pid}/task/{pid}/children"]


def _import_folders() -> set[str]:
    """Where the learner's imports look: the interpreter's import path (a user site too) and the attnpos packages.

    Only absolute entries: the fork server's ``''`` would be its working
    folder. The server's environment has no ``PYTHONPATH``, so this is the
    installation's own path. An editable install keeps attnpos outside it.
    """
    folders = {entry for entry in sys.path if os.path.isabs(entry)}
    for name in ("attnpos", "attnpos.core", "attnpos.lessons"):
        module = sys.modules.get(name)
        folders.update(getattr(module, "__path__", ()))
    return folders


def restrict_self(abi: int, run_folder: str) -> None:
    """Apply :func:`learner_rules` to this process for good (needs ``PR_SET_NO_NEW_PRIVS`` first)."""
    handled_fs = _FS_RIGHTS_BY_ABI.get(abi, _ALL_FS_RIGHTS)
    attr = _RulesetAttr(
        handled_access_fs=handled_fs,
        handled_access_net=_NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0,
        scoped=_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0,
    )
    size = 8 if abi < 4 else 16 if abi < 6 else 24  # older kernels reject fields they do not know
    ruleset = _check(_libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)), "landlock_create_ruleset")
    try:
        for path, rights in learner_rules(run_folder):
            _add_path_rule(ruleset, path, rights & handled_fs)
        _check(_libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)), "landlock_restrict_self")
    finally:
        os.close(ruleset)


def _add_path_rule(ruleset: int, path: str, rights: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        if not Path(path).is_dir():
            rights &= _FILE_RIGHTS
        rule = _PathBeneathAttr(allowed_access=rights, parent_fd=fd)
        _check(
            _libc.syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0)),
            f"landlock_add_rule({path})",
        )
    finally:
        os.close(fd)


def _check(result: int, what: str) -> int:
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what} failed: {os.strerror(errno)}")
    return int(result)
