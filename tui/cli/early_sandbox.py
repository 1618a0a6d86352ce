"""A sandbox whose fork server starts while the command line is still importing NumPy and the checker.

The server is an interpreter of its own that imports NumPy too; started
first, in a thread, its start overlaps the command's own imports and the
exercise's loading instead of following them (docs/PERFORMANCE.md). Only the
sandbox is imported here, which needs no NumPy.
"""

from __future__ import annotations

import threading

from attnpos.lessons.checker import RUNS_PER_CHECK
from attnpos.lessons.sandbox import INTERRUPT_POLL_S, ConfinementUnavailable, Sandbox
from attnpos.tui.render.usage import UsageError

CHECK_WORKERS = RUNS_PER_CHECK  # the first run and the reruns of one check go at once


class EarlySandbox:
    """Starts a :class:`Sandbox` now, in the background; :meth:`ready` waits for it."""

    def __init__(self, strict: bool | None, max_workers: int = CHECK_WORKERS) -> None:
        self.sandbox = Sandbox(max_workers=max_workers, strict=strict)
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._start, name="sandbox-start", daemon=True)
        self._thread.start()

    def _start(self) -> None:
        try:
            self.sandbox.start()
        except BaseException as failure:  # handed to the caller by ready(), in its own thread
            self._failure = failure

    def release(self) -> None:
        """Close the sandbox without waiting for its fork server to exit (0.2 to 0.4 s on a busy machine).

        The command is done with it: its runs have ended, their processes and
        folders are gone, and the server exits by itself once its control
        socket closes, at the latest when this process does.
        """
        threading.Thread(target=self.sandbox.close, name="sandbox-close", daemon=True).start()

    def ready(self) -> Sandbox:
        """The started sandbox; strict mode's refusal becomes a one-line usage error (exit 2)."""
        while self._thread.is_alive():
            self._thread.join(INTERRUPT_POLL_S)  # never blocked for good: Ctrl+C may be handed to the starting thread
        if isinstance(self._failure, ConfinementUnavailable):
            raise UsageError(str(self._failure)) from None
        if self._failure is not None:
            raise self._failure
        return self.sandbox
