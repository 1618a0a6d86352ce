"""A checker's fork server, started before the checker itself is imported.

A cold ``attnpos check`` waits for its fork server, a Python that imports
NumPy: the floor of the whole command (docs/PERFORMANCE.md). So the command
line starts it first, with this module and the sandbox's launcher alone
imported, and hands it to :func:`.engine.open_checker`, whose sandbox adopts
it; everything else the command imports and reads overlaps the server's start.
"""

from __future__ import annotations

from attnpos.lessons.checker.learner_modules import READING_MODULE, SUBSTITUTES_MODULE
from attnpos.lessons.sandbox import launch

# The runs one check makes at once: the script as written and each rerun of its contract (sinusoidal-table has
# thirteen: four bends and nine covering placements). tests/checker/test_separation.py holds it to the contracts.
RUNS_PER_CHECK = 14
# What the fork server imports once, so that no run has to: NumPy, the core, and by name what the learner process
# calls of the checker (a rerun's substitutes, the reading of its own script).
PRELOAD = ("numpy", "attnpos.core", SUBSTITUTES_MODULE, READING_MODULE)


def runs_at_once(jobs: int) -> int:
    """The one place the worker count is decided: ``jobs`` checks at once, each with every run side by side."""
    return jobs * RUNS_PER_CHECK


def start_server(strict: bool | None = None) -> launch.Spawned:
    """The process of the fork server ``open_checker(strict=strict, server=...)`` will use, started now (``strict``
    None: ``ATTNPOS_STRICT=1``); a checker opened otherwise stops it unused."""
    return launch.spawn_for(PRELOAD, launch.strict_from_environment() if strict is None else strict, runs_at_once(1))
