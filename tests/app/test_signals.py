"""The position-signals screen: its pictures (core), keys, no-colour mode and snapshots."""

from __future__ import annotations

import numpy as np
import pytest
from textual.app import App
from textual.widgets import Static

from attnpos.core.pictures import (
    alibi_picture,
    learned_lookup,
    rope_scores,
    sinusoidal_distance_products,
    sinusoidal_matrix,
)
from attnpos.core.position import learned_positions, learned_table, sinusoidal
from attnpos.tui.app.screens.signals_screen import SignalsScreen
from attnpos.tui.app.widgets.heat_map import MISSING, HeatMap
from attnpos.tui.render.colours import SHADES

# --- core pictures -----------------------------------------------------------


def test_sinusoidal_matrix_follows_the_formula():
    pe = sinusoidal_matrix(T=32, C=16)
    assert pe.shape == (32, 16) and pe.dtype == np.float64
    np.testing.assert_array_equal(pe, sinusoidal(32, 16))
    for t in (0, 7, 31):
        for i in range(8):
            angle = t / 10000 ** (2 * i / 16)
            assert pe[t, 2 * i] == pytest.approx(np.sin(angle), abs=1e-15)
            assert pe[t, 2 * i + 1] == pytest.approx(np.cos(angle), abs=1e-15)


def test_sinusoidal_products_depend_only_on_distance():
    picture = sinusoidal_distance_products(positions=(0, 5, 10, 20), offsets=24, C=16)
    assert picture.products.shape == (4, 24)
    pe = sinusoidal(20 + 24, 16)
    assert picture.products[2, 3] == pytest.approx(pe[10] @ pe[13], abs=1e-12)
    # Every reference position gives the same curve, which starts at C/2 and is lower afterwards.
    np.testing.assert_allclose(picture.products, np.broadcast_to(picture.products[0], (4, 24)), atol=1e-12)
    assert picture.products[0, 0] == pytest.approx(8.0)
    assert np.all(picture.products[0, 1:] < 8.0)


def test_learned_lookup_past_max_len_has_no_row():
    lookup = learned_lookup(T=16, max_len=12, C=16, seed=0)
    assert lookup.values.shape == (16, 16)
    np.testing.assert_array_equal(lookup.has_row, np.arange(16) < 12)
    np.testing.assert_array_equal(lookup.values[:12], learned_table(12, 16, seed=0))
    assert np.isnan(lookup.values[12:]).all()
    # The error is the one learned_positions itself raises for that length.
    with pytest.raises(IndexError) as raised:
        learned_positions(learned_table(12, 16), 16)
    assert lookup.error == str(raised.value)


def test_learned_lookup_within_max_len_has_every_row():
    lookup = learned_lookup(T=8, max_len=12)
    assert lookup.error is None and lookup.has_row.all() and np.isfinite(lookup.values).all()


def test_rope_scores_columns_are_the_same_for_every_start():
    picture = rope_scores(starts=(0, 1, 2, 5, 10, 20, 50, 100), offsets=16, d=16)
    assert picture.scores.shape == (8, 16)
    assert np.max(np.abs(picture.scores - picture.scores[0])) < 1e-12
    # It is the offset, not nothing: different k give different scores.
    assert np.ptp(picture.scores[0]) > 0.1


def test_alibi_picture_slopes_and_bias():
    picture = alibi_picture(n_heads=8, T=8)
    np.testing.assert_allclose(picture.slopes, [1 / 2**k for k in range(1, 9)])
    assert picture.bias.shape == (8, 8, 8)
    np.testing.assert_allclose(picture.bias[0, 7, 0], -3.5)
    np.testing.assert_allclose(np.diagonal(picture.bias, axis1=1, axis2=2), 0.0)


# --- the screen --------------------------------------------------------------


class SignalsApp(App[None]):
    """A bare app with the signals screen pushed on top of its default screen."""

    def __init__(self) -> None:
        super().__init__()
        self.animation_level = "none"

    def on_mount(self) -> None:
        self.push_screen(SignalsScreen())


