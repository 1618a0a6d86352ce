"""AttentionGrid, GridLegend and GridPair: cursor, numbers, scrolling, no-colour mode, snapshots."""

from __future__ import annotations

import numpy as np
import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region

from attnpos.tui.app.widgets.attention_grid import AttentionGrid, GridLegend
from attnpos.tui.app.widgets.grid_pair import GridPair, GridSpec
from attnpos.tui.render.colours import SHADES, format_weight, viridis

LABELS = ["the₀", "cat₁", "sat₂", "on₃", "the₄", "mat₅"]
# Fixed scores, so every snapshot and expected weight is reproducible.
SCORES = np.array(
    [
        [2.0, 0.1, 0.3, 0.0, 1.2, 0.4],
        [0.2, 2.5, 0.9, 0.1, 0.2, 1.1],
        [0.5, 1.5, 2.0, 0.7, 0.3, 0.2],
        [0.0, 0.4, 0.6, 1.8, 0.1, 1.6],
        [1.3, 0.2, 0.1, 0.3, 2.2, 0.5],
        [0.3, 1.0, 0.2, 1.4, 0.6, 2.4],
    ]
)


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax: each query's weights over the keys sum to one."""
    exps = np.exp(scores - scores.max(axis=1, keepdims=True))
    return exps / exps.sum(axis=1, keepdims=True)


WEIGHTS = softmax_rows(SCORES)
SHUFFLE = [3, 0, 5, 1, 4, 2]


class GridApp(App[None]):
    """One focused grid and its legend."""

    def __init__(self, weights: np.ndarray = WEIGHTS, labels: list[str] = LABELS, marked_rows=frozenset()) -> None:
        super().__init__()
        self.animation_level = "none"
        self._grid_args = (weights, labels, marked_rows)
        self.cursor_moves: list[AttentionGrid.CursorMoved] = []

    def compose(self) -> ComposeResult:
        weights, labels, marked_rows = self._grid_args
        yield AttentionGrid(weights, labels, title="head 0", marked_rows=marked_rows)
        yield GridLegend()

    def on_mount(self) -> None:
        self.query_one(AttentionGrid).focus()

    def on_attention_grid_cursor_moved(self, message: AttentionGrid.CursorMoved) -> None:
        self.cursor_moves.append(message)


class PairApp(App[None]):
    """An original grid beside its shuffled copy."""

    def __init__(self) -> None:
        super().__init__()
        self.animation_level = "none"

    def compose(self) -> ComposeResult:
        shuffled = WEIGHTS[np.ix_(SHUFFLE, SHUFFLE)]
        yield GridPair(
            GridSpec(WEIGHTS, LABELS),
            GridSpec(shuffled, [LABELS[index] for index in SHUFFLE], marked_rows=frozenset({0, 2}), tokens=SHUFFLE),
            ("original", "shuffled"),
        )


def line_texts(grid: AttentionGrid) -> list[str]:
    return [grid.render_line(y).text for y in range(grid.scrollable_content_region.height)]


# ---- cursor -----------------------------------------------------------------


async def test_arrows_move_the_cursor_and_post_its_weight() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        moves = app.cursor_moves
        await pilot.press("right", "right", "down", "l", "j")
        await pilot.pause()
        assert (grid.cursor_row, grid.cursor_col) == (2, 3)
        assert [(move.row, move.col) for move in moves] == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
        assert moves[-1].weight == pytest.approx(WEIGHTS[2, 3])
        assert moves[-1].control is grid
        status = line_texts(grid)[-1]
        assert f"{LABELS[2]} → " in status and status.rstrip().endswith(f"{LABELS[3]}: {WEIGHTS[2, 3]:.3f}")


async def test_home_end_and_edges_clip_the_cursor() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        await pilot.press("end", "down")
        assert (grid.cursor_row, grid.cursor_col) == (1, 5)
        await pilot.press("right", "home", "up", "up", "k")
        assert (grid.cursor_row, grid.cursor_col) == (0, 0)


