"""What a run may use and what it produced, and how the app reads a run's results as plain data.

The app reads only the run's results folder, through the run folder's
descriptor, only plain files (never following a symlink), with
``json.loads`` and, for each value, its raw bytes in the numeric dtype and
shape status.json gives (nothing is parsed as Python, as a .npy header
is). Nothing from the learner's process is unpickled or executed, and
nothing it prints affects the status. Every text that came from the learner
(output, error messages, tracebacks, type descriptions) passes through
:func:`.terminal_text.printable` here, so no caller ever gets raw control
characters.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
from typing import TYPE_CHECKING

from msgspec import Struct, field

from .terminal_text import printable

if TYPE_CHECKING:  # NumPy is imported where results are read, not here: the CLI starts the server before importing it
    import numpy as np
from .protocol import (
    CONFINEMENT_FAILED,
    MAX_STATUS_BYTES,
    MAX_STATUS_DEPTH,
    MAX_TEXT,
    MAX_TRACEBACK,
    VALUE_DTYPE,
    VALUE_SUFFIX,
    judged_bytes,
)

STATUSES = ("ok", "error", "crash", "timeout", "memory", "cancelled", "not-rewritten", "reading-failed")
# What the learner process may report of itself: the script's own end, or why its reading let it not run.
_OUTCOMES = ("ok", "error", "memory", "not-rewritten", "reading-failed")
MAX_ANSWERS = 64  # questions one run may be asked of its script


class Reading(Struct, frozen=True):
    """What the learner process does with its script before running it, through a module it imports by name.

    The sandbox imports nothing of the checker; the fork server preloads
    ``module`` (name it in the preload), and the learner process, confined,
    calls ``module.answer(source, question)`` for each of ``questions``
    (plain JSON; each answer a bool, in :attr:`RunResult.answers`) and then,
    unless ``rewrite`` is None, runs ``module.rewrite(source, rewrite)`` in
    place of the script. A ValueError from ``rewrite`` means the script
    cannot be rewritten: nothing runs, status "not-rewritten", its message
    the detail. Any other failure of the module is "reading-failed".
    ``lines_kept``: the rewriting leaves every line of the script where it
    was, so an error's line is shown as the learner wrote it.
    """

    module: str
    questions: tuple[object, ...] = ()
    rewrite: object = None
    lines_kept: bool = False

    def as_json(self) -> dict[str, object]:
        return {"module": self.module, "questions": list(self.questions), "rewrite": self.rewrite, "lines_kept": self.lines_kept}


class Limits(Struct, frozen=True):
    """What one run may use.

    ``timeout_s``: wall-clock seconds before the run is killed ("timeout").
    ``memory_mb``: address-space cap of the learner process (``RLIMIT_AS``),
    including the roughly 100 MB the interpreter and NumPy already map; also
    the largest file it may write. ``output_cap``: bytes of stdout+stderr kept.
    """

    timeout_s: float = 10.0
    memory_mb: int = 1024
    output_cap: int = 64 * 1024

    def __post_init__(self) -> None:
        if self.timeout_s <= 0 or self.memory_mb <= 0 or self.output_cap < 0:
            raise ValueError(f"limits must be positive: {self}")


class ErrorInfo(Struct, frozen=True):
    """The Python exception that stopped the script.

    ``type`` is the exception class name, ``message`` its text. ``line`` and
    ``source_line`` point at the innermost frame *of the learner's file* (for
    a SyntaxError, the offending line); both are None when no frame of that
    file was involved. ``traceback`` shows the learner's frames only, never
    the sandbox's.
    """

    type: str
    message: str
    line: int | None
    source_line: str | None
    traceback: str


class RunResult(Struct, frozen=True):
    """What a run produced, as plain data.

    ``status`` is one of :data:`STATUSES`:

    * "ok": the script ran to its end (or called ``sys.exit(0)``/``sys.exit()``).
    * "error": it raised an exception, or called ``sys.exit`` with a non-zero
      code or a message; ``error`` says which and where.
    * "memory": it raised MemoryError (``error`` is set), or the kernel
      killed it with SIGKILL, which in practice means out of memory.
    * "crash": the process died without finishing: a signal such as SIGSEGV
      (``signal`` is set) or ``os._exit`` (``exit_code`` is set).
    * "timeout": it ran past ``Limits.timeout_s`` and was killed.
    * "cancelled": :meth:`CancelToken.cancel` or :meth:`Sandbox.cancel` stopped it.
    * "not-rewritten": the run's :class:`Reading` could not rewrite the script,
      so nothing ran; ``detail`` says why.
    * "reading-failed": the run's :class:`Reading` itself failed (a fault of
      the module that reads, never of the script); ``detail`` says how.

    ``values``, ``bad_types`` and ``missing`` are read after the script's
    code returned, whether it ended normally or by an exception, so they show
    the names as they were when it stopped. ``values`` holds the requested
    names bound to a bool, int, float, complex, NumPy scalar or an ndarray of
    a bool/int/uint/float/complex dtype, as ``np.asarray`` gives them (lists
    and tuples of numbers too). ``bad_types`` maps the other requested
    names to a type description ("str", "list", "function", "object array",
    "int (too large for int64)"). ``missing`` lists the requested names the
    script never bound; ``oversized`` gives the shape of each name that is
    in ``bad_types`` only for being too large to read back. When the process
    died, timed out or was cancelled nothing could be read: ``values`` and
    ``bad_types`` are empty and every requested name is in ``missing``.

    ``stdout`` is stdout and stderr interleaved, capped at
    ``Limits.output_cap`` bytes, ending with a "[… N MB of output dropped]"
    note when cut. ``exit_code`` is the code the script exited with (0 for a
    normal end, 1 after an exception, ``n`` for ``sys.exit(n)`` or
    ``os._exit(n)``), None when a signal ended it. ``detail`` is a one-line
    explanation of the status, ``duration_s`` the wall time of the run.
    ``confinement`` is the kernel confinement the run had, for example
    ``{"landlock": 6, "seccomp": True, "bwrap": False}`` (see
    :mod:`.confinement`). ``answers`` holds the answer to each question of
    the run's :class:`Reading`, in order, asked before the script ran.
    """

    status: str
    values: dict[str, np.ndarray] = field(default_factory=dict)
    bad_types: dict[str, str] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    oversized: dict[str, tuple[int, ...]] = field(default_factory=dict)
    stdout: str = ""
    error: ErrorInfo | None = None
    signal: int | None = None
    exit_code: int | None = None
    detail: str = ""
    duration_s: float = 0.0
    confinement: dict = field(default_factory=dict)
    answers: tuple[bool, ...] = ()


class _Results(Struct, frozen=True):
    """The learner process's own report, validated."""

    outcome: str
    exit_code: int
    error: ErrorInfo | None
    values: dict[str, np.ndarray]
    bad_types: dict[str, str]
    missing: tuple[str, ...]
    oversized: dict[str, tuple[int, ...]]
    answers: tuple[bool, ...]
    detail: str  # why a reading let nothing run; "" otherwise


