"""A code cell that takes seconds (lesson 10 trains a head) shows what it has printed while it runs."""

from __future__ import annotations

from attnpos.lessons.course.cells import run_cell


def test_each_print_is_reported_as_it_happens():
    seen: list[str] = []
    result = run_cell("print('one')\nprint('two', end='')\nimport sys\nprint('to stderr', file=sys.stderr)\n", on_output=seen.append)
    assert seen == ["one\n", "one\ntwo"]  # cumulative, and only what the cell shows
    assert result.output == "one\ntwo" and result.ok


def test_an_error_after_a_print_keeps_what_was_printed():
    seen: list[str] = []
    result = run_cell("print('before')\n1 / 0\n", on_output=seen.append)
    assert seen == ["before\n"]
    assert result.output == "before\n" and result.error is not None and "ZeroDivisionError" in result.error


async def test_the_attend_back_cell_shows_its_rows_while_it_trains(make_app, settle, wait_until):
    from attnpos.tui.app.screens.lesson_screen import LessonScreen
    from attnpos.tui.app.widgets.lesson_blocks import CodeCell

    app = make_app(start=(10, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lesson = app.screen.lesson
        live = next(i for i, section in enumerate(lesson.sections) if section.title.startswith("Live"))
        for _ in range(live):
            await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, LessonScreen) and app.screen.section == live
        cell = app.screen.query(CodeCell).filter(".code-cell").first()
        cell.run()

        def shown() -> str:
            return str(cell.query_one(".output").render())

        await wait_until(pilot, lambda: "learned table" in shown() and "running…" in shown(), timeout=60)
        await wait_until(pilot, lambda: "running…" not in shown(), timeout=120)
        assert "Caveats" in shown() and "RoPE" in shown()
