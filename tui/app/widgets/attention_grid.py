"""Attention-weight grids: who attends to whom, as a heat map drawn with the Line API.

Rows are query tokens, columns are key tokens. A cell's colour follows viridis
(perceptually uniform and colour-blind safe); without colour each cell shows a
shade glyph from `·░▒▓█`, so the grid reads the same on any terminal.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

import numpy as np
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Offset, Region, Size, Spacing
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from attnpos.tui.render.colours import SHADES, colour_available, format_weight, ramp_segments, ramp_step, ramp_style, shade

ROW_MARKER = "▶ "
"""Drawn before the label of a marked row (e.g. a row that changed after an edit)."""
PREDICTED_MARKER = "? "
"""Drawn before the label of a row the learner predicts the next change will move (the same width)."""


def _staggered(labels: Sequence[str], cell_width: int, parity: int) -> list[tuple[str, int | None]]:
    """One header line holding the labels of the columns of this parity, each centred over its cell.

    Pieces of (text, column or None for the space between), together ``cell_width × len(labels)`` wide.
    A label narrower than two cells leaves at least one space before the next label on its line.
    """
    width = cell_width * len(labels)
    pieces: list[tuple[str, int | None]] = []
    at = 0
    for col in range(parity, len(labels), 2):
        label = labels[col]
        start = col * cell_width + (cell_width - cell_len(label)) // 2
        start = max(at, min(start, width - cell_len(label)))
        if start > at:
            pieces.append((" " * (start - at), None))
        pieces.append((label, col))
        at = start + cell_len(label)
    if at < width:
        pieces.append((" " * (width - at), None))
    return pieces


class AttentionGrid(ScrollView, can_focus=True):
    """A T×T attention-weight heat map with a cursor, scrolling both ways when large.

    Column labels stay on top and row labels on the left while the cells scroll;
    the last line is a status line naming the cell under the cursor.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Previous query", show=False),
        Binding("down,j", "cursor_down", "Next query", show=False),
        Binding("left,h", "cursor_left", "Previous key", show=False),
        Binding("right,l", "cursor_right", "Next key", show=False),
        Binding("home", "cursor_home", "First key", show=False),
        Binding("end", "cursor_end", "Last key", show=False),
        Binding("v", "toggle_numbers", "Values"),  # not n: that key turns the lesson page
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "attention-grid--label",
        "attention-grid--marked-label",
        "attention-grid--predicted-label",
        "attention-grid--cursor-label",
        "attention-grid--cell",
        "attention-grid--status",
    }

    DEFAULT_CSS = """
    AttentionGrid {
        width: auto;
        height: auto;
        max-width: 100%;
        max-height: 100%;
        background: $surface;
        border: round $panel-lighten-2;
        border-title-color: $text;
        border-title-style: bold;
        &:focus { border: heavy $accent; }  /* a heavier line, so focus shows without colour too */
        & > .attention-grid--label { color: $text-muted; }
        & > .attention-grid--marked-label { color: $warning; text-style: bold; }
        & > .attention-grid--predicted-label { color: $accent; text-style: bold underline; }
        & > .attention-grid--cursor-label { color: $text; background: $primary 60%; text-style: bold; }
        & > .attention-grid--cell { color: $text; }
        & > .attention-grid--status { color: $text-muted; }
    }
    """

    CELL_WIDTH: ClassVar[int] = 3
    """Width of a cell as a plain coloured block."""
    NUMBER_CELL_WIDTH: ClassVar[int] = 5
    """Width of a cell showing its weight: room for '.21' and the cursor's brackets."""

    class CursorMoved(Message):
        """Posted when the cursor moves to another cell."""

        def __init__(self, grid: AttentionGrid, row: int, col: int, weight: float) -> None:
            self.grid = grid
            """The grid whose cursor moved."""
            self.row = row
            """Query (row) index under the cursor."""
            self.col = col
            """Key (column) index under the cursor."""
            self.weight = weight
            """Attention weight of that cell."""
            super().__init__()

        @property
        def control(self) -> AttentionGrid:
            """The grid that posted this message (for `@on(..., selector)`)."""
            return self.grid

    # The state the view follows. ``var``: no whole repaint on a change; the watchers repaint what changed
    # (a cursor move repaints a few cells: whole lines of truecolour cells would cost kilobytes over SSH).
    cursor: var[tuple[int, int]] = var((0, 0), init=False)
    """(row, column) of the cursor: the query row and the key column; clipped to the grid."""
    show_numbers: var[bool] = var(False, init=False)
    """Whether each cell shows its weight."""

    def __init__(
        self,
        weights: np.ndarray,
        labels: Sequence[str],
        *,
        title: str = "",
        marked_rows: Collection[int] = frozenset(),
        predicted_rows: Collection[int] = frozenset(),
        scale_to_max: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """Args:
        weights: (T, T) attention weights, row = query, column = key.
        labels: T token labels, already told apart (e.g. "the₀", "the₄").
        title: Shown in the top border.
        marked_rows: Rows drawn with a marker, e.g. the rows an edit changed.
        predicted_rows: Rows drawn with a marker of their own: those the learner expects the next change to move.
        scale_to_max: Colour from 0 to the matrix maximum instead of 0 to 1.
        """
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.border_title = title
        self.scale_to_max = scale_to_max
        # Full-width rendered rows, keyed on everything that changes how a row looks.
        self._row_cache: LRUCache[tuple, Strip] = LRUCache(maxsize=1024)
        self._styles: dict[str, Style] = {}  # resolved component styles, until the CSS or focus changes
        self.set_weights(weights, labels, marked_rows=marked_rows, predicted_rows=predicted_rows)

    # ---- public API ----------------------------------------------------------

    def set_weights(
        self,
        weights: np.ndarray,
        labels: Sequence[str],
        marked_rows: Collection[int] = frozenset(),
        predicted_rows: Collection[int] = frozenset(),
    ) -> None:
        """Show a new matrix (and labels, marked and predicted rows); keeps the cursor if it still fits."""
        weights = np.asarray(weights, dtype=float)
        tokens = len(labels)
        if weights.shape != (tokens, tokens):
            raise ValueError(f"weights must be ({tokens}, {tokens}) for {tokens} labels, got {weights.shape}")
        self.weights = weights
        self.labels = list(labels)
        self.marked_rows = frozenset(marked_rows)
        self.predicted_rows = frozenset(predicted_rows)
        maximum = float(weights.max()) if weights.size else 0.0
        self.scale = maximum if self.scale_to_max and maximum > 0 else 1.0
        self._relayout()  # before the cursor is clipped: its watcher measures cells with the new layout
        self.cursor = self.cursor  # clipped to the new size by validate_cursor

    @property
    def token_count(self) -> int:
        """T, the number of query (and key) tokens."""
        return len(self.labels)

    @property
    def cursor_row(self) -> int:
        """The query row the cursor is on."""
        return self.cursor[0]

    @property
    def cursor_col(self) -> int:
        """The key column the cursor is on."""
        return self.cursor[1]

    @property
    def cursor_weight(self) -> float:
        """The weight under the cursor."""
        return float(self.weights[self.cursor_row, self.cursor_col]) if self.token_count else 0.0

    @property
    def uses_colour(self) -> bool:
        """True when cells are viridis blocks, False when they are shade glyphs."""
        return colour_available(self.app)

    def move_cursor(self, row: int, col: int) -> None:
        """Put the cursor on (row, col), clipped to the grid; repaints only the lines it touches."""
        self.cursor = (row, col)

    def validate_cursor(self, cursor: tuple[int, int]) -> tuple[int, int]:
        last = max(self.token_count - 1, 0)
        row, col = cursor
        return min(max(row, 0), last), min(max(col, 0), last)

    def watch_cursor(self, old: tuple[int, int], new: tuple[int, int]) -> None:
        """Repaint only what changed: two row labels, two cells, two column labels and the status line."""
        (old_row, old_col), (row, col) = old, new
        for touched_row, touched_col in {(old_row, old_col), (row, col)}:
            screen_y = self._header_height + touched_row - self.scroll_offset.y
            self._refresh_span(screen_y, 0, self._label_width)
            self._refresh_span(screen_y, *self._cell_span(touched_col))
        if col != old_col:
            for touched_col in (old_col, col):
                x, width = self._cell_span(touched_col)
                spill = self.cell_width  # a staggered label may reach half a cell into each neighbour
                self.refresh(Region(max(x - spill, 0), 0, width + 2 * spill, self._header_height))
        self._refresh_screen_line(self._status_y)
        self._scroll_cursor_into_view()
        self._place_terminal_cursor()
        self.post_message(self.CursorMoved(self, row, col, self.cursor_weight))

    # ---- actions -------------------------------------------------------------

    def action_cursor_up(self) -> None:
        """Move to the previous query row."""
        self.move_cursor(self.cursor_row - 1, self.cursor_col)

    def action_cursor_down(self) -> None:
        """Move to the next query row."""
        self.move_cursor(self.cursor_row + 1, self.cursor_col)

    def action_cursor_left(self) -> None:
        """Move to the previous key column."""
        self.move_cursor(self.cursor_row, self.cursor_col - 1)

    def action_cursor_right(self) -> None:
        """Move to the next key column."""
        self.move_cursor(self.cursor_row, self.cursor_col + 1)

    def action_cursor_home(self) -> None:
        """Move to the first key of the row."""
        self.move_cursor(self.cursor_row, 0)

    def action_cursor_end(self) -> None:
        """Move to the last key of the row."""
        self.move_cursor(self.cursor_row, self.token_count - 1)

    class NumbersToggled(Message):
        """Posted when the values in the cells are shown or hidden, so a pair can follow."""

        def __init__(self, grid: AttentionGrid, shown: bool) -> None:
            self.grid = grid
            """The grid whose cells changed."""
            self.shown = shown
            """Whether values are now shown."""
            super().__init__()

    def action_toggle_numbers(self) -> None:
        """Show or hide each cell's weight."""
        self.show_numbers = not self.show_numbers
        self.post_message(self.NumbersToggled(self, self.show_numbers))

    def watch_show_numbers(self) -> None:
        """Cells change width: everything is laid out again."""
        self._relayout()

    # ---- layout --------------------------------------------------------------

    @property
    def cell_width(self) -> int:
        """Characters per cell: wider when numbers are shown."""
        return self.NUMBER_CELL_WIDTH if self.show_numbers else self.CELL_WIDTH

    @property
    def _status_y(self) -> int:
        """Screen line of the status line: the last line of the content area."""
        return self.scrollable_content_region.height - 1

    def _relayout(self) -> None:
        """Recompute label widths, the column header and the virtual size; repaint everything."""
        labels = self.labels
        longest = max((cell_len(label) for label in labels), default=0)
        cell_width = self.cell_width
        header: list[list[tuple[str, int | None]]]  # per line: (text, the column it labels or None)
        if longest < cell_width:
            # Every label fits above its own cell with a space to spare, so neighbours do not run together.
            header = [[(label.center(cell_width), col) for col, label in enumerate(labels)]]
            self._row_labels = labels
        elif longest < 2 * cell_width:
            # Two staggered lines, even columns on the first and odd on the second: each label is centred
            # over its cell and may spill into its neighbours', whose labels sit on the other line.
            header = [_staggered(labels, cell_width, parity) for parity in (0, 1)]
            self._row_labels = labels
        else:
            # Long labels: number the columns, and show the numbers beside the row labels too.
            index_width = len(str(len(labels) - 1))
            header = [[(str(index).center(cell_width), index) for index in range(len(labels))]]
            self._row_labels = [f"{index:>{index_width}} {label}" for index, label in enumerate(labels)]
        self._header = header
        self._header_height = len(header)
        self._label_width = cell_len(ROW_MARKER) + max((cell_len(label) for label in self._row_labels), default=0) + 1
        self._row_cache.clear()
        # Header, rows and the status line.
        self.virtual_size = Size(self._label_width + cell_width * self.token_count, self._header_height + self.token_count + 1)
        self.refresh(layout=True)

    def _cell_span(self, col: int) -> tuple[int, int]:
        """(x, width) of column ``col``'s cells on screen, after horizontal scrolling."""
        return self._label_width + col * self.cell_width - self.scroll_offset.x, self.cell_width

    def _refresh_span(self, screen_y: int, x: int, width: int) -> None:
        """Repaint part of one line of the content area, if it is on screen."""
        if 0 <= screen_y < self.scrollable_content_region.height and x + width > 0:
            self.refresh(Region(max(x, 0), screen_y, width, 1))

    def _refresh_screen_line(self, screen_y: int) -> None:
        """Repaint one line of the visible content area, if it is on screen."""
        if 0 <= screen_y < self.scrollable_content_region.height:
            self.refresh(Region(0, screen_y, self.size.width, 1))

    def _scroll_cursor_into_view(self) -> None:
        """Scroll so the cursor's cell is visible beside the fixed labels, header and status line."""
        cell = Region(
            self._label_width + self.cursor_col * self.cell_width,
            self._header_height + self.cursor_row,
            self.cell_width,
            1,
        )
        fixed = Spacing(top=self._header_height, bottom=1, left=self._label_width)
        self.scroll_to_region(cell, spacing=fixed, animate=False, immediate=True)

    def _place_terminal_cursor(self) -> None:
        """Put the terminal's own cursor on the cursor's cell, as Input and TextArea do for theirs,
        so a screen reader or braille display follows the grid (Textual draws it hidden)."""
        if not self.has_focus:
            return
        x, _ = self._cell_span(self.cursor_col)
        region = self.content_region
        row_y = self._header_height + self.cursor_row - self.scroll_offset.y
        self.app.cursor_position = Offset(region.x + x + 1, region.y + row_y)  # + 1: inside the brackets

    def on_focus(self, event: events.Focus) -> None:
        """Cursor labels are drawn more strongly when focused; the terminal cursor comes to the cell."""
        self._forget_styles()
        self.call_after_refresh(self._place_terminal_cursor)  # once scrolled into view

    def on_blur(self, event: events.Blur) -> None:
        """See `on_focus`."""
        self._forget_styles()

    def notify_style_update(self) -> None:
        """Theme or CSS changed: cached rows hold old colours."""
        super().notify_style_update()
        self._forget_styles()

    def _forget_styles(self) -> None:
        self._row_cache.clear()
        self._styles.clear()

    # ---- drawing -------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Draw screen line `y`: a header line, a row, or the status line."""
        width = self.scrollable_content_region.width
        base_style = self._component("")
        if y == self._status_y:
            return Strip([Segment(self._status_text(width), self._component("status"))]).adjust_cell_length(width, base_style)
        if y < self._header_height:
            full_line = self._header_line(y)
        else:
            row = y - self._header_height + self.scroll_offset.y
            if row >= self.token_count:
                return Strip.blank(width, base_style)
            full_line = self._row_line(row)
        # Labels stay put; only the cells scroll sideways.
        left = self._label_width
        scroll_x = self.scroll_offset.x
        visible = Strip.join([full_line.crop(0, left), full_line.crop(left + scroll_x, left + scroll_x + width - left)])
        return visible.adjust_cell_length(width, base_style)

    def _component(self, name: str) -> Style:
        """The Rich style of one of the `attention-grid--*` component classes ("" for the widget's own).

        Looked up once until the styles change: resolving CSS per line was a third of a frame.
        """
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(f"attention-grid--{name}") if name else self.rich_style
        return style

    def _header_line(self, line: int) -> Strip:
        """Header line `line`, the full width of the grid, with the cursor's column highlighted."""
        key = ("header", line, self.cursor_col, self.show_numbers, self.has_focus)
        if (cached := self._row_cache.get(key)) is not None:
            return cached
        label_style = self._component("label")
        cursor_style = self._component("cursor-label") if self.has_focus else label_style + Style(bold=True)
        segments = [Segment(" " * self._label_width, self._component(""))]
        for text, col in self._header[line]:
            segments.append(Segment(text, cursor_style if col is not None and col == self.cursor_col else label_style))
        strip = Strip(segments).simplify()
        self._row_cache.set(key, strip)
        return strip

    def _row_line(self, row: int) -> Strip:
        """Query row `row`, the full width of the grid: marker, label, then one cell per key."""
        colour = self.uses_colour
        cursor_col = self.cursor_col if row == self.cursor_row else None
        marked, predicted = row in self.marked_rows, row in self.predicted_rows
        key = ("row", row, cursor_col, marked, predicted, self.show_numbers, colour, self.has_focus)
        if (cached := self._row_cache.get(key)) is not None:
            return cached
        label_style = self._component("marked-label" if marked else "predicted-label" if predicted else "label")
        if cursor_col is not None:
            # Same emphasis as the cursor's column label in the header.
            label_style = self._component("cursor-label") if self.has_focus else label_style + Style(bold=True)
        marker = ROW_MARKER if marked else PREDICTED_MARKER if predicted else " " * cell_len(ROW_MARKER)
        label_text = marker + self._row_labels[row]
        segments = [Segment(label_text.ljust(self._label_width - 1), label_style), Segment(" ", self._component(""))]
        plain_style = self._component("cell")
        plain_styles = (plain_style, plain_style + Style(bold=True))  # (cell, cursor cell) without colour
        for col, weight in enumerate(self.weights[row].tolist()):
            segments.append(self._cell(weight, colour=colour, cursor=col == cursor_col, plain=plain_styles))
        strip = Strip(segments).simplify()
        self._row_cache.set(key, strip)
        return strip

    def _cell(self, weight: float, *, colour: bool, cursor: bool, plain: tuple[Style, Style]) -> Segment:
        """One cell: a viridis block (colour) or shade glyphs (no colour), optionally with its number."""
        fraction = weight / self.scale
        glyph = " " if colour else shade(fraction)
        core = format_weight(weight) if self.show_numbers else glyph
        edge = "[]" if cursor else glyph * 2
        text = edge[0] + core + edge[1]
        if not colour:
            return Segment(text, plain[cursor])
        return Segment(text, ramp_style(ramp_step(fraction), bold=cursor))

    def _status_text(self, width: int) -> str:
        """'row the₀ → col cat: 0.077 · most on mat 0.61 →', shortened when the grid is narrow.

        The row's largest weight is named with an arrow when its column is off screen: at 64
        tokens a row can put all its weight on a column the learner cannot see.
        """
        if not self.token_count:
            return ""
        query, key = self.labels[self.cursor_row], self.labels[self.cursor_col]
        weight = f"{self.cursor_weight:.3f}"
        top = int(np.argmax(self.weights[self.cursor_row]))
        most = ""
        if top != self.cursor_col:
            x, _ = self._cell_span(top)
            side = " →" if x >= width else " ←" if x < self._label_width else ""
            most = f" · most on {self.labels[top]} {self.weights[self.cursor_row, top]:.2f}{side}"
        for form in (f"row {query} → col {key}: {weight}{most}", f"{query} → {key}: {weight}{most}"):
            if cell_len(form) <= width:
                return form
        return f"{query} → {key}: {weight}"


class GridLegend(Widget):
    """One line: the colour ramp (or, without colour, the shade glyphs) between 0 and the scale's top."""

    DEFAULT_CSS = """
    GridLegend {
        width: auto;
        height: 1;
        color: $text-muted;
    }
    """

    RAMP_WIDTH: ClassVar[int] = 20
    """Characters in the colour ramp."""

    def __init__(self, maximum: float = 1.0, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        """Args:
        maximum: The weight at the top of the scale (1.0, or the matrix max when grids scale to it).
        """
        super().__init__(name=name, id=id, classes=classes)
        self.maximum = maximum

    def _ramp(self) -> list[Segment]:
        """The segments between the '0' and the maximum label."""
        if colour_available(self.app):
            return ramp_segments(self.RAMP_WIDTH)
        # Each glyph doubled, framed so the blank lowest band still shows.
        return [Segment("▕"), *(Segment(glyph * 2) for glyph in SHADES), Segment("▏")]

    def _segments(self) -> list[Segment]:
        return [Segment("weight 0 "), *self._ramp(), Segment(f" {self.maximum:.2f}")]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return Strip(self._segments()).cell_length

    def render_line(self, y: int) -> Strip:
        """The legend is a single line."""
        if y:
            return Strip.blank(self.size.width, self.rich_style)
        return Strip(self._segments()).apply_style(self.rich_style).adjust_cell_length(self.size.width, self.rich_style)
