"""A sandbox whose fork server starts while the command line is still importing NumPy and the checker.

The server is an interpreter of its own that imports NumPy too; started
first, in a thread, its start overlaps the command's own imports and the
exercise's loading instead of following them (docs/PERFORMANCE.md). Only the
sandbox is imported here, which needs no NumPy.
"""

from __future__ import annotations

import threading

from attnpos.lessons.checking.sandbox import ConfinementUnavailable, Sandbox
from attnpos.tui.cli.usage import UsageError

# The first run and the reruns of one check go at once (identical-tokens has two reruns).
CHECK_WORKERS = 3


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

    def ready(self) -> Sandbox:
        """The started sandbox; strict mode's refusal becomes a one-line usage error (exit 2)."""
        self._thread.join()
        if isinstance(self._failure, ConfinementUnavailable):
            raise UsageError(str(self._failure)) from None
        if self._failure is not None:
            raise self._failure
        return self.sandbox
