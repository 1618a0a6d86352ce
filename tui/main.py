"""The `attnpos` program: the command line, handed the launchers of the interfaces its commands open.

The app is imported only when a command opens it, so `attnpos check`, `attnpos
--help` and the other commands never load Textual. `attnpos check` starts its
fork server before the command line is even imported (:func:`_start_check`).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing before the fork server starts
if TYPE_CHECKING:
    from typing import NoReturn

    from attnpos.lessons.sandbox.launch import Spawned


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    try:
        server = _start_check(arguments) if arguments[:1] == ["check"] else None
        # Imported here, inside the try: a Ctrl+C while the command line is still loading is an interruption too.
        from attnpos.tui import launchers
        from attnpos.tui.cli import command_line
    except KeyboardInterrupt:
        print("attnpos: interrupted", file=sys.stderr)
        return 130
    return command_line.main(arguments, command_line.Launchers(launchers.open_app, launchers.export_notebooks, launchers.serve), server)


def console(argv: list[str] | None = None) -> NoReturn:
    """The `attnpos` executable: :func:`main`, then the first half of Python's own exit, and no teardown.

    When the command returns its work is done and written (progress saved,
    sandbox closed); what Python does next is, first, wait for the threads
    still running and run the atexit handlers (done here, as it does them),
    then tear down every module and object one by one, which changes
    nothing outside the process and took 40-90 ms of a cold `attnpos check`
    (docs/PERFORMANCE.md). So the process ends once its output is flushed.
    """
    code = main(argv)
    threading._shutdown()  # type: ignore[attr-defined]  # what Python's exit does first: its thread hooks, then joins
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with that descriptor closed (`2>&-`): Python made no stream for it
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone (`| head`) or a stream closed: nothing left to say
            pass
    os._exit(code)


def _start_check(arguments: list[str]) -> Spawned | None:
    """What `attnpos check` does before anything else is imported (docs/PERFORMANCE.md); its fork server, started.

    The server's start, a Python importing NumPy, is the floor of a cold
    check; started first, it overlaps all the command does. Told from the
    words alone, before they are parsed: the command's checker adopts it only
    if it is the server it would start (a strictness the words did not show,
    say, gets a server of its own), and a command that opens none leaves it
    to exit with this process. And this process's own NumPy, imported later
    to judge a few small arrays, gets one BLAS thread, as the server's has:
    a pool of them costs more CPU to start and end than it saves, on the two
    cores the server is starting on.
    """
    if "-h" in arguments or "--help" in arguments:
        return None
    # One check, then the process ends: the cyclic collector would only walk the heap that some 300 imports grow,
    # pass after pass (23 M of a cold check's 685 M instructions, docs/PERFORMANCE.md), to free the few cycles they make.
    gc.disable()
    from attnpos.lessons.checker.server_start import start_server
    from attnpos.lessons.sandbox.launch import SINGLE_THREAD_ENV

    for name, value in SINGLE_THREAD_ENV.items():
        os.environ.setdefault(name, value)  # unless the learner chose otherwise
    # The runs' threads wait on the server while this thread imports the judges: each time one wakes, it gets the
    # interpreter lock within half a millisecond, not Python's 5 ms, and a run's start takes several wakes.
    sys.setswitchinterval(0.0005)
    try:
        return start_server(strict=True if "--strict" in arguments else None)
    except OSError:  # the checker's own start meets it again, and says so as the command always has
        return None