def read_results(run_fd: int, token: str, names: tuple[str, ...], budget: int) -> _Results | None:
    """Read the results folder inside the run folder open as ``run_fd``; None if absent, forged or malformed.

    At most ``budget`` bytes of arrays, counted as the float64 the checker
    makes of them, are read back (:func:`.protocol.read_back_budget`: the
    run's own memory cap, and at most 64 MiB, since the app holds them); a
    value past it is a bad type, "… too large to read back".
    """
    try:
        folder = os.open(f"results-{token}", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=run_fd)
    except OSError:
        return None
    try:
        report = _parse_status(_read_plain_file("status.json", folder, MAX_STATUS_BYTES))
        if not isinstance(report, dict) or report["token"] != token or report["outcome"] not in _OUTCOMES:
            return None
        bad_types = {names[int(i)]: printable(str(kind)[:MAX_TEXT]) for i, kind in report["bad_types"].items()}
        oversized = {names[int(i)]: _shape(shape) for i, shape in report.get("oversized", {}).items()}
        values = {}
        layouts = report["layouts"]
        for i in _indices(report["values"], names):
            loaded = _load_numeric(i, layouts[str(i)], folder, budget)
            if isinstance(loaded, tuple):
                bad_types[names[i]], oversized[names[i]] = loaded
            else:
                values[names[i]] = loaded
                budget -= judged_bytes(loaded.size, loaded.dtype.itemsize)
        return _Results(
            outcome=report["outcome"],
            exit_code=int(report["exit_code"]),
            error=_error_from(report["error"]),
            values=values,
            bad_types=bad_types,
            missing=tuple(names[i] for i in _indices(report["missing"], names)),
            oversized=oversized,
            answers=_answers(report.get("answers", [])),
            detail=printable(str(report.get("detail", ""))[:MAX_TEXT]),
        )
    except (
        OSError,
        ValueError,
        KeyError,
        TypeError,
        IndexError,
        AttributeError,
        RecursionError,
        MemoryError,
        SyntaxError,
    ):  # all a forged report or value can raise
        return None
    finally:
        os.close(folder)


def _read_plain_file(name: str, folder: int, limit: int) -> bytes:
    """The file's bytes; ValueError if it is not a plain file or holds more than ``limit`` bytes (nothing more is read)."""
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{name} is not a plain file")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{name} is over {limit} bytes")
    return data


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def _parse_status(data: bytes) -> object:
    """The JSON in ``data``, once its nesting is known to be shallow: ``json.loads`` recurses, and the learner
    process, which the script controls, may have written 100,000 nested lists."""
    depth = deepest = 0
    for char in _JSON_STRING.sub(b"", data).translate(None, delete=_NOT_BRACKETS):
        depth += 1 if char in b"[{" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_STATUS_DEPTH:
            raise ValueError("status.json nests too deeply")
    return json.loads(data.decode("utf-8"))


_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")


