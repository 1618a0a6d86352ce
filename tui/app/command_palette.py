"""Command-palette provider: jump to any lesson, section or exercise by typing part of its name."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import Hit, Hits, Provider

if TYPE_CHECKING:
    from attnpos.tui.app.course_app import AttnposApp

COURSE_FIRST = 1.0  # above the 0 every discovery hit scores


class CourseCommands(Provider):
    """Every lesson, section and exercise of the course as a palette command."""

    def _targets(self):
        app = cast("AttnposApp", self.app)  # the provider of this app only
        yield "Playground", "shuffle a sentence and switch position signals yourself", app.open_playground
        yield "Position signal pictures", "sinusoidal, learned, RoPE and ALiBi, drawn", app.open_signal_pictures
        yield "Glossary", "every term of the course, what it means and the lesson that teaches it", app.open_glossary
        for lesson in app.outline:
            yield f"Lesson {lesson.number}: {lesson.title}", "open the lesson where you left it", partial(app.open_lesson, lesson.number)
            for index, title in enumerate(lesson.sections):
                yield (
                    f"Lesson {lesson.number} › {title}",
                    f"section {index + 1} of {len(lesson.sections)}",
                    partial(app.open_lesson, lesson.number, index),
                )
            for exercise in lesson.exercises:
                yield (
                    f"Exercise {exercise.id}: {exercise.title}",
                    f"lesson {lesson.number}",
                    partial(app.open_exercise, exercise.id),
                )

    async def discover(self) -> Hits:
        # With nothing typed, Textual lists hits by score; a discovery hit scores 0, like the
        # system commands (Keys, Theme, …), which would then come first. The course comes first.
        for title, help_text, callback in self._targets():
            yield Hit(COURSE_FIRST, title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._targets():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
