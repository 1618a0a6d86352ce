"""Two attention grids side by side, cursors in step, one legend: the lessons' before-and-after figure."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from msgspec import Struct, field
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Horizontal

from attnpos.tui.app.widgets.attention_grid import AttentionGrid, GridLegend


class GridSpec(Struct, frozen=True):
    """What one side of a `GridPair` shows: the `AttentionGrid` arguments besides the caption."""

    weights: np.ndarray
    labels: Sequence[str]
    marked_rows: frozenset[int] = field(default_factory=frozenset)
    tokens: Sequence[int] | None = None
    """Which token each row holds, by its index in the first listing (a shuffle's perm); None: row k holds token k."""


class GridPair(Container):
    """Two attention grids side by side with captions and a shared legend; stacked when too narrow."""

    DEFAULT_CSS = """
    GridPair {
        height: auto;
        max-height: 100%;
        & > #grids {
            width: auto;
            height: auto;
            max-height: 1fr;
            & > AttentionGrid { margin-right: 1; }
        }
        &.-stacked > #grids {
            layout: vertical;
        }
    }
    """

    def __init__(
        self,
        left: GridSpec,
        right: GridSpec,
        captions: tuple[str, str] = ("original", "shuffled"),
        *,
        scale_to_max: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """Args:
        left, right: The two matrices with their labels and marked rows.
        captions: Titles of the left and right grid, e.g. ("no position", "with position").
        scale_to_max: Colour both from 0 to the larger matrix maximum, so they compare.
        """
        super().__init__(name=name, id=id, classes=classes)
        self._specs = (left, right)
        # Row -> token for each side: the cursors meet on the same tokens, wherever a shuffle put them
        # (even the twin "the"s, whose labels tell slots apart and so differ between orders).
        self._tokens = tuple(list(spec.tokens) if spec.tokens is not None else list(range(len(spec.labels))) for spec in (left, right))
        self._captions = captions
        self.scale_to_max = scale_to_max

    def compose(self) -> ComposeResult:
        grids = [
            AttentionGrid(
                spec.weights,
                spec.labels,
                title=caption,
                marked_rows=spec.marked_rows,
                scale_to_max=self.scale_to_max,
                classes=side,
            )
            for spec, caption, side in zip(self._specs, self._captions, ("-left", "-right"), strict=True)
        ]
        if self.scale_to_max:
            # One scale for both, or equal colours would not mean equal weights.
            shared = max(grid.scale for grid in grids)
            for grid in grids:
                grid.scale = shared
        with Horizontal(id="grids"):
            yield from grids
        yield GridLegend(grids[0].scale)

    @property
    def left(self) -> AttentionGrid:
        """The left (or upper) grid."""
        return self.query_one("AttentionGrid.-left", AttentionGrid)

    @property
    def right(self) -> AttentionGrid:
        """The right (or lower) grid."""
        return self.query_one("AttentionGrid.-right", AttentionGrid)

    def on_resize(self, event: events.Resize) -> None:
        self._stack_if_narrow(event.size.width)

    def on_mount(self) -> None:
        if len(self.query(AttentionGrid)) < 2:
            return  # the page was left while the pair mounted, and its grids have gone already
        self._follow(self.left, self.left.cursor_row, self.left.cursor_col)  # in step from the start

    def on_attention_grid_cursor_moved(self, event: AttentionGrid.CursorMoved) -> None:
        self._follow(event.grid, event.row, event.col)

    def _follow(self, grid: AttentionGrid, row: int, col: int) -> None:
        """Move the other grid's cursor to the same pair of tokens, wherever the shuffle put them."""
        mine, theirs = self._tokens if grid is self.left else self._tokens[::-1]
        other = self.right if grid is self.left else self.left
        other.move_cursor(theirs.index(mine[row]), theirs.index(mine[col]))

    def on_attention_grid_numbers_toggled(self, event: AttentionGrid.NumbersToggled) -> None:
        """Values on one grid means values on both (they are compared cell by cell); then re-check the fit."""
        event.stop()
        for grid in (self.left, self.right):
            if grid is not event.grid:
                grid.show_numbers = event.shown
        self.call_after_refresh(lambda: self._stack_if_narrow(self.size.width))

    def _stack_if_narrow(self, width: int) -> None:
        """Stack the grids when the pair is narrower than both side by side."""
        side_by_side = sum(grid.virtual_size.width + grid.styles.gutter.width + grid.styles.margin.width for grid in (self.left, self.right))
        self.set_class(width < side_by_side, "-stacked")
