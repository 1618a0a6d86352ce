"""The base of the course's full screens: `self.app` typed as the course app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from attnpos.tui.app.keys import bound_key

if TYPE_CHECKING:
    from textual import getters

    from attnpos.tui.app.course_app import AttnposApp


class CourseScreen(Screen[None]):
    """A full screen of the course app.

    Textual types `self.app` as any App; this tells the type checker it is the
    course's, as Textual's own `MessagePump` does (only while type checking:
    at run time `app` stays Textual's property, and no import cycle forms).
    """

    if TYPE_CHECKING:
        app = getters.app(AttnposApp)

    def key(self, action: str, *, typed: bool = True) -> str:
        """The key that runs ``action`` here, from the bindings (attnpos.tui.app.keys): prose never types a key."""
        return bound_key(self, action, typed=typed)
