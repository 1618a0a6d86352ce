"""A monkey at the keyboard: random keys, resizes and clicks on every screen, no exception, no freeze."""

from __future__ import annotations

import asyncio
import errno
import os
import random

import pytest

from attnpos.lessons.checker import Limits
from attnpos.tui.app.course_app import AttnposApp
from attnpos.tui.app.widgets.attention_grid import AttentionGrid

KEYS = [
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "enter",
    "space",
    "tab",
    "shift+tab",
    "escape",
    "backspace",
    "n",
    "p",
    "r",
    "v",
    "e",
    "c",
    "o",
    "h",
    "j",
    "k",
    "l",
    "x",
    "1",
    "question_mark",
    "ctrl+r",
    "ctrl+t",
    "ctrl+g",
    "ctrl+o",
    "ctrl+p",
    "y",
]  # never q, ctrl+q or ctrl+c: those quit, which ends the test rather than testing anything
STARTS = {"outline": None, "lesson with grids": (1, 3), "sentence grids": (3, 2), "exercise": "constant-offset", "last section": (4, 9)}
# Events per screen: 100 on one screen in every run, on all five with -m slow; the long form (pytest -m slow) 1,000 × 5.
# Before a release, more: ATTNPOS_MONKEY_EVENTS=5000 pytest -m slow tests/app/test_monkey.py
EVENTS_PER_SCREEN = 100
LONG_EVENTS_PER_SCREEN = int(os.environ.get("ATTNPOS_MONKEY_EVENTS", "1000"))


# Every run: an exercise, the screen with the most keys; the others only in the long form, which covers them ten
# times over (the outline's keys are also driven by test_app's and test_screens' walks).
EVERY_RUN = ("exercise",)


@pytest.mark.parametrize("start", [s if s in EVERY_RUN else pytest.param(s, marks=pytest.mark.slow) for s in STARTS])
async def test_monkey(make_app, start):
    await monkey_on(make_app(start=STARTS[start], limits=Limits(timeout_s=2)), start, EVENTS_PER_SCREEN)


@pytest.mark.slow
@pytest.mark.parametrize("start", list(STARTS))
async def test_monkey_long(make_app, start):
    await monkey_on(make_app(start=STARTS[start], limits=Limits(timeout_s=2)), start, LONG_EVENTS_PER_SCREEN)


async def monkey_on(app: AttnposApp, start: str, events: int) -> None:
    """Random keys, resizes and clicks (seeded by the screen's name); the app must neither raise nor freeze."""
    rng = random.Random(f"monkey-{start}")

    async def monkey(pilot) -> None:
        for _ in range(events):
            roll = rng.random()
            if roll < 0.05:
                await pilot.resize_terminal(rng.randint(20, 140), rng.randint(6, 50))
            elif roll < 0.12:
                width, height = app.size
                await pilot.click(offset=(rng.randrange(max(width, 1)), rng.randrange(max(height, 1))))
            else:
                await pilot.press(rng.choice(KEYS))
        await pilot.resize_terminal(80, 24)
        await app.workers.wait_for_complete()
        await pilot.pause()

    async with app.run_test(size=(80, 24)) as pilot:
        await asyncio.wait_for(monkey(pilot), timeout=240)  # a freeze fails here rather than hanging CI
        assert app.is_running
        assert app.progress.save() or not app.progress.writable


@pytest.mark.parametrize(
    "environment",
    [{"NO_COLOR": "1"}, {"TERM": "dumb", "COLORTERM": ""}, {"TERM": "xterm", "COLORTERM": ""}],
    ids=["no-color", "dumb", "16-colours"],
)
async def test_every_screen_renders_and_grids_read_without_colour(make_app, monkeypatch, environment, wait_until):
    for name, value in environment.items():
        if value:
            monkeypatch.setenv(name, value)
        else:
            monkeypatch.delenv(name, raising=False)
    # One app visits every screen of STARTS, the exercise last (leaving it is not what this is about): Textual
    # reads the colour settings once, when the app builds its console, and every screen draws with that console.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for start in sorted(STARTS.values(), key=lambda start: isinstance(start, str)):
            if isinstance(start, str):
                app.open_exercise(start)
            elif start is not None:
                app.open_lesson(*start)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.screen.size == (80, 24)

            def laid_out() -> bool:
                """every grid of the screen has its size (a loaded machine lays them out a frame or more later)"""
                return all(grid.size.height > 0 for grid in app.screen.query(AttentionGrid))

            await wait_until(pilot, laid_out)
            for grid in app.screen.query(AttentionGrid):
                assert not grid.uses_colour
                drawn = "".join(grid.render_line(y).text for y in range(grid.size.height))
                assert any(glyph in drawn for glyph in "·░▒▓█"), drawn


async def test_a_full_disk_is_told_once_and_the_app_goes_on(data_dir, make_app, monkeypatch):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # opening a lesson saves the position
        await pilot.pause()
        before = (data_dir / "progress.json").read_bytes()

        def full(fd):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(os, "fsync", full)
        warnings = []
        monkeypatch.setattr(app, "notify", lambda message, **kw: warnings.append(message))
        for _ in range(5):
            await pilot.press("n")
            await pilot.pause()
        assert len(warnings) == 1 and "kept in memory" in warnings[0]
        assert app.screen.section == 5  # still working
        assert (data_dir / "progress.json").read_bytes() == before