async def test_cursor_move_repaints_only_the_lines_it_touches() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        await pilot.pause()
        calls: list[tuple[Region, ...]] = []
        original_refresh = grid.refresh

        def record_refresh(*regions: Region, **kwargs):
            calls.append(regions)
            return original_refresh(*regions, **kwargs)

        grid.refresh = record_refresh  # type: ignore[method-assign]
        grid.action_cursor_down()
        moved_down = list(calls)
        calls.clear()
        grid.action_cursor_right()
        moved_right = list(calls)
        grid.refresh = original_refresh  # type: ignore[method-assign]
        header = grid._header_height
        status = grid.scrollable_content_region.height - 1
        width = grid.size.width

    assert all(calls for calls in moved_down + moved_right), "a cursor move never repaints the whole grid"
    down_regions = [region for regions in moved_down for region in regions]
    assert sorted({region.y for region in down_regions}) == [header, header + 1, status]
    assert all(region.height == 1 for region in down_regions)
    # Within the two rows only the labels and the cursor's cells are repainted, not the whole lines.
    assert all(region.width < width for region in down_regions if region.y != status)
    # Moving sideways also repaints the two column labels of the header (with the half cell a staggered
    # label may spill into each neighbour), and nothing else of it.
    right_regions = [region for regions in moved_right for region in regions]
    header_regions = [region for region in right_regions if region.y == 0]
    assert len(header_regions) == 2 and all(r.height == header and r.width <= 3 * grid.cell_width for r in header_regions)
    assert {region.y for region in right_regions} == {0, header + 1, status}


# ---- drawing ----------------------------------------------------------------


async def test_numbers_toggle_widens_cells_and_shows_weights() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        first_row = grid._header_height
        assert "." not in grid.render_line(first_row).text
        narrow = grid.virtual_size.width

        await pilot.press("v")
        await pilot.pause()
        first_row = grid._header_height  # short labels now fit on one header line
        row_text = grid.render_line(first_row).text
        assert f"[{format_weight(WEIGHTS[0, 0])}]" in row_text  # the cursor's cell
        assert format_weight(WEIGHTS[0, 1]) in row_text
        assert grid.virtual_size.width == narrow + 6 * (grid.NUMBER_CELL_WIDTH - grid.CELL_WIDTH)

        await pilot.press("v")
        await pilot.pause()
        assert grid.virtual_size.width == narrow


async def test_colour_cells_follow_viridis() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)):
        grid = app.query_one(AttentionGrid)
        assert grid.uses_colour
        strongest = int(WEIGHTS[3].argmax())
        cell = grid._cell(float(WEIGHTS[3, strongest]), colour=True, cursor=False, plain=grid.rich_style)
        assert cell.style.bgcolor.get_truecolor() == viridis(WEIGHTS[3, strongest])
    assert viridis(0.0) == (0x44, 0x01, 0x54)  # dark purple
    assert viridis(1.0) == (0xFD, 0xE7, 0x25)  # yellow


async def test_no_colour_draws_shade_glyphs_without_background_colours(no_colour: None) -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        assert app.no_color and not grid.uses_colour
        first_row = grid._header_height
        rows = [grid.render_line(y).crop(grid._label_width) for y in range(first_row, first_row + len(LABELS))]
        drawn = "".join(strip.text for strip in rows)
        assert set(SHADES[1:]) & set(drawn), "weights above the lowest band show as shade glyphs"
        # Only the widget's own background: no colour carries a weight.
        backgrounds = {segment.style.bgcolor for strip in rows for segment in strip if segment.style}
        assert backgrounds <= {grid.rich_style.bgcolor}

        await pilot.press("v")
        await pilot.pause()
        assert format_weight(WEIGHTS[0, 1]) in grid.render_line(grid._header_height).text


async def test_legend_shows_glyphs_without_colour(no_colour: None) -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)):
        legend_text = app.query_one(GridLegend).render_line(0).text
        assert all(glyph in legend_text for glyph in SHADES[1:])
        assert legend_text.strip().endswith("1.00")


async def test_marked_rows_show_the_marker() -> None:
    app = GridApp(marked_rows={1, 4})
    async with app.run_test(size=(80, 24)):
        grid = app.query_one(AttentionGrid)
        texts = line_texts(grid)[grid._header_height :]
        assert [row for row, text in enumerate(texts[: len(LABELS)]) if text.startswith("▶")] == [1, 4]
        assert texts[1].startswith("▶ cat₁")


async def test_set_weights_redraws_with_new_rows() -> None:
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        grid.set_weights(WEIGHTS[:3, :3] / WEIGHTS[:3, :3].sum(axis=1, keepdims=True), LABELS[:3], marked_rows={2})
        await pilot.pause()
        assert grid.token_count == 3
        assert line_texts(grid)[grid._header_height + 2].startswith("▶ sat₂")
        with pytest.raises(ValueError):
            grid.set_weights(WEIGHTS, LABELS[:3])