def caption(screen: SignalsScreen) -> str:
    return str(screen.query_one("#signals-caption", Static).render())


def map_text(heat_map: HeatMap) -> str:
    """The heat map's visible lines (header, rows, legend) as plain text."""
    return "\n".join(heat_map.render_line(y).text for y in range(heat_map.scrollable_content_region.height))


@pytest.mark.parametrize(
    ("key", "index", "shape", "words"),
    [
        ("1", 0, (32, 16), "channel pair"),
        ("2", 1, (4, 24), "depends only on k"),
        ("3", 2, (16, 8), "IndexError"),
        ("4", 3, (8, 16), "offset k"),
        ("5", 4, (8, 8), "slope 1/2"),
    ],
)
async def test_each_picture_is_reached_by_its_key(key, index, shape, words):
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SignalsScreen) and screen.picture_index == index
        assert screen.heat_map.values.shape == shape
        assert words in caption(screen)
        # Caption and map are both on screen, above the footer.
        assert screen.query_one("#signals-caption").region.bottom <= screen.heat_map.region.y
        assert screen.heat_map.region.bottom <= 24 - 1


async def test_tab_walks_through_every_picture_and_wraps():
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        seen = [app.screen.picture_index]
        for _ in range(5):
            await pilot.press("tab")
            seen.append(app.screen.picture_index)
        assert seen == [0, 1, 2, 3, 4, 0]
        await pilot.press("shift+tab")
        assert app.screen.picture_index == 4
        assert app.screen.focused is app.screen.heat_map  # tab changed the picture, not the focus


async def test_head_keys_change_the_alibi_slope():
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("5")
        screen = app.screen
        assert "Head 0, slope 1/2 = 0.5" in caption(screen)  # heads counted from 0, as in code
        await pilot.press("right_square_bracket", "right_square_bracket")
        await pilot.pause()
        assert "Head 2, slope 1/8 = 0.12" in caption(screen)
        np.testing.assert_allclose(screen.heat_map.values[7, 0], -7 / 8)  # query 7, key 0: seven back
        assert np.isnan(screen.heat_map.values[0, 7])  # a later key: masked, as published
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert "Head 7, slope 1/256" in caption(screen)


async def test_head_keys_do_nothing_away_from_alibi():
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right_square_bracket")
        assert app.screen.head == 0 and app.screen.picture_index == 0


async def test_tall_map_scrolls_and_values_toggle():
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        heat_map = app.screen.heat_map
        assert heat_map.max_scroll_y > 0  # 32 rows do not fit in 24 lines
        await pilot.press("pagedown")
        assert heat_map.scroll_offset.y > 0
        await pilot.press("v")
        await pilot.pause()
        assert heat_map.show_values and "+1.00" in map_text(heat_map)


async def test_escape_pops_the_screen():
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SignalsScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, SignalsScreen)


async def test_colour_cells_are_viridis_blocks():
    app = SignalsApp()
    async with app.run_test(size=(80, 24)):
        heat_map = app.screen.heat_map
        assert heat_map.uses_colour
        row = heat_map._row_line(0)
        assert all(segment.style.bgcolor is not None for segment in list(row)[2:])
        assert not any(glyph in row.text for glyph in SHADES)


async def test_without_colour_cells_are_glyphs(no_colour):
    app = SignalsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        heat_map = app.screen.heat_map
        assert not heat_map.uses_colour
        text = map_text(heat_map)
        assert "█" in text and "·" in text
        assert "-1.00" in text and "+1.00" in text  # the legend gives the numbers
        await pilot.press("3")
        await pilot.pause()
        text = map_text(heat_map)
        assert MISSING * 2 in text and "no row" in text


def test_snapshot_signals_in_colour(snap_compare) -> None:
    assert snap_compare(SignalsApp(), press=["3"], terminal_size=(80, 24))


def test_snapshot_signals_without_colour(snap_compare, no_colour: None) -> None:
    assert snap_compare(SignalsApp(), press=["5", "right_square_bracket"], terminal_size=(80, 24))
