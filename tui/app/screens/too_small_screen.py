"""The notice shown instead of the course while the terminal is too small for it."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widgets import Static

from attnpos.tui.app.keys import bound_key
from attnpos.tui.app.screens.course_screen import CourseScreen

MIN_WIDTH, MIN_HEIGHT = 60, 18


class TooSmallScreen(CourseScreen):
    """Shown instead of a squeezed layout while the terminal is below the minimum size."""

    CSS_PATH = "too_small_screen.tcss"  # beside it, as every screen's

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.update_size(*self.app.size)

    def on_resize(self, event: events.Resize) -> None:
        self.update_size(*event.size)

    def update_size(self, width: int, height: int) -> None:
        quit_key = bound_key(self, "quit", typed=False)
        self.query_one(Static).update(
            f"The terminal is {width}×{height}; attnpos needs at least {MIN_WIDTH}×{MIN_HEIGHT}. Make it larger to go on, or press {quit_key} to quit."
        )