def _shape(raw: object) -> tuple[int, ...]:
    """A shape the learner process reported: a short list of sizes."""
    if not isinstance(raw, list) or len(raw) > 64 or not all(isinstance(n, int) and 0 <= n < 2**63 for n in raw):
        raise ValueError("not a shape")
    return tuple(raw)


def _load_numeric(index: int, layout: object, folder: int, budget: int) -> np.ndarray | tuple[str, tuple[int, ...]]:
    """Value ``index`` in the dtype and shape ``layout`` gives, or a bad-type description and its shape if it is larger than ``budget`` bytes.

    The layout must name a numeric dtype and a shape whose size is the
    file's; the data is read only if it fits the budget.
    """
    import numpy as np

    if not isinstance(layout, dict) or not isinstance(layout.get("dtype"), str) or not VALUE_DTYPE.fullmatch(layout["dtype"]):
        raise ValueError(f"value {index} has no numeric dtype")
    dtype, shape = np.dtype(layout["dtype"]), _shape(layout["shape"])
    name = f"{index}{VALUE_SUFFIX}"
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=folder)
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{name} is not a plain file")
        elements = int(np.prod(shape, dtype=object))
        if elements * dtype.itemsize != os.fstat(fd).st_size:
            raise ValueError(f"{name}: its layout does not match its size")
        if judged_bytes(elements, dtype.itemsize) > budget:
            return f"{dtype} array of {elements:,} elements (too large to read back)", shape
        return np.fromfile(file, dtype=dtype, count=elements).reshape(shape)


def _answers(raw: object) -> tuple[bool, ...]:
    """The answers to a reading's questions: a short list of booleans."""
    if not isinstance(raw, list) or len(raw) > MAX_ANSWERS or not all(isinstance(answer, bool) for answer in raw):
        raise ValueError("not a list of answers")
    return tuple(raw)


def _indices(raw: list, names: tuple[str, ...]) -> list[int]:
    indices = [int(i) for i in raw]
    if any(not 0 <= i < len(names) for i in indices):
        raise IndexError("name index out of range")
    return indices


def _error_from(raw: dict | None) -> ErrorInfo | None:
    if raw is None:
        return None
    line = raw["line"]
    source_line = raw["source_line"]
    return ErrorInfo(
        type=printable(str(raw["type"])[:MAX_TEXT]),
        message=printable(str(raw["message"])[:MAX_TEXT]),
        line=int(line) if line is not None else None,
        source_line=printable(str(source_line)[:MAX_TEXT]) if source_line is not None else None,
        traceback=printable(str(raw["traceback"])[-MAX_TRACEBACK:]),
    )


def build_result(
    end: dict,
    results: _Results | None,
    names: tuple[str, ...],
    limits: Limits,
    output: str,
    duration: float,
    confinement: dict,
) -> RunResult:
    """Combine the supervisor's report, the learner's results and the output into a RunResult."""
    signal_number = end.get("signal")
    output = printable(output)
    if results is not None and signal_number is None:
        return RunResult(
            status=results.outcome,
            values=results.values,
            bad_types=results.bad_types,
            missing=results.missing,
            oversized=results.oversized,
            stdout=output,
            error=results.error,
            exit_code=results.exit_code,
            detail=results.detail or _outcome_detail(results),
            duration_s=duration,
            confinement=dict(confinement),
            answers=results.answers,
        )
    status, detail = _failure(end, limits)
    return RunResult(
        status=status,
        missing=names,
        stdout=output,
        exit_code=end.get("exit_code"),
        signal=signal_number if status in ("crash", "memory") else None,  # not our own timeout/cancel kill
        detail=detail,
        duration_s=duration,
        confinement=dict(confinement),
    )


def _outcome_detail(results: _Results) -> str:
    if results.error is None:
        return "the script ran to its end"
    where = f" on line {results.error.line}" if results.error.line else ""
    return f"the script stopped with {results.error.type}{where}"


def _failure(end: dict, limits: Limits) -> tuple[str, str]:
    """Status and detail for a run that left no results."""
    ended, signal_number, exit_code = end["ended"], end.get("signal"), end.get("exit_code")
    if ended == "timeout":
        return "timeout", f"the script ran longer than {limits.timeout_s:g} s and was stopped"
    if ended == "cancelled":
        return "cancelled", "the run was cancelled"
    if ended == "lost":
        return "crash", "the sandbox lost track of the run (its supervisor was killed)"
    if signal_number == signal.SIGKILL:
        return "memory", "the process was killed (SIGKILL), most likely by the kernel for running out of memory"
    if signal_number is not None:
        return "crash", f"the process was killed by {_signal_name(signal_number)}"
    if exit_code == CONFINEMENT_FAILED:
        return "crash", "the sandbox could not confine the run, so the script did not run"
    if exit_code == 0:  # the learner process ended as normal, but what it left is no report the app accepts
        return "crash", "the script's results were missing, malformed or too large to read (did it change how they are written?)"
    return "crash", f"the process exited with code {exit_code} before the script finished (os._exit?)"


def _signal_name(number: int) -> str:
    try:
        return f"{signal.Signals(number).name} ({signal.strsignal(number)})"
    except ValueError:
        return f"signal {number}"
