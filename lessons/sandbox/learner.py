"""The learner process: limit and confine itself, run the script as ``__main__``, write its results.

Before the script runs it starts its own session, keeps only its standard
streams open, takes its memory and file-size caps, moves into its run
folder, sets ``HOME`` and ``TMPDIR`` there and applies the confinement
level the fork server detected (NO_NEW_PRIVS, Landlock, seccomp; see
:mod:`.confinement`); if any of that fails it exits with
``CONFINEMENT_FAILED`` and the script never runs. Then, confined, it reads
its own script as the request's :class:`.results.Reading` asks (answers
questions about it, rewrites it for a rerun), through a module the fork
server preloaded and that it imports by name: the app never parses
learner source, and whatever the reading costs is this process's.

After the script's code has returned, it creates the results folder named
with the run's token (received over the socket, not via argv, environment
or working folder), writes each requested numeric value's raw bytes (C
order) and then, last, ``status.json`` carrying the token and each value's
dtype and shape.
"""

from __future__ import annotations

import atexit
import builtins
import importlib
import io
import json
import os
import resource
import sys
import threading
import traceback
import types
from pathlib import Path

import numpy as np

from . import confinement, tasks
from .answers import decode_answer, encode_answer
from .processes import kill_descendants
from .protocol import CONFINEMENT_FAILED, MAX_TEXT, MAX_TRACEBACK, NUMERIC_KINDS, VALUE_SUFFIX, judged_bytes, read_back_budget

_ARRAY_KIND_NAMES = {
    "O": "object array",
    "U": "str array",
    "S": "bytes array",
    "M": "datetime64 array",
    "m": "timedelta64 array",
    "V": "structured array",
}


def become_learner(output_fd: int, request: dict, run_folder: str, script: str, level: dict) -> None:
    """Limit and confine this process, run ``script`` and write its results; never returns.

    The script is read from its copy, ``script``, but runs under the name the
    learner knows, ``request["filename"]`` (its ``__file__``, ``sys.argv[0]``
    and the file of its tracebacks).
    """
    exit_code = 70  # reached only if the sandbox itself fails here
    supervisor = os.getppid()
    try:
        os.setsid()
        _redirect_stdio(output_fd)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # the run folder's lock and anything else the server held
        _limit_resources(request["memory_mb"])
        os.chdir(os.path.join(run_folder, "work"))
        os.environ.update(HOME=run_folder, TMPDIR=os.path.join(run_folder, "work"))
        try:
            tasks.limit_learner()
            # Root ignores RLIMIT_NPROC: without the server's pids cgroup, a root learner gets no new thread.
            threads = request.get("tasks_capped", False) or os.getuid() != 0
            confinement.confine_learner(level, run_folder, threads)
        except OSError as failure:
            print(f"sandbox: the run could not be confined, so the script did not run: {failure}", file=sys.stderr)
            exit_code = CONFINEMENT_FAILED
            return
        try:
            written = Path(script).read_bytes()
            source, answers = _read_own_script(request.get("reading"), written)
        except _NotRun as not_run:
            namespace: dict = {}
            report = {"outcome": not_run.outcome, "exit_code": 0, "error": None, "detail": not_run.detail}
        else:
            shown = written if (request.get("reading") or {}).get("lines_kept") else source  # the lines an error quotes
            namespace, outcome, script_exit_code, error = _execute(source, script, request["filename"], shown)
            _end_as_python_does()
            report = {"outcome": outcome, "exit_code": script_exit_code, "error": error, "answers": answers}
        _kill_own_processes(supervisor)
        _write_results(
            Path(run_folder) / f"results-{request['token']}", request["token"], request["names"], namespace, report, read_back_budget(request["memory_mb"])
        )
        exit_code = 0
    except BaseException as failure:  # the sandbox's own code failed here: say where, for its report
        print(f"sandbox: {type(failure).__name__}: {failure}", file=sys.__stderr__)
    finally:
        _flush_stdio()
        os._exit(exit_code)


