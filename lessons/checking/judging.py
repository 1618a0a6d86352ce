"""From a learner's script to a verdict: run it, rerun it with other inputs, judge both.

The two runs go at once (the sandbox runs them in parallel), so a check costs
about one run's time. Run diagnoses (the script did not run, a name is
missing) come from the first run alone; the contract's judge sees both.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from pathlib import Path

import numpy as np

from attnpos.lessons.checking import rerun
from attnpos.lessons.checking.contracts import CONTRACTS, Contract, Runs
from attnpos.lessons.checking.sandbox import CancelToken, Limits, RunResult, Sandbox
from attnpos.lessons.checking.verdicts import CHECKER_ERROR, Mistake, Passed, Verdict, render
from attnpos.lessons.model import Exercise

SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")  # Python could not read the script: nothing ran


def check_source(
    exercise: Exercise, source: str, sandbox: Sandbox, limits: Limits = Limits(),
    cancel: CancelToken | None = None, filename: str = "answer.py",
) -> Verdict:
    contract = CONTRACTS[exercise.id]
    rerun_result = _start_rerun(contract, source, sandbox, limits, cancel, filename)
    first = sandbox.run_source(source, contract.names, limits, filename=filename, cancel=cancel)
    return judge_runs(exercise, first, rerun_result, source)


def check_file(
    exercise: Exercise, path: Path, sandbox: Sandbox, limits: Limits = Limits(), cancel: CancelToken | None = None,
) -> Verdict:
    contract = CONTRACTS[exercise.id]
    source = Path(path).read_text(encoding="utf-8")
    rerun_result = _start_rerun(contract, source, sandbox, limits, cancel, Path(path).name)
    first = sandbox.run(Path(path), contract.names, limits, cancel=cancel)
    return judge_runs(exercise, first, rerun_result, source)


class _Rerun:
    """The rerun, going on in a thread of its own while the first run goes on in the caller's."""

    def __init__(self, run: Callable[[], RunResult]) -> None:
        self._result: RunResult | None = None
        self._failure = ""
        self._thread = threading.Thread(target=self._go, args=(run,), name="checker-rerun", daemon=True)
        self._thread.start()

    def _go(self, run: Callable[[], RunResult]) -> None:
        try:
            self._result = run()
        except (OSError, RuntimeError) as error:  # the sandbox could not start the run
            self._failure = f"the sandbox could not rerun it ({error})"

    def outcome(self, names: tuple[str, ...]) -> tuple[dict[str, np.ndarray] | None, str]:
        """The rerun's values if it gave every name, else None and why not."""
        self._thread.join()
        result = self._result
        if result is None:
            return None, self._failure or "the script could not be rewritten"
        unread = [name for name in names if name not in result.values]
        if unread:
            why = f"{result.error.type}: {result.error.message}" if result.error else result.detail
            return None, f"{why} (`{unread[0]}` was never set)"
        return dict(result.values), ""


class _NoRerun:
    def __init__(self, failure: str) -> None:
        self._failure = failure

    def outcome(self, names: tuple[str, ...]) -> tuple[None, str]:
        return None, self._failure


def _start_rerun(
    contract: Contract, source: str, sandbox: Sandbox, limits: Limits, cancel: CancelToken | None, filename: str,
) -> _Rerun | _NoRerun:
    rewritten = rerun.substitute(source, contract.replacements)
    if rewritten is None:
        names = ", ".join(f"`{name}`" for name in contract.replacements)
        return _NoRerun(f"{names} must be set at the top level of the script, where the checker can replace it")
    return _Rerun(lambda: sandbox.run_source(rewritten, contract.names, limits, filename=filename, cancel=cancel))


def _error_cause(kind: str, message: str) -> str:
    """Which kind of error, so the advice follows it: a call's arguments, an unknown name, an index, shapes."""
    if kind == "NameError":
        return "name"
    if kind == "TypeError" and "argument" in message:
        return "arguments"
    if kind == "IndexError":
        return "index"
    if kind == "NotImplementedError":
        return "not-implemented"
    if kind == "ValueError" and any(word in message for word in ("shape", "broadcast", "dimension", "axis")):
        return "shapes"
    return ""


def judge_runs(exercise: Exercise, run: RunResult, rerun_result: _Rerun | _NoRerun, source: str) -> Verdict:
    """Turn the runs into a verdict, most fundamental mistake first."""
    contract = CONTRACTS[exercise.id]

    def verdict(diagnosis: str, cause: str = "", **details: object) -> Verdict:
        line = details.pop("line", None)
        message = render(exercise, diagnosis, cause, **{"changed": contract.changed, "line": line, **details})
        clean = {k: v for k, v in details.items() if v not in (None, "")}
        if cause:
            clean["cause"] = cause
        return Verdict(exercise.id, diagnosis == "passed", diagnosis, message, clean, line if isinstance(line, int) else None, run.stdout, run.confinement)

    if run.status == "timeout":
        return verdict("timeout", detail=run.detail)
    if run.status == "memory":
        return verdict("memory", detail=run.detail)
    if run.status in ("crash", "cancelled"):
        return verdict("crash", detail=run.detail, signal=run.signal, exit_code=run.exit_code)
    if run.status == "error" and run.error is not None:
        error = run.error
        diagnosis = "syntax-error" if error.type in SYNTAX_ERRORS else "error"
        cause = error.type if diagnosis == "syntax-error" else _error_cause(error.type, error.message)
        return verdict(diagnosis, cause, line=error.line, error=f"{error.type}: {error.message}", source_line=error.source_line)
    for name in contract.names:
        if name in run.missing:
            return verdict("missing-name", name=name)
        if name in run.bad_types:
            return verdict("bad-type", "not-numeric", name=name, got=run.bad_types[name])
    rerun_values, rerun_failure = rerun_result.outcome(contract.names)
    runs = Runs(dict(run.values), rerun_values, rerun_failure, source)
    try:
        with np.errstate(all="ignore"):
            outcome: Passed = contract.judge(runs)
    except Mistake as mistake:
        return verdict(mistake.diagnosis, mistake.cause, **mistake.fields)
    except Exception as error:  # a bug in a judge: never the learner's fault, and never passed off as theirs
        where = traceback.extract_tb(error.__traceback__)[-1]
        return verdict(CHECKER_ERROR, error=f"{type(error).__name__}: {error} ({Path(where.filename).name}:{where.lineno})")
    return verdict("passed", outcome.cause)
