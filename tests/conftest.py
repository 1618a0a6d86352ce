"""Shared fixtures: a deterministic terminal, a private data folder, the app, and the command line in-process."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from attnpos.tui import launchers
from attnpos.tui.app.course_app import AttnposApp
from attnpos.tui.cli import command_line


@pytest.fixture(autouse=True)
def truecolour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app sees a truecolour terminal and no NO_COLOR, unless a test says otherwise.

    Rich reads COLORTERM when the App builds its console, so this must be set before the App exists.
    """
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The user asked for no colour (https://no-color.org); Textual reads it into App.no_color."""
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Progress goes to a temporary folder, never the developer's own."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ATTNPOS_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def checker():
    """One warm checker for every test of this process that checks answers (the sandbox's own tests build their own)."""
    from attnpos.lessons.checker import open_checker

    with open_checker() as warm:
        yield warm


@pytest.fixture
def make_app(data_dir) -> Callable[..., AttnposApp]:
    """Course apps on the test's data folder, without animations: ``make_app(start=(1, 2))``."""

    def make(**options: Any) -> AttnposApp:
        app = AttnposApp(data_dir=data_dir, **options)
        app.animation_level = "none"
        return app

    return make


async def _settle(pilot: Pilot) -> None:
    """Wait until the app's workers (checks, runs, the course loading) are done and their results drawn."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def settle() -> Callable[[Pilot], Awaitable[None]]:
    return _settle


async def _wait_until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds (a timer fired, a file was written); fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after {timeout} s: {condition.__doc__ or condition}")
        await pilot.pause(0.02)


@pytest.fixture
def wait_until() -> Callable[..., Awaitable[None]]:
    return _wait_until


@pytest.fixture
def no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text cursors stay drawn instead of blinking, so a snapshot does not depend on the moment it is taken."""
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def attnpos(capsys: pytest.CaptureFixture[str]) -> Callable[..., Ran]:
    """The command line run in this process, as ``attnpos ARGS...`` would run it (the app never opens)."""

    def refuse_app(*args: object) -> int:
        raise AssertionError(f"the command line opened the app {args}")

    def run(*args: str) -> Ran:
        capsys.readouterr()  # what came before is not this command's
        try:
            code = command_line.main(list(args), command_line.Launchers(refuse_app, launchers.export_notebooks, launchers.serve))
        except SystemExit as exit:  # argparse's usage errors
            code = exit.code if isinstance(exit.code, int) else 2
        out = capsys.readouterr()
        return Ran(code, out.out, out.err)

    return run