class _NotRun(Exception):
    """The reading let the script not run: ``outcome`` "not-rewritten" or "reading-failed", and why."""

    def __init__(self, outcome: str, detail: str) -> None:
        super().__init__(detail)
        self.outcome = outcome
        self.detail = detail[:MAX_TEXT]


def _read_own_script(reading: dict | None, source: bytes) -> tuple[bytes, list[bool]]:
    """The script to run and the answers to the reading's questions, asked before anything of the script runs."""
    if reading is None:
        return source, []
    try:
        text = decode_answer(source)  # as compile() below decodes it: a byte-order mark dropped, a coding cookie honoured
    except UnicodeDecodeError:
        return source, [False] * len(reading["questions"])  # compile() reports it, as the learner's syntax error
    try:
        module = importlib.import_module(reading["module"])
        answers = [bool(module.answer(text, question)) for question in reading["questions"]]
        if reading["rewrite"] is None:
            return source, answers
        try:
            return encode_answer(module.rewrite(text, reading["rewrite"])), answers
        except ValueError as refusal:
            raise _NotRun("not-rewritten", _safe_str(refusal)) from None
    except _NotRun:
        raise
    except Exception as failure:  # the reading module's own fault, never the script's: said as the checker's
        frames = traceback.extract_tb(failure.__traceback__)
        where = f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
        raise _NotRun("reading-failed", f"{type(failure).__name__}: {_safe_str(failure)[:200]}{where}") from None


def _kill_own_processes(supervisor: int) -> None:
    """Kill every process the script started, so none can tamper with the results about to be written."""
    parents = {os.getpid()}
    if os.getppid() == supervisor:  # orphans went to the supervisor; if it is gone, never touch another parent's
        parents.add(supervisor)
    kill_descendants(frozenset(parents), spare=os.getpid())


def _redirect_stdio(output_fd: int) -> None:
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.close(stdin)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    # Line-buffered so that stdout and stderr interleave in order and a crash loses little.
    if isinstance(sys.stdout, io.TextIOWrapper):  # always, in the fork server; the check is for the type checker
        sys.stdout.reconfigure(line_buffering=True)


def _flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except Exception:  # the learner may have replaced or closed them
            pass


def _limit_resources(memory_mb: int) -> None:
    memory = memory_mb * 1024 * 1024
    _set_limit(resource.RLIMIT_AS, memory)
    _set_limit(resource.RLIMIT_FSIZE, memory)
    _set_limit(resource.RLIMIT_CORE, 0)


def _set_limit(which: int, value: int) -> None:
    """Set soft and hard limit (so the script cannot raise it), never above the current hard limit."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def _end_as_python_does() -> None:
    """What Python does after a script's last line, before it exits: wait for the script's threads (all but daemon
    ones), then call what it registered with ``atexit``. What they change is what ``python script.py`` leaves, so the
    names are read after them (a hook that rewrites an answer once the body has ended is judged by what it wrote). A
    failure among them is reported as Python does, on stderr, and changes nothing else."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # the interpreter's own join of non-daemon threads
    except Exception:
        traceback.print_exc()
    atexit._run_exitfuncs()


def _execute(source: bytes, copy: str, script: str, shown: bytes) -> tuple[dict, str, int, dict | None]:
    """Run ``source`` (the file ``copy``, or its rewriting) as __main__ named ``script``; return its namespace, outcome,
    exit code and error (its line quoted from ``shown``)."""
    lines = shown.decode("utf-8", errors="replace").splitlines()
    module = types.ModuleType("__main__")
    module.__file__ = script
    module.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = module
    sys.argv = [script]
    sys.path[0] = os.path.dirname(copy)
    try:
        # dont_inherit: the sandbox's own `from __future__` imports must not apply to the script.
        exec(compile(source, script, "exec", dont_inherit=True), module.__dict__)
    except SystemExit as exit_request:
        code = exit_request.code
        if code is None or code == 0:
            return module.__dict__, "ok", 0, None
        exit_code = code if isinstance(code, int) else 1
        return module.__dict__, "error", exit_code, _describe_exception(exit_request, script, lines)
    except MemoryError as exc:
        return module.__dict__, "memory", 1, _describe_exception(exc, script, lines)
    except BaseException as exc:
        return module.__dict__, "error", 1, _describe_exception(exc, script, lines)
    return module.__dict__, "ok", 0, None


