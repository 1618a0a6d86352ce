"""Heat strips of the playground's output vectors, one per token, drawn with the Line API."""

from __future__ import annotations

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from attnpos.tui.render.colours import colour_available, ramp_step, ramp_style, shade


class OutputStrips(ScrollView):
    """One heat strip per token: its output vector, channel by channel.

    Drawn line by line: at 64 tokens only the rows on screen are built, where a
    Text of all 64 was laid out again on every key press.
    """

    DEFAULT_CSS = """
    OutputStrips { width: auto; height: auto; border: round $primary; padding: 0 1; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.border_title = "outputs"
        self._labels: list[str] = []
        self._levels: list[list[float]] = []  # (T, C) outputs scaled to [0, 1]
        self._scale = Strip([])
        self._colour = True
        self._lines: dict[int, Strip] = {}  # rows built so far for the outputs on show

    def show(self, outputs: np.ndarray, labels: list[str]) -> None:
        low, high = float(outputs.min()), float(outputs.max())
        self._levels = ((outputs - low) / (high - low or 1.0)).tolist()
        width = max(len(label) for label in labels)
        self._labels = [label.rjust(width) + " " for label in labels]
        self._scale = Strip([Segment(f"{low:+.1f} … {high:+.1f}", Style(dim=True))])
        self._colour = colour_available(self.app)
        self._lines = {}
        self.virtual_size = Size(max(width + 1 + outputs.shape[1], self._scale.cell_length), len(labels) + 1)
        self.refresh()

    def _line(self, index: int) -> Strip:
        """Row `index` (a token's strip, or the scale under them), built when first drawn."""
        if index == len(self._labels):
            return self._scale
        if index not in self._lines:
            row = self._levels[index]
            if self._colour:
                cells = [Segment(" ", ramp_style(ramp_step(level), text=False)) for level in row]
            else:
                cells = [Segment("".join(shade(level) for level in row))]
            self._lines[index] = Strip([Segment(self._labels[index]), *cells])
        return self._lines[index]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = y + scroll_y
        if index > len(self._labels):
            return Strip.blank(width, self.rich_style)
        return self._line(index).crop_extend(scroll_x, scroll_x + width, self.rich_style).apply_style(self.rich_style)
