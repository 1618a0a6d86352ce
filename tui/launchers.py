"""What the command line opens but never imports: the app, the course exported for Jupyter, the course served to a browser.

The four interfaces (app, cli, notebook, web) never import each other. The
command line parses and validates; when a command opens another interface, it
calls one of these launchers, which `attnpos.tui.main` hands it. Each imports
its interface only when called, so no command loads Textual, Jupyter or the
web server that it does not use.
"""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from attnpos.tui.render.usage import UsageError

if TYPE_CHECKING:  # the course's model, and shown_path's module (the checker's verdicts): not on the app's way to its first frame
    from attnpos.lessons.course.model import Course


def open_app(data_dir: Path | None, start: tuple[int, int] | str | None = None, play: str | None = None) -> int:
    """Run the course in the Textual app until the learner quits."""
    from attnpos.tui.app.course_app import AttnposApp

    app = AttnposApp(data_dir=data_dir, start=start, play=play)
    app.run()
    if app.return_code == 1:  # Textual's status for an error no screen caught; it has printed the traceback
        from attnpos.tui.render.exercise_print import shown_path

        where = f"the details are in {shown_path(app.crash_log)}" if app.crash_log else "the details are above"
        print(f"attnpos: the app stopped on an error; your place and drafts are saved; {where}", file=sys.stderr)
    return app.return_code or 0


def _extra(extra: str, module: str) -> None:
    """A one-line error naming the extra to install when its package is missing."""
    try:
        __import__(module)
    except ImportError:
        raise UsageError(f"this needs the {extra} extra: pip install 'attnpos[{extra}]'") from None


def export_notebooks(course: Course, which: str, folder: Path) -> int:
    _extra("jupyter", "nbformat")
    from attnpos.tui.notebook.export import export_notebooks as write
    from attnpos.tui.render.exercise_print import shown_path

    if which == "all":
        lessons = list(course.lessons)
    elif which.isdigit():
        try:
            lessons = [course.lesson(int(which))]
        except KeyError as error:
            raise UsageError(error.args[0]) from None
    else:
        raise UsageError(f"{which!r} is neither a lesson number nor 'all'")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"not a folder: {shown_path(folder)}")
    try:
        written = write(course, lessons, folder)
    except OSError as error:
        raise UsageError(f"cannot write into {shown_path(folder)}: {error.strerror or error}") from None
    for path in written:
        print(f"wrote {shown_path(path)}")
    print("open them in Jupyter; their first cell loads the %attnpos magic")
    return 0


def serve(
    host: str,
    port: int,
    sessions_dir: Path | None,
    data_dir: Path | None,
    allow_remote: bool = False,
    proxies: tuple[str, ...] = (),
    max_sessions: int | None = None,
) -> int:
    _extra("web", "textual_serve")
    from attnpos.lessons.checker import ConfinementUnavailable, open_checker
    from attnpos.lessons.course.progress import default_data_dir
    from attnpos.tui.render.exercise_print import shown_path
    from attnpos.tui.web.serve import CourseServer, SessionLimits, is_loopback
    from attnpos.tui.web.sessions import SessionBook, SessionsInUse

    if not 1 <= port <= 65535:
        raise UsageError("--port must be between 1 and 65535")
    if max_sessions is not None and max_sessions < 1:
        raise UsageError("--max-sessions must be at least 1")
    limits = SessionLimits() if max_sessions is None else SessionLimits(total=max_sessions)
    try:
        trusted = frozenset(str(ipaddress.ip_address(proxy)) for proxy in proxies)
    except ValueError as error:
        raise UsageError(f"--proxy needs an IP address: {error}") from None
    public = not is_loopback(host)
    if public and not allow_remote:
        raise UsageError(f"{host} can be reached from other machines; say --allow-remote if that is what you want")
    if public:
        # Every learner's code runs on this host: beyond loopback, only with every confinement layer.
        try:
            with open_checker(strict=True) as probe:
                _ = probe.confinement  # waiting for its start raises when strict mode cannot be met
        except ConfinementUnavailable as reason:
            raise UsageError(f"refusing to serve on {host}: {reason}") from None
        print(
            f"attnpos: warning: anyone who can reach {host}:{port} can run Python code on this machine "
            "(confined by the strict sandbox); use a firewall or an SSH tunnel",
            file=sys.stderr,
        )
    folder = sessions_dir or (data_dir or default_data_dir()) / "browser-sessions"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make {shown_path(folder)}: {error.strerror or error}") from None
    try:
        sessions = SessionBook(folder)
    except SessionsInUse as reason:
        raise UsageError(str(reason)) from None
    except OSError as error:
        raise UsageError(f"cannot use {shown_path(folder)}: {error.strerror or error}") from None
    try:
        CourseServer(host, port, sessions, strict=public, limits=limits, proxies=trusted).serve()
    finally:
        sessions.close()
    return 0
