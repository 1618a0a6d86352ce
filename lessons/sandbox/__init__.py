"""Run a learner's exercise script in a disposable, limited, kernel-confined process.

Parts: :mod:`.client` (the app's side: Sandbox, CancelToken, the output
drain), :mod:`.answers` (answer files read and decoded), :mod:`.launch`
(starting the fork server: its clean environment, bubblewrap), :mod:`.results` (Limits, RunResult, reading results as plain
data), :mod:`.server` (the fork server and the supervisor), :mod:`.learner`
(the learner process), :mod:`.confinement` with :mod:`.landlock` and
:mod:`.seccomp` (what the learner may do), :mod:`.run_folders`,
:mod:`.terminal_text` (learner text made safe for a terminal and fenced),
:mod:`.tasks` (the cap on threads and processes) and :mod:`.protocol` (the
frames between them, and the bounds on what the app accepts); process
clean-up shared by supervisor and learner is in :mod:`.processes`;
:mod:`.pool` forks a fresh fork server per graded file from one warm parent.

A checker calls :meth:`Sandbox.run` (or ``run_bytes``, ``run_source``) with
the names it wants to judge, and how the learner process is to read its
script before running it (a :class:`Reading`: the checker's rewriting for a
rerun, its questions about the source, by a module named, never imported
here), and gets back a :class:`RunResult` made only of plain data: NumPy
arrays read with ``allow_pickle=False``, strings, numbers and booleans.

How a run works (Linux; needs ``os.pidfd_open``, Linux 5.3+)
-------------------------------------------------------------
* A :class:`Sandbox` starts one **fork server**: a long-lived helper
  interpreter with an allow-listed environment that has already imported
  NumPy and ``attnpos.core`` (BLAS pinned to one thread, so the helper stays
  single-threaded and safe to fork) and detected the confinement the kernel
  offers. In strict mode it runs inside bubblewrap where installed.
* Per run the app makes an output pipe and, once the server has forked the
  supervisor, sends the script's bytes (at most 256 KB, read from a file
  without following a link: :func:`read_script`); the
  server forks a **supervisor** (trusted sandbox code, no limits), which
  makes and locks a private run folder, copies the script into it, marks
  itself a child subreaper and forks the **learner process**.
* The learner starts its own session, keeps only fds 0 (``/dev/null``), 1
  and 2 (the pipe), sets ``RLIMIT_AS``/``RLIMIT_FSIZE`` to ``memory_mb``,
  ``RLIMIT_CORE`` to 0 and ``RLIMIT_NPROC`` (:mod:`.tasks`), moves into the
  run folder, drops every capability, applies ``PR_SET_NO_NEW_PRIVS``,
  Landlock and seccomp as detected, reads its script as the request's
  :class:`Reading` asks (before any of the script runs), and runs it as
  ``__main__``.
* The supervisor hands the app a pidfd of the learner and the run folder's
  descriptor, waits on the pidfd, the wall-clock deadline and the socket (a
  cancel, or the app going away, shows up there), then kills the learner's
  group and every remaining descendant, reports how the learner ended, and
  removes the run folder once the app has read it; the app waits for the
  supervisor to exit before the run returns, so no process or file of a run
  outlives its result (the removal is bounded). The app kills the learner
  through the pidfd itself if no report has come 1 s after the deadline.
* The app drains the pipe in a thread, keeping the first ``output_cap``
  bytes and counting the rest, so a print flood neither stalls the run nor
  fills memory.

How results travel
------------------
After the script's code has returned, the learner process creates a results
folder whose name holds a random token (not passed via argv, environment or
its folder), writes each requested numeric value's raw bytes and then, last,
``status.json`` carrying the token and each value's dtype and shape. The app
reads only that folder, through the run folder's descriptor, only plain
files, with ``json.loads`` and ``np.fromfile`` in a numeric dtype (nothing it
reads back is parsed as Python), and shows every learner text escaped.

Limits of these guarantees
--------------------------
The results are the learner process's own report: a script can write any
numbers it likes under its own names (the checker's rerun is what tells a
computed figure from a typed one), and any answers to its reading's
questions (no more than its source could get: a script may as well be
written to give the answer it wants). What the learner can reach outside its
process depends on the layers the kernel offers; the README's sandbox
section lists each with the Linux version it needs. Threads the script
started keep running while the results are written. macOS is not
supported (no pidfd, no subreaper, no ``/proc``).
"""

import importlib

# Imported on first use (PEP 562): the fork server and the learner process import only their own modules, and
# the app's side starts a fork server before it imports what its runs need (docs/PERFORMANCE.md).
_EXPORTS = {
    "fenced": "terminal_text",
    "printable": "terminal_text",
    "STATUSES": "results",
    "Limits": "results",
    "ErrorInfo": "results",
    "Reading": "results",
    "RunResult": "results",
    "CancelToken": "client",
    "Sandbox": "client",
    "ConfinementUnavailable": "confinement",
    "ScriptRefused": "answers",
    "decode_answer": "answers",
    "read_script": "answers",
    "refuse_if_too_large": "answers",
    "STRICT_ENV": "launch",
    "strict_from_environment": "launch",
    "missing_layers": "confinement",
}

TYPE_CHECKING = False  # typing.TYPE_CHECKING: typing is not imported before the fork server starts
if TYPE_CHECKING:
    from .answers import ScriptRefused, decode_answer, read_script, refuse_if_too_large
    from .client import CancelToken, Sandbox
    from .confinement import ConfinementUnavailable, missing_layers
    from .launch import STRICT_ENV, strict_from_environment
    from .results import STATUSES, ErrorInfo, Limits, Reading, RunResult
    from .terminal_text import fenced, printable


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "STATUSES",
    "Limits",
    "ErrorInfo",
    "Reading",
    "RunResult",
    "CancelToken",
    "Sandbox",
    "ConfinementUnavailable",
    "ScriptRefused",
    "decode_answer",
    "read_script",
    "refuse_if_too_large",
    "STRICT_ENV",
    "strict_from_environment",
    "missing_layers",
    "printable",
    "fenced",
]
