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
- ``judging``: from runs to a verdict; ``content``: ``lessons --check``
"""

from attnpos.lessons.checking.content import exercise_problems
from attnpos.lessons.checking.contracts import CONTRACTS
from attnpos.lessons.checking.judging import check_file, check_source
from attnpos.lessons.checking.sandbox import (
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
from attnpos.lessons.checking.verdicts import Verdict

__all__ = [
    "CONTRACTS", "CancelToken", "ConfinementUnavailable", "Limits", "RunResult", "Sandbox", "ScriptRefused", "Verdict",
    "check_file", "check_source", "exercise_problems", "fenced", "missing_layers", "printable",
]
