"""Exercise checking: run the learner's script twice in the sandbox, judge what it computed, say what is wrong.

The one place callers import from. An answer is a plain Python script; the
checker reads the names the exercise's contract asks for, reruns the script
with other values for some of its inputs (so a figure must follow the
learner's own arrays, not be typed in), recomputes with attnpos.core what
each name should be, and returns one :class:`Verdict` with a stable
diagnosis id. Messages live with the exercise content.

- ``values``: reading the learner's names, tolerances that follow their dtype
- ``contracts``: one module per exercise
- ``rerun`` and ``substitutes``: the second run's rewriting, and its values
- ``verdicts``: verdicts and the sentences they are told in
- ``judging``: from runs to a verdict
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The runs one check makes at once: the script as written and each rerun of its contract (identical-tokens has
# two); a sandbox with this many workers runs them side by side. tests/checker/test_separation.py holds it to the contracts.
RUNS_PER_CHECK = 3

# Imported on first use (PEP 562), so that the sandbox can start a fork server before NumPy is imported
# here: `attnpos check` overlaps the server's start with its own imports (docs/PERFORMANCE.md).
_EXPORTS = {
    "CONTRACTS": "contracts", "check_file": "judging", "check_source": "judging",
    "CancelToken": "sandbox", "ConfinementUnavailable": "sandbox", "Limits": "sandbox", "RunResult": "sandbox",
    "Sandbox": "sandbox", "ScriptRefused": "sandbox", "fenced": "sandbox", "missing_layers": "sandbox",
    "printable": "sandbox", "Verdict": "verdicts",
}

if TYPE_CHECKING:
    from attnpos.lessons.checker.contracts import CONTRACTS
    from attnpos.lessons.checker.judging import check_file, check_source
    from attnpos.lessons.checker.verdicts import Verdict
    from attnpos.lessons.sandbox import (
        CancelToken,
        ConfinementUnavailable,
        Limits,
        RunResult,
        Sandbox,
        ScriptRefused,
        fenced,
        missing_layers,
        printable,
    )


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = "attnpos.lessons.sandbox" if _EXPORTS[name] == "sandbox" else f"{__name__}.{_EXPORTS[name]}"
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "RUNS_PER_CHECK", "CONTRACTS", "CancelToken", "ConfinementUnavailable", "Limits", "RunResult", "Sandbox",
    "ScriptRefused", "Verdict", "check_file", "check_source", "fenced", "missing_layers", "printable",
]