def _describe_exception(exc: BaseException, script: str, lines: list[str]) -> dict:
    """Type, message and the learner's line for an exception, from the learner's frames only."""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == script]
    line = frames[-1].lineno if frames else None
    message = _safe_str(exc)
    if isinstance(exc, SyntaxError) and exc.filename == script:
        line, message = exc.lineno, str(exc.msg)
    source_line = lines[line - 1].strip() if line and 0 < line <= len(lines) else None
    shown = traceback.StackSummary.from_list(frames).format()
    try:
        shown += traceback.format_exception_only(type(exc), exc)
    except Exception:  # a learner's __str__ may raise
        shown.append(f"{type(exc).__name__}: {message}\n")
    return {
        "type": type(exc).__name__[:MAX_TEXT],
        "message": message[:MAX_TEXT],
        "line": line,
        "source_line": source_line[:MAX_TEXT] if source_line else source_line,
        "traceback": "".join(shown)[-MAX_TRACEBACK:],
    }


def _safe_str(value: object) -> str:
    try:
        return str(value)
    except Exception:
        return f"<{type(value).__name__} whose str() failed>"


def _write_results(results_dir: Path, token: str, names: list[str], namespace: dict, report: dict, budget: int) -> None:
    """Save the requested names as raw data files, then status.json (``report``, what was saved and its layout); the folder must not exist yet.

    At most ``budget`` bytes of arrays, counted as float64 (:func:`judged_bytes`),
    are written: a broadcast view costs the script no memory but would be
    written out, and read back, in full.
    """
    results_dir.mkdir(mode=0o700)  # fails if someone made it before the script's code returned
    saved, layouts, bad_types, missing, oversized = [], {}, {}, [], {}
    for index, name in enumerate(names):
        if name not in namespace:
            missing.append(index)
            continue
        array = _numeric_array(namespace[name])
        if isinstance(array, str):
            bad_types[index] = array[:MAX_TEXT]  # a class's name can be any length
            continue
        cost = judged_bytes(array.size, array.dtype.itemsize)
        if cost > budget:
            bad_types[index] = f"{array.dtype} array of {array.size:,} elements (too large to read back)"
            oversized[index] = list(array.shape)
            continue
        budget -= cost
        try:
            array.tofile(results_dir / f"{index}{VALUE_SUFFIX}")  # C order, whatever the array's own
            saved.append(index)
            layouts[index] = {"dtype": array.dtype.str, "shape": list(array.shape)}
        except (MemoryError, OSError, ValueError) as exc:
            bad_types[index] = f"{type(namespace[name]).__name__} (could not be saved: {type(exc).__name__})"
    report = {
        **report,
        "token": token,
        "values": saved,
        "layouts": layouts,
        "bad_types": bad_types,
        "missing": missing,
        "oversized": oversized,
    }
    partial = results_dir / "status.partial"
    partial.write_text(json.dumps(report), encoding="utf-8")
    partial.replace(results_dir / "status.json")  # the app sees the report whole or not at all


def _numeric_array(value: object) -> np.ndarray | str:
    """The value as an ndarray if it is numeric, else a short description of its type."""
    if isinstance(value, (list, tuple)):  # `perm = [3, 0, 5, 1, 4, 2]`, as the lessons write it
        try:
            array = np.asarray(value)
        except (ValueError, TypeError, OverflowError, MemoryError, RecursionError):
            return type(value).__name__
        return array if array.dtype.kind in NUMERIC_KINDS else type(value).__name__
    if not isinstance(value, (bool, int, float, complex, np.number, np.bool_, np.ndarray)):
        return type(value).__name__
    try:
        array = np.asarray(value)
    except Exception:
        return type(value).__name__
    if array.dtype.kind in NUMERIC_KINDS:
        return array
    if isinstance(value, np.ndarray):
        return _ARRAY_KIND_NAMES.get(array.dtype.kind, f"{array.dtype} array")
    return f"{type(value).__name__} (too large for int64)"
