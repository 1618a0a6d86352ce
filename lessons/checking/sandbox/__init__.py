"""Run a learner's exercise script in a disposable, limited process.

Parts: :mod:`.client` (the app's side: Sandbox, CancelToken, the output
drain), :mod:`.results` (Limits, RunResult, reading results as plain data),
:mod:`.server` (the fork server and the supervisor), :mod:`.learner` (the
learner process) and :mod:`.protocol` (the frames between them); process
clean-up shared by supervisor and learner is in :mod:`.processes`.

A checker calls :func:`run_script` (or :meth:`Sandbox.run`) with the names it
wants to judge and gets back a :class:`RunResult` made only of plain data:
NumPy arrays read with ``allow_pickle=False``, strings and numbers.

How a run works (Linux; needs ``os.pidfd_open``, Linux 5.3+)
-------------------------------------------------------------
* A :class:`Sandbox` starts one **fork server**: a long-lived helper
  interpreter that has already imported NumPy and ``attnpos.core`` (BLAS
  pinned to one thread, so the helper stays single-threaded and safe to
  fork). Every run is forked from it, which skips the interpreter and NumPy
  start-up a cold ``python`` pays.
* Per run the app makes a socket pair and an output pipe and hands one end of
  each to the server (``socket.send_fds``). The server forks a **supervisor**
  (trusted sandbox code, no limits) and goes back to waiting.
* The supervisor marks itself a child subreaper (``PR_SET_CHILD_SUBREAPER``),
  so every process the learner starts stays its descendant even after a
  double fork or ``setsid``. It then forks the **learner process**, which
  starts its own session, points fds 1 and 2 at the output pipe and fd 0 at
  ``/dev/null``, sets ``RLIMIT_AS``/``RLIMIT_FSIZE`` to ``memory_mb`` and
  ``RLIMIT_CORE`` to 0, moves into a fresh empty working folder and runs the
  script as ``__main__``.
* The supervisor waits on a pidfd, the wall-clock deadline and the socket (a
  cancel, or the app going away, shows up there). When the learner ends, for
  any reason, the supervisor SIGKILLs the learner's process group, then
  SIGKILLs and reaps every remaining descendant (found in ``/proc``) until
  none is left, and reports how the learner ended over the socket.
* The app drains the pipe in a thread, keeping the first ``output_cap``
  bytes and counting the rest, so a print flood neither stalls the run nor
  fills memory. It removes the run's temporary folder afterwards.

How results travel
------------------
After the script's code has returned, the learner process creates a results
folder whose name holds a random token it received over the socket (not via
argv, environment or its working folder), writes each requested numeric
value with ``np.save(allow_pickle=False)`` and then, last, ``status.json``
carrying the token. The app reads only that folder, only plain files, with
``np.load(allow_pickle=False)`` and ``json.loads``, and accepts only numeric
dtypes. Nothing from the learner's process is unpickled or executed, and
nothing it prints affects the status.

Limits of these guarantees
--------------------------
The learner's code runs as the same user as the app. Against a deliberately
malicious script the result channel is best-effort: code that digs the token
out of the sandbox's own stack frames can forge a results folder, and it can
signal any process of the user (the supervisor, the fork server, the app).
Threads the script started keep running while the results are written.
Descendants are reaped in rounds; a fork bomb racing that loop may outlive
it. There are no per-run limits on process count, CPU share or network. A
file bigger than ``memory_mb`` cannot be written (SIGXFSZ, a "crash"). A
folder the script made unwritable may be left in the temp directory. macOS is
not supported (no pidfd, no subreaper, no ``/proc``).
"""

from .client import STRICT_ENV, CancelToken, Sandbox, run_script, run_source, strict_from_environment
from .confinement import ConfinementUnavailable, missing
from .printable import printable
from .results import STATUSES, ErrorInfo, Limits, RunResult

__all__ = [
    "STATUSES", "Limits", "ErrorInfo", "RunResult", "CancelToken", "Sandbox", "run_script", "run_source",
    "ConfinementUnavailable", "STRICT_ENV", "strict_from_environment", "missing", "printable",
]
