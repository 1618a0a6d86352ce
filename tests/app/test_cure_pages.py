"""Lessons 5 to 7 in the app: their heat maps draw the registered figures, and g reaches them."""

from __future__ import annotations

import numpy as np

from attnpos.lessons.course.figures import figure
from attnpos.lessons.course.loader import load_course
from attnpos.tui.app.widgets.heat_map import HeatMap


def section_of(lesson: int, title: str) -> int:
    return next(i for i, s in enumerate(load_course().lesson(lesson).sections) if s.title == title)


async def test_the_counter_and_the_table_side_by_side_on_their_own_scales(make_app, settle):
    app = make_app(start=(6, section_of(6, "Fast channels first, like a counter's low digits")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        counter, table = app.screen.query(HeatMap)
        assert np.array_equal(counter.values, figure("sine.counter").value)
        assert np.array_equal(table.values, figure("sine.table").value)
        assert (counter.low, counter.high) == (0.0, 1.0)
        assert table.low < 0 < table.high
        await pilot.press("g")
        assert app.focused is counter


async def test_the_trained_table_shares_one_scale_with_its_start(make_app, settle):
    app = make_app(start=(7, section_of(7, "Experiment: train a small table")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before, after, target = app.screen.query(HeatMap)
        assert np.array_equal(after.values[8:], before.values[8:])
        assert (before.low, before.high) == (after.low, after.high)
        assert np.array_equal(target.values, figure("learned.target").value)


async def test_lesson_five_draws_both_gradients(no_colour, make_app, settle):
    app = make_app(start=(5, section_of(5, "Experiment 2: the trap")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        buffered, unbuffered = app.screen.query(HeatMap)
        assert buffered.values.max() == 1.0 and unbuffered.values.max() == 3.0
        assert not buffered.uses_colour


def test_every_heat_map_of_the_course_fits_its_labels():
    from attnpos.lessons.course.model import Heatmap

    course = load_course()
    blocks = [b for lesson in course.lessons for s in lesson.sections for b in s.blocks if isinstance(b, Heatmap)]
    assert len(blocks) >= 6
    for block in blocks:
        for name in filter(None, (block.figure, block.compare)):
            fig = figure(name)
            rows = fig.labels() if fig.labels else [str(i) for i in range(fig.value.shape[0])]
            assert fig.value.shape == (len(rows), len(fig.column_labels())), name
            assert all(len(label) <= 2 for label in fig.column_labels()), name


def test_lessons_show_prints_every_heat_map_with_its_values_and_caption():
    import io
    import re

    from rich.console import Console

    from attnpos.lessons.course.model import Heatmap
    from attnpos.tui.render.lesson_print import lesson_renderable

    course = load_course()
    for number in (5, 6, 7):
        lesson = course.lesson(number)
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(lesson_renderable(lesson, course, run_code=False))
        text = re.sub(r"\s+", " ", console.export_text())
        for block in (b for s in lesson.sections for b in s.blocks if isinstance(b, Heatmap)):
            assert " ".join(block.caption.split()) in text
            assert all(title in text for title in block.titles)
            first = figure(block.figure).value
            assert f"{first[0, 0]:+.2f}" in text


async def test_every_value_of_a_heat_map_is_reached_a_column_a_key(make_app, settle):
    """Lesson 7 §3 with values shown: 4 of 8 columns fit, and → moved one character, so the rest seemed out of reach."""
    app = make_app(start=(7, 2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g", "v")
        await settle(pilot)
        heat_map = app.focused
        assert isinstance(heat_map, HeatMap) and heat_map.show_values and heat_map.max_scroll_x > 0
        columns = len(heat_map.column_labels)
        await pilot.press(*["right"] * columns)
        await settle(pilot)
        assert heat_map.scroll_x == heat_map.max_scroll_x  # the last column is in view
        await pilot.press("left")
        await settle(pilot)
        assert heat_map.scroll_x == heat_map.max_scroll_x - heat_map.cell_width