async def test_large_grid_scrolls_instead_of_wrapping() -> None:
    size = 64
    scores = np.sin(np.arange(size * size, dtype=float).reshape(size, size))
    labels = [f"tok{index}" for index in range(size)]
    app = GridApp(softmax_rows(scores * 3), labels)
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        view = grid.scrollable_content_region
        assert grid.virtual_size.width > view.width and grid.virtual_size.height > view.height
        assert all(len(text) == view.width for text in line_texts(grid)), "every line is cropped, none wraps"

        await pilot.press(*["end"] + ["down"] * 40)
        await pilot.pause()
        assert grid.scroll_offset.x > 0 and grid.scroll_offset.y > 0
        texts = line_texts(grid)
        # Row labels stay on the left while the cells scroll; the cursor's row is on screen.
        assert any(text.lstrip(" ▶").startswith("tok40 ") for text in texts)
        assert "[" in "".join(texts)
        assert texts[-1].startswith("row tok40 → col tok63")


async def test_pair_stacks_when_too_narrow() -> None:
    app = PairApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pair = app.query_one(GridPair)
        assert not pair.has_class("-stacked")
        assert pair.left.region.y == pair.right.region.y
        await pilot.resize_terminal(40, 40)
        await pilot.pause()
        assert pair.has_class("-stacked")
        assert pair.right.region.y > pair.left.region.y


# ---- snapshots ----------------------------------------------------------------


def test_snapshot_grid_in_colour(snap_compare) -> None:
    assert snap_compare(GridApp(marked_rows={1, 4}), press=["right", "down"], terminal_size=(60, 16))


def test_snapshot_grid_without_colour(snap_compare, no_colour: None) -> None:
    assert snap_compare(GridApp(marked_rows={1, 4}), press=["right", "down"], terminal_size=(60, 16))


def test_snapshot_grid_numbers(snap_compare) -> None:
    assert snap_compare(GridApp(), press=["right", "down", "v"], terminal_size=(60, 16))


def test_snapshot_pair_at_80x24(snap_compare) -> None:
    assert snap_compare(PairApp(), terminal_size=(80, 24))


async def test_values_on_one_grid_of_a_pair_show_on_both_and_stack_if_needed():
    app = PairApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pair = app.query_one(GridPair)
        assert not pair.has_class("-stacked")
        pair.left.focus()
        await pilot.press("v")
        await pilot.pause()
        await pilot.pause()
        assert pair.left.show_numbers and pair.right.show_numbers
        widths = sum(g.virtual_size.width + g.styles.gutter.width + g.styles.margin.width for g in (pair.left, pair.right))
        assert pair.has_class("-stacked") == (pair.size.width < widths)


async def test_the_cursor_follows_the_same_tokens_in_both_grids():
    app = PairApp()
    async with app.run_test(size=(80, 24)) as pilot:
        pair = app.query_one(GridPair)
        left, right = pair.left, pair.right
        assert right.labels[right.cursor_row] == left.labels[left.cursor_row]  # in step before any key
        pair.left.focus()
        await pilot.press("down", "down", "right")
        await pilot.pause()
        left, right = pair.left, pair.right
        assert (left.labels[left.cursor_row], left.labels[left.cursor_col]) == (LABELS[2], LABELS[1])
        assert (right.labels[right.cursor_row], right.labels[right.cursor_col]) == (LABELS[2], LABELS[1])
        assert right.cursor_weight == left.cursor_weight  # the same weight, relisted


async def test_column_labels_a_little_wider_than_a_cell_sit_on_two_staggered_lines() -> None:
    """ "the₀" was once stacked letter by letter (t, h, e, ₀ on four lines) until v widened the cells."""
    app = GridApp()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(AttentionGrid)
        assert grid._header_height == 2
        first, second = (grid.render_line(y).text for y in (0, 1))
        assert first.split() == ["the₀", "sat₂", "the₄"] and second.split() == ["cat₁", "on₃", "mat₅"]
        left = grid._label_width
        for col, label in enumerate(LABELS):  # each label centred over its own cell, give or take one
            line = first if col % 2 == 0 else second
            centre = line.index(label) + len(label) / 2 - left
            assert abs(centre - (col + 0.5) * grid.cell_width) <= 1
        await pilot.press("right")
        await pilot.pause()
        assert grid.render_line(1).text == second  # moving the cursor keeps the labels in place
