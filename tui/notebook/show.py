"""What an exported notebook's grid cells call: a figure of the course drawn as a Rich table."""

from __future__ import annotations

from rich.console import Console

from attnpos.lessons.model import Grid
from attnpos.tui.cli.lesson_print import grid_renderable


def grid(figure: str, compare: str | None = None, titles: tuple[str, ...] = (), mark_changed: bool = False,
         caption: str = "") -> None:
    """Draw the registered figure (and a second beside it), as `attnpos lessons show` does."""
    block = Grid(figure=figure, line=0, compare=compare, caption=caption, mark_changed=mark_changed, titles=titles)
    Console().print(grid_renderable(block))
