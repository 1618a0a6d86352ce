"""Exercise checking: run the learner's script in the sandbox, rerun it, judge what it computed, say what is wrong.

The one place callers import from. An answer is a plain Python script; the
checker reads the names the exercise's contract asks for, reruns the script
with other values for some of its inputs (so a figure must follow the
learner's own arrays, not be typed in), recomputes with attnpos.core what
each name should be, and returns one :class:`Verdict` with a stable
diagnosis id. Messages live with the exercise content.

- ``engine``: the one checking engine, :func:`open_checker`: the sandbox, its limits, one executor, Ctrl+C
- ``values``: reading the learner's names, tolerances that follow their dtype
- ``contracts``: one module per exercise
- ``rerun`` and ``substitutes``: the learner process's reading of its own script (a rerun's rewriting, the
  questions a judge asks of the source), and a rerun's values
- ``verdicts``: verdicts and the sentences they are told in
- ``judging``: from runs to a verdict
"""

from __future__ import annotations

import importlib

# Imported on first use (PEP 562), so that a checker can start its fork server before NumPy is imported
# here: `attnpos check` overlaps the server's start with its own imports (docs/PERFORMANCE.md).
_EXPORTS = {
    "CONTRACTS": "contracts",
    "Checker": "engine",
    "RUNS_PER_CHECK": "engine",
    "open_checker": "engine",
    "CancelToken": "sandbox",
    "ConfinementUnavailable": "sandbox",
    "Limits": "sandbox",
    "RunResult": "sandbox",
    "ScriptRefused": "sandbox",
    "decode_answer": "sandbox",
    "fenced": "sandbox",
    "missing_layers": "sandbox",
    "printable": "sandbox",
    "Verdict": "verdicts",
}

TYPE_CHECKING = False  # typing.TYPE_CHECKING: typing is not imported before the fork server starts
if TYPE_CHECKING:
    from attnpos.lessons.checker.contracts import CONTRACTS
    from attnpos.lessons.checker.engine import RUNS_PER_CHECK, Checker, open_checker
    from attnpos.lessons.checker.verdicts import Verdict
    from attnpos.lessons.sandbox import (
        CancelToken,
        ConfinementUnavailable,
        Limits,
        RunResult,
        ScriptRefused,
        decode_answer,
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
    "RUNS_PER_CHECK",
    "CONTRACTS",
    "CancelToken",
    "Checker",
    "ConfinementUnavailable",
    "Limits",
    "RunResult",
    "ScriptRefused",
    "Verdict",
    "decode_answer",
    "fenced",
    "missing_layers",
    "open_checker",
    "printable",
]
