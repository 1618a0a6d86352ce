"""The all-signals table links each signal to the lesson that teaches it."""

from __future__ import annotations

from attnpos.core.playground import SIGNALS
from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.playground_state import SIGNAL_LESSONS

SENTENCE = "the cat sat on the mat"


def test_every_signal_names_a_lesson_the_course_has():
    numbers = {lesson.number for lesson in load_course().lessons}
    assert set(SIGNAL_LESSONS) == set(SIGNALS)
    assert set(SIGNAL_LESSONS.values()) <= numbers


async def test_choosing_a_signal_opens_its_lesson(make_app, settle, wait_until):
    from attnpos.tui.app.screens.dialogs import SignalsTableScreen
    from attnpos.tui.app.screens.lesson_screen import LessonScreen

    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s", "a")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, SignalsTableScreen)
        links = screen.query_one("#signal-lessons")
        links.focus()
        links.highlighted = list(SIGNALS).index("rope")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, LessonScreen))
        assert pilot.app.screen.lesson.number == SIGNAL_LESSONS["rope"] == 8
