"""A heat map of any labelled (R, C) matrix, drawn with the Line API.

Unlike `AttentionGrid` (weights in 0..1, square, with a cursor) the values here
can be any real numbers: the colour runs from the map's low to its high value.
With colour a cell is a viridis block; without, a shade glyph from `·░▒▓█`.
A NaN cell means "no value here" (e.g. no trained row) and is drawn as `╳`
in both modes. The last line is a legend with the numbers at both ends.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from attnpos.tui.render.colours import SHADES, colour_available, ramp_segments, ramp_style, shade

MISSING = "╳"
"""Drawn in a cell whose value is NaN: there is nothing to show, not a small number."""


def format_value(value: float) -> str:
    """Five characters with a sign, e.g. '+0.84', '-3.50'; the missing mark when NaN."""
    return MISSING.center(5) if math.isnan(value) else f"{value:+.2f}"


class HeatMap(ScrollView, can_focus=True):
    """A labelled (R, C) heat map; column labels stay on top and row labels on the left while it scrolls."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "toggle_values", "Values"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "heat-map--label",
        "heat-map--missing",
        "heat-map--cell",
        "heat-map--legend",
    }

    DEFAULT_CSS = """
    HeatMap {
        width: 100%;
        height: auto;
        max-height: 100%;
        background: $surface;
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-title-style: bold;
        &:focus { border: round $accent; }
        & > .heat-map--label { color: $text-muted; }
        & > .heat-map--missing { color: $error; text-style: bold; }
        & > .heat-map--cell { color: $text; }
        & > .heat-map--legend { color: $text-muted; }
    }
    """

    CELL_WIDTH: ClassVar[int] = 2
    """Width of a cell as a plain block or glyph pair."""
    VALUE_CELL_WIDTH: ClassVar[int] = 7
    """Width of a cell showing its value: a glyph (or space), '+0.84', and a space to part it from the next."""
    RAMP_WIDTH: ClassVar[int] = 20
    """Characters in the legend's colour ramp."""

    def __init__(
        self,
        values: np.ndarray,
        row_labels: Sequence[str],
        column_labels: Sequence[str],
        *,
        low: float | None = None,
        high: float | None = None,
        missing: str = "no value",
        title: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Args:
        values: (R, C) numbers to draw; NaN marks a cell with no value.
        row_labels: R labels shown left of the rows.
        column_labels: C labels of at most `CELL_WIDTH` characters, shown above the columns.
        low, high: The values at the two ends of the colour scale; default the finite min and max.
        missing: What a NaN cell means, for the legend (e.g. "no trained row").
        title: Shown in the top border.
        """
        super().__init__(name=name, id=id, classes=classes)
        self.show_values = False
        self.show(values, row_labels, column_labels, low=low, high=high, missing=missing, title=title)

    # ---- public API ----------------------------------------------------------

    def show(
        self,
        values: np.ndarray,
        row_labels: Sequence[str],
        column_labels: Sequence[str],
        *,
        low: float | None = None,
        high: float | None = None,
        missing: str = "no value",
        title: str = "",
    ) -> None:
        """Draw another matrix (same arguments as the constructor), scrolled back to the top left."""
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (len(row_labels), len(column_labels)):
            raise ValueError(f"values must be ({len(row_labels)}, {len(column_labels)}) for the labels, got {values.shape}")
        if any(cell_len(label) > self.CELL_WIDTH for label in column_labels):
            raise ValueError(f"column labels must be at most {self.CELL_WIDTH} characters")
        finite = values[np.isfinite(values)]
        self.values = values
        self.row_labels = list(row_labels)
        self.column_labels = list(column_labels)
        self.low = float(low) if low is not None else float(finite.min()) if finite.size else 0.0
        self.high = float(high) if high is not None else float(finite.max()) if finite.size else 0.0
        self.missing = missing
        self.border_title = Content(title)  # plain text: 'PE[p]' is not markup
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._relayout()

    @property
    def uses_colour(self) -> bool:
        """True when cells are viridis blocks, False when they are shade glyphs."""
        return colour_available(self.app)

    def fraction(self, value: float) -> float:
        """Where `value` sits between low (0) and high (1); the middle when the map is flat."""
        span = self.high - self.low
        return (value - self.low) / span if span > 0 else 0.5

    def action_toggle_values(self) -> None:
        """Show or hide each cell's number (cells widen, so the map may scroll sideways)."""
        self.show_values = not self.show_values
        self._relayout()

    def action_scroll_right(self) -> None:
        """A column on (← and → move a whole cell: with values shown a column is 7 characters wide)."""
        if not self.allow_horizontal_scroll:
            raise SkipAction()
        self.scroll_relative(x=self.cell_width, animate=False, immediate=True)

    def action_scroll_left(self) -> None:
        if not self.allow_horizontal_scroll:
            raise SkipAction()
        self.scroll_relative(x=-self.cell_width, animate=False, immediate=True)

    # ---- layout --------------------------------------------------------------

    @property
    def cell_width(self) -> int:
        """Characters per cell: wider when values are shown."""
        return self.VALUE_CELL_WIDTH if self.show_values else self.CELL_WIDTH

    def _relayout(self) -> None:
        """Recompute the label width and the virtual size (header, rows, legend); repaint."""
        self._label_width = max((cell_len(label) for label in self.row_labels), default=0) + 1
        cells_width = self._label_width + self.cell_width * len(self.column_labels)
        self.virtual_size = Size(max(cells_width, Strip(self._legend_segments()).cell_length), len(self.row_labels) + 2)
        self.refresh(layout=True)

    # ---- drawing -------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Screen line `y`: the column header, a row, or the legend on the last line."""
        width = self.scrollable_content_region.width
        base_style = self.rich_style
        if y == self.scrollable_content_region.height - 1:
            return Strip(self._legend_segments()).adjust_cell_length(width, base_style)
        if y == 0:
            full_line = self._header_line()
        else:
            row = y - 1 + self.scroll_offset.y
            if row >= len(self.row_labels):
                return Strip.blank(width, base_style)
            full_line = self._row_line(row)
        # Labels stay put; only the cells scroll sideways.
        left, scroll_x = self._label_width, self.scroll_offset.x
        visible = Strip.join([full_line.crop(0, left), full_line.crop(left + scroll_x, left + width)])
        return visible.adjust_cell_length(width, base_style)

    def _component(self, name: str) -> Style:
        """The Rich style of one of the `heat-map--*` component classes."""
        return self.get_component_rich_style(f"heat-map--{name}")

    def _header_line(self) -> Strip:
        """The column labels; every other one when full-width labels would run together ('101112')."""
        crowded = any(cell_len(label) >= self.cell_width for label in self.column_labels)
        label_style = self._component("label")
        segments = [Segment(" " * self._label_width, self.rich_style)]
        for column, label in enumerate(self.column_labels):
            shown = "" if crowded and column % 2 else label
            segments.append(Segment(shown.rjust(self.CELL_WIDTH).center(self.cell_width), label_style))
        return Strip(segments)

    def _row_line(self, row: int) -> Strip:
        label = self.row_labels[row].rjust(self._label_width - 1)
        segments = [Segment(label, self._component("label")), Segment(" ", self.rich_style)]
        colour = self.uses_colour
        segments += [self._cell(float(value), colour) for value in self.values[row]]
        return Strip(segments).simplify()

    def _cell(self, value: float, colour: bool) -> Segment:
        """One cell: a viridis block (colour) or a shade glyph pair (no colour), with its number if shown."""
        if math.isnan(value):
            text = f" {format_value(value)} " if self.show_values else MISSING * self.cell_width
            return Segment(text, self._component("missing"))
        fraction = self.fraction(value)
        glyph = " " if colour else shade(fraction)
        text = f"{glyph}{format_value(value)} " if self.show_values else glyph * self.cell_width
        if not colour:
            return Segment(text, self._component("cell"))
        return Segment(text, ramp_style(fraction))

    def _legend_segments(self) -> list[Segment]:
        """'-1.00 ramp +1.00', and what the missing mark means when the map has one.

        Before the map is mounted only its width is needed (for the layout), so styles are left plain.
        """
        attached = self.is_attached
        legend = self._component("legend") if attached else Style()
        missing = self._component("missing") if attached else Style()
        if attached and self.uses_colour:
            ramp = ramp_segments(self.RAMP_WIDTH)
        else:
            # As wide as the colour ramp, so the layout is the same in both modes.
            ramp = [Segment("".join(glyph * (self.RAMP_WIDTH // len(SHADES)) for glyph in SHADES), legend)]
        segments = [Segment(f"{self.low:+.2f} ", legend), *ramp, Segment(f" {self.high:+.2f}", legend)]
        if np.isnan(self.values).any():
            segments += [Segment("   ", legend), Segment(MISSING, missing), Segment(f" {self.missing}", legend)]
        return segments
