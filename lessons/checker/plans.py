"""A check's plan, as plain data, and the plan of each contract kept from the last cold check that made it.

Making a plan imports the exercise's contract, and with it NumPy and the
judges: 50 ms that a cold ``attnpos check`` spent before it could send its
runs, when its fork server was ready first (docs/PERFORMANCE.md). So the
engine keeps each contract's plan in a file beside the run folders (private
to the user, in memory, gone at a restart), sends a cold check's runs by the
kept plan at once, and imports the judges while the runs wait for the
server. A kept plan is never trusted, only early: the engine makes the plan
as well, and if the two differ (attnpos was upgraded, or the file edited)
it checks again by the plan it made and keeps that one.
"""

from __future__ import annotations

import json
import os

from msgspec import Struct

from attnpos.lessons.sandbox import Reading
from attnpos.lessons.sandbox.run_folders import base_folder

PLANS_FILE = "plans.json"
# Plans are kept per installation: two checkouts of attnpos share the user's run folders.
_INSTALLATION = os.path.dirname(os.path.abspath(__file__))


class Plan(Struct, frozen=True):
    """A check's runs: the names each reads back, and what each does with the script before running it."""

    names: tuple[str, ...]
    readings: tuple[Reading, ...]  # the first run's (it answers the contract's questions), then each rerun's (it rewrites)

    def as_json(self) -> list[object]:
        return [list(self.names), [reading.as_json() for reading in self.readings]]


def kept_plan(contract: str) -> Plan | None:
    """The plan kept for ``contract`` by this installation, or None (none kept, or the file cannot be read)."""
    try:
        with open(os.path.join(base_folder(), PLANS_FILE), encoding="utf-8") as file:
            names, readings = json.load(file)[_INSTALLATION][contract]
        return Plan(tuple(names), tuple(Reading(r["module"], tuple(r["questions"]), r["rewrite"], r["lines_kept"]) for r in readings))
    except (OSError, ValueError, KeyError, TypeError):  # missing, or not what keep_plan writes: made again
        return None


def keep_plan(contract: str, plan: Plan) -> None:
    """Keep ``plan`` for ``contract``, replacing the file at once (another check may be reading it); never fails."""
    try:
        folder = base_folder()
        path = os.path.join(folder, PLANS_FILE)
        try:
            with open(path, encoding="utf-8") as file:
                kept = json.load(file)
            if not isinstance(kept, dict):
                kept = {}
        except (OSError, ValueError):
            kept = {}
        ours = kept.get(_INSTALLATION)
        kept[_INSTALLATION] = {**(ours if isinstance(ours, dict) else {}), contract: plan.as_json()}
        temporary = os.path.join(folder, f".{PLANS_FILE}.{os.getpid()}.{os.urandom(4).hex()}")
        try:
            with open(temporary, "x", encoding="utf-8") as file:
                json.dump(kept, file)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):  # not replaced: the disk was full, say
                os.unlink(temporary)
    except OSError:  # a folder that cannot be written keeps no plan: every cold check makes its own
        pass
