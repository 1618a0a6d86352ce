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
import os

from . import landlock, seccomp

_PR_SET_NO_NEW_PRIVS = 38
# Strict mode's floor: Landlock's signal and socket scopes arrived with ABI 6 (Linux 6.12).
STRICT_LANDLOCK_ABI = 6
# Newest Landlock ABI whose rights this module knows; a newer kernel is used at this level.
KNOWN_LANDLOCK_ABI = 6


class ConfinementUnavailable(RuntimeError):
    """Strict mode was asked for and this machine cannot confine learner code well enough."""


def detect(in_bwrap: bool) -> dict:
    """The confinement this kernel supports, for a fork server started inside bubblewrap or not."""
    return {
        "landlock": min(landlock.abi_version(), KNOWN_LANDLOCK_ABI),
        "seccomp": seccomp.supported(),
        "bwrap": in_bwrap,
    }


def confine_learner(level: dict, run_folder: str) -> None:
    """Apply ``level`` to this (learner) process, for good; raises OSError if any layer fails."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:  # nothing it runs can gain privileges
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if level["landlock"]:
        landlock.restrict_self(level["landlock"], run_folder)
    if level["seccomp"]:
        seccomp.install(os.getpid())  # last: the calls above must still be allowed


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
    return f"strict mode needs seccomp and Landlock ABI {STRICT_LANDLOCK_ABI}+ or bubblewrap: " + \
        "; ".join(missing_layers(level)) + f"; {install}"
