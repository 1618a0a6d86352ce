"""A seccomp filter for the learner process: a small classic-BPF program of our own, loaded with prctl.

A deny list (``Documentation/userspace-api/seccomp_filter.rst``): Python and
NumPy keep every system call they need, and the learner loses the ones that
reach outside its process. Refused calls fail with ``EPERM``, so a script
sees a plain ``PermissionError``:

* no new processes: ``fork``, ``vfork``, ``execve``; ``clone`` only for a
  thread (``CLONE_THREAD``, no namespace flag); ``clone3`` answers ``ENOSYS``
  (its flags sit in memory a filter cannot read), so libc falls back to ``clone``;
* no sockets, no ``io_uring``, ``bpf``, ``userfaultfd``, keyrings or ``memfd``;
  no SysV IPC (``shm*``, ``sem*``, ``msg*``) or POSIX message queues (``mq_*``);
* no other process: ``ptrace``, ``process_vm_*``, ``pidfd_*``, ``kcmp``;
  signals (``kill``, ``tgkill``, ``rt_*sigqueueinfo``) only to its own pid, and no
  ``fcntl(F_SETOWN/F_SETOWN_EX/F_SETSIG/F_SETLEASE)`` or ``FIOSETOWN`` (the kernel
  would send SIGIO, or any signal, to the owner it names);
  no file locks (``flock``, ``fcntl``'s ``F_*LK`` and ``F_OFD_*LK``): the files a
  run can open are the installation's, shared by every run, so two answers
  graded at once could signal each other through who holds a lock;
  limits may be read, never set (root could lift its own memory cap), no
  scheduler priority, no ``fanotify``/``inotify`` instances or watches, no ``epoll``
  instances (both per-user kernel quotas), no ``truncate`` by path;
* no mounts or namespaces (``mount``, ``unshare``, ``setns``, ``chroot``, the
  new mount API), no ``chmod``/``chown``/xattrs/times on any file (Landlock
  does not cover those), no ``TIOCSTI`` keystroke injection into a terminal, no
  ``FS_IOC_SETFLAGS``/``FS_IOC_FSSETXATTR`` (the immutable flag, for root),
  nothing a root user could do to the machine (modules, clock, reboot, swap).

Only x86-64 has a syscall table here; elsewhere :func:`supported` is False.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, _PR_GET_SECCOMP = 22, 2, 21
_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_SYSCALL_BIT = 0x40000000

_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_RET_KILL_PROCESS = 0x80000000
# Classic BPF opcodes: load a word of seccomp_data, compare, AND, return.
_LD_ABS_W, _JEQ_K, _JGE_K, _AND_K, _RET_K = 0x20, 0x15, 0x35, 0x54, 0x06
# Offsets in struct seccomp_data: nr, arch, then args[6] as u64 (low word first on little-endian).
_NR, _ARCH = 0, 4


def _arg(index: int) -> int:
    return 16 + 8 * index


_CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

# x86-64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl).
_DENIED = {
    "fork": 57,
    "vfork": 58,
    "execve": 59,
    "execveat": 322,
    "socket": 41,
    "socketpair": 53,
    "ptrace": 101,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "pidfd_send_signal": 424,
    "pidfd_open": 434,
    "pidfd_getfd": 438,
    "process_madvise": 440,
    "process_mrelease": 448,
    "tkill": 200,
    "setpriority": 141,
    "ioprio_set": 251,
    "migrate_pages": 256,
    "move_pages": 279,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "bpf": 321,
    "perf_event_open": 298,
    "userfaultfd": 323,
    "memfd_create": 319,
    "memfd_secret": 447,
    "keyctl": 250,
    "add_key": 248,
    "request_key": 249,
    "mount": 165,
    "umount2": 166,
    "pivot_root": 155,
    "chroot": 161,
    "unshare": 272,
    "setns": 308,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "chmod": 90,
    "fchmod": 91,
    "fchmodat": 268,
    "fchmodat2": 452,
    "chown": 92,
    "fchown": 93,
    "lchown": 94,
    "fchownat": 260,
    "setxattr": 188,
    "lsetxattr": 189,
    "fsetxattr": 190,
    "removexattr": 197,
    "lremovexattr": 198,
    "fremovexattr": 199,
    "utime": 132,
    "utimes": 235,
    "utimensat": 280,
    "futimesat": 261,
    "init_module": 175,
    "finit_module": 313,
    "delete_module": 176,
    "kexec_load": 246,
    "kexec_file_load": 320,
    "reboot": 169,
    "swapon": 167,
    "swapoff": 168,
    "acct": 163,
    "quotactl": 179,
    "syslog": 103,
    "vhangup": 153,
    "iopl": 172,
    "ioperm": 173,
    "settimeofday": 164,
    "clock_settime": 227,
    "clock_adjtime": 305,
    "adjtimex": 159,
    "sethostname": 170,
    "setdomainname": 171,
    "uselib": 134,
    "_sysctl": 156,
    "lookup_dcookie": 212,
    # Limits and scheduling: root could lift its own memory cap or take a real-time priority over the app.
    "setrlimit": 160,
    "sched_setparam": 142,
    "sched_setscheduler": 144,
    "sched_setattr": 314,
    # truncate(path) is outside Landlock before ABI 3; fanotify and inotify would watch the user's files.
    "truncate": 76,
    "fanotify_init": 300,
    "fanotify_mark": 301,
    "inotify_add_watch": 254,
    # Per-user kernel quotas an answer never needs: inotify instances (128 per user by default: taking them all
    # breaks the user's editors and watchers) and epoll watches (kernel memory outside the memory cap).
    "inotify_init": 253,
    "inotify_init1": 294,
    "epoll_create": 213,
    "epoll_create1": 291,
    # File locks: every run opens the same installation's files, so holding or probing a lock on one (a bit per
    # file, or a number in the byte ranges locked) is a channel between two answers graded at once.
    "flock": 73,
    # SysV IPC and POSIX message queues: objects outside the process, the memory cap and the run (shared memory
    # outlives them until reboot), reachable by other programs of the same user; Landlock does not see them.
    "shmget": 29,
    "shmat": 30,
    "shmctl": 31,
    "shmdt": 67,
    "semget": 64,
    "semop": 65,
    "semctl": 66,
    "semtimedop": 220,
    "msgget": 68,
    "msgsnd": 69,
    "msgrcv": 70,
    "msgctl": 71,
    "mq_open": 240,
    "mq_unlink": 241,
    "mq_timedsend": 242,
    "mq_timedreceive": 243,
    "mq_notify": 244,
    "mq_getsetattr": 245,
}
_CLONE, _CLONE3, _IOCTL, _PRLIMIT64, _FCNTL = 56, 435, 16, 302, 72
# fcntl commands that make the kernel signal another process (SIGIO to an owner) or break others' opens (a lease),
# and the record locks, classic and open-file-description, each set or probed (the channel of flock above).
_F_SETOWN, _F_SETSIG, _F_SETOWN_EX, _F_SETLEASE = 8, 10, 15, 1024
_F_GETLK, _F_SETLK, _F_SETLKW, _F_OFD_GETLK, _F_OFD_SETLK, _F_OFD_SETLKW = 5, 6, 7, 36, 37, 38
_REFUSED_FCNTLS = (_F_SETOWN, _F_SETSIG, _F_SETOWN_EX, _F_SETLEASE, _F_GETLK, _F_SETLK, _F_SETLKW, _F_OFD_GETLK, _F_OFD_SETLK, _F_OFD_SETLKW)
# ioctls refused: keystrokes into a terminal; the same SIGIO owner as F_SETOWN; a file's flags (immutable).
_REFUSED_IOCTLS = (0x5412, 0x541C, 0x8901, 0x8902, 0x40086602, 0x40046602, 0x401C5820)
# Calls allowed only when their first argument names the learner itself (0 means "self" where listed).
_SELF_ONLY = {"kill": (62, True), "tgkill": (234, False), "rt_sigqueueinfo": (129, False), "rt_tgsigqueueinfo": (297, False), "sched_setaffinity": (203, True)}


def supported() -> bool:
    """Whether this kernel and architecture can take the filter."""
    libc = ctypes.CDLL(None, use_errno=True)
    return platform.machine() == "x86_64" and libc.prctl(_PR_GET_SECCOMP, 0, 0, 0, 0) >= 0


def install(own_pid: int, threads: bool = True) -> None:
    """Load the filter into this process for good; ``PR_SET_NO_NEW_PRIVS`` must already be set.

    ``threads`` False refuses new threads too (where no task cap holds, see :mod:`.tasks`).
    """
    program = _program(own_pid, threads)
    code = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    filters = ctypes.create_string_buffer(code, len(code))

    class _SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _SockFprog(len(program), ctypes.cast(filters, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"prctl(PR_SET_SECCOMP) failed: {errno.errorcode.get(number, number)}")


def _program(own_pid: int, threads: bool = True) -> list[tuple[int, int, int, int]]:
    deny = _RET_ERRNO | errno.EPERM
    program = [
        (_LD_ABS_W, 0, 0, _ARCH),
        (_JEQ_K, 1, 0, _AUDIT_ARCH_X86_64),
        (_RET_K, 0, 0, _RET_KILL_PROCESS),
        (_LD_ABS_W, 0, 0, _NR),
        (_JGE_K, 0, 1, _X32_SYSCALL_BIT),
        (_RET_K, 0, 0, deny),
    ]
    for number in sorted(_DENIED.values()):
        program += [(_JEQ_K, 0, 1, number), (_RET_K, 0, 0, deny)]
    program += [(_JEQ_K, 0, 1, _CLONE3), (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS)]
    thread = _CLONE_THREAD if threads else 0xFFFFFFFF  # no value of the masked flags equals this
    program += _on_call(
        _CLONE,
        [
            (_LD_ABS_W, 0, 0, _arg(0)),
            (_AND_K, 0, 0, _CLONE_THREAD | _CLONE_NAMESPACES),
            (_JEQ_K, 1, 0, thread),
            (_RET_K, 0, 0, deny),
            (_RET_K, 0, 0, _RET_ALLOW),
        ],
    )
    program += _on_call(_IOCTL, _refuse_values(_arg(1), _REFUSED_IOCTLS, deny))
    program += _on_call(_FCNTL, _refuse_values(_arg(1), _REFUSED_FCNTLS, deny))
    program += _on_call(
        _PRLIMIT64,
        [  # reading limits only: its third argument, the new limit, must be NULL
            (_LD_ABS_W, 0, 0, _arg(2)),
            (_JEQ_K, 1, 0, 0),
            (_RET_K, 0, 0, deny),
            (_LD_ABS_W, 0, 0, _arg(2) + 4),
            (_JEQ_K, 1, 0, 0),
            (_RET_K, 0, 0, deny),
            (_RET_K, 0, 0, _RET_ALLOW),
        ],
    )
    for number, zero_is_self in _SELF_ONLY.values():
        allowed = [own_pid, 0] if zero_is_self else [own_pid]
        checks = [(_JEQ_K, len(allowed) - i, 0, pid) for i, pid in enumerate(allowed)]
        program += _on_call(number, [(_LD_ABS_W, 0, 0, _arg(0)), *checks, (_RET_K, 0, 0, deny), (_RET_K, 0, 0, _RET_ALLOW)])
    program.append((_RET_K, 0, 0, _RET_ALLOW))
    return program


def _refuse_values(offset: int, values: tuple[int, ...], deny: int) -> list[tuple[int, int, int, int]]:
    """A call body: refuse when the argument word at ``offset`` is one of ``values``, else allow."""
    checks = [(_JEQ_K, len(values) - i, 0, value) for i, value in enumerate(values)]
    return [(_LD_ABS_W, 0, 0, offset), *checks, (_RET_K, 0, 0, _RET_ALLOW), (_RET_K, 0, 0, deny)]


def _on_call(number: int, body: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """``body`` runs for system call ``number`` and must return; other calls skip it with the number still loaded."""
    return [(_JEQ_K, 0, len(body), number), *body]
