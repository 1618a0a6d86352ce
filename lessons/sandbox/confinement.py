"""Which kernel confinement a run gets, applying it in the learner process, and strict mode's rule.

The level is a plain dict, the same in ``--json`` and ``grade`` output:
``{"landlock": 6, "seccomp": true, "bwrap": false}`` (``landlock`` is the ABI
applied, 0 for none). The fork server detects it once at start
(:func:`detect`); every learner process then applies exactly that level
(:func:`confine_learner`) or stops before the script runs, so the level
reported is the level in force.
"""

from __future__ import annotations

import ctypes
import errno
import os

from . import landlock, seccomp

_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_CAP_SETPCAP = 8
# Capability numbers run to CAP_CHECKPOINT_RESTORE (40) today; dropping one the kernel does not know fails with EINVAL.
_CAP_LAST_POSSIBLE = 63
# Strict mode's floor: Landlock's signal and socket scopes arrived with ABI 6 (Linux 6.12).
STRICT_LANDLOCK_ABI = 6
# Newest Landlock ABI whose rights this module knows; a newer kernel is used at this level.
KNOWN_LANDLOCK_ABI = 6


class ConfinementUnavailable(RuntimeError):
    """Strict mode was asked for and this machine cannot confine learner code well enough."""


def detect(in_bwrap: bool, left_off: frozenset[str] = frozenset()) -> dict:
    """The confinement this kernel supports, for a fork server started inside bubblewrap or not.

    ``left_off`` names layers ("landlock", "seccomp") not to use, so that a
    test can show what each layer stops on its own.
    """
    return {
        "landlock": 0 if "landlock" in left_off else min(landlock.abi_version(), KNOWN_LANDLOCK_ABI),
        "seccomp": "seccomp" not in left_off and seccomp.supported(),
        "bwrap": in_bwrap,
    }


def confine_learner(level: dict, run_folder: str, threads: bool) -> None:
    """Apply ``level`` to this (learner) process, for good; raises OSError if any layer fails.

    Every capability goes first (a root learner could otherwise set the
    immutable flag on its files, or ignore its task cap); ``threads`` False
    makes the seccomp filter refuse new threads too.
    """
    drop_capabilities()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:  # nothing it runs can gain privileges
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if level["landlock"]:
        landlock.restrict_self(level["landlock"], run_folder)
    if level["seccomp"]:
        seccomp.install(os.getpid(), threads)  # last: the calls above must still be allowed


def drop_capabilities() -> None:
    """Empty this process's bounding, ambient, effective, permitted and inheritable capability sets, for good.

    The bounding set can be emptied only while holding ``CAP_SETPCAP``
    (root); without it a process has no capability to lose, and
    ``PR_SET_NO_NEW_PRIVS`` keeps it from gaining any.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if _has_capability(_CAP_SETPCAP):
        for capability in range(_CAP_LAST_POSSIBLE + 1):
            if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 and ctypes.get_errno() != errno.EINVAL:
                raise OSError(ctypes.get_errno(), f"prctl(PR_CAPBSET_DROP, {capability}) failed")
    if libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 and ctypes.get_errno() != errno.EINVAL:
        raise OSError(ctypes.get_errno(), "prctl(PR_CAP_AMBIENT_CLEAR_ALL) failed")
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    empty = (ctypes.c_uint32 * 6)()  # two of {effective, permitted, inheritable}, all zero
    if libc.capset(header, empty) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def _has_capability(number: int) -> bool:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("CapEff:"):
                return bool(int(line.split()[1], 16) >> number & 1)
    return False


def missing_layers(level: dict) -> list[str]:
    """The per-run layers (seccomp, Landlock ABI 6) this level lacks, as short phrases; empty when both are on."""
    gaps = []
    if not level["seccomp"]:
        gaps.append("no seccomp filter (x86-64 Linux only)")
    if level["landlock"] < STRICT_LANDLOCK_ABI:
        found = f"ABI {level['landlock']}" if level["landlock"] else "absent"
        gaps.append(f"Landlock {found}, ABI {STRICT_LANDLOCK_ABI} needs Linux 6.12")
    return gaps


def strict_shortfall(level: dict, bwrap_installed: bool) -> str | None:
    """Why ``level`` fails strict mode, in one line with what to install; None when it passes."""
    if level["bwrap"] or (level["seccomp"] and level["landlock"] >= STRICT_LANDLOCK_ABI):
        return None
    install = "install bubblewrap (apt-get install bubblewrap)"
    if bwrap_installed:
        install = "bubblewrap is installed but could not start (are unprivileged user namespaces disabled?)"
    return f"strict mode needs seccomp and Landlock ABI {STRICT_LANDLOCK_ABI}+ or bubblewrap: " + "; ".join(missing_layers(level)) + f"; {install}"
