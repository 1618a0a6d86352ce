"""What an exported notebook's grid cells call: a figure of the course drawn as a Rich table."""

from __future__ import annotations

from rich.console import Console

from attnpos.lessons.course.model import Grid, Heatmap
from attnpos.tui.render.lesson_print import grid_renderable, heatmap_renderable


def grid(figure: str, compare: str | None = None, titles: tuple[str, ...] = (), mark_changed: bool = False, caption: str = "") -> None:
    """Draw the registered figure (and a second beside it), as `attnpos lessons show` does."""
    block = Grid(figure=figure, line=0, compare=compare, caption=caption, mark_changed=mark_changed, titles=titles)
    Console().print(grid_renderable(block))


def heatmap(figure: str, compare: str | None = None, titles: tuple[str, ...] = (), own_scales: bool = False, caption: str = "") -> None:
    """Draw the registered matrix figure as a heat map (and a second beside it), as `attnpos lessons show` does."""
    block = Heatmap(figure=figure, line=0, compare=compare, caption=caption, titles=titles, own_scales=own_scales)
    Console().print(heatmap_renderable(block))
