"""The exercise editor: Textual's code editor, with wrapped lines marked in the gutter."""

from __future__ import annotations

from rich.segment import Segment
from textual import events
from textual.geometry import Offset
from textual.message import Message
from textual.strip import Strip
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult

from attnpos.lessons.course.progress import draft_too_large

CONTINUATION = "↪"
"""Drawn in the line-number gutter beside the second and later rows of a wrapped line."""


class CodeEditor(TextArea):
    """A TextArea whose wrapped rows say so: with soft wrap, Textual leaves their gutter blank,
    and at 60 columns a wrapped comment then reads as an indented line of its own.

    Enter keeps the line's indent, one level more after a colon, and the cursor stays in view
    when an edit makes the text longer.

    A paste that would make the text too large for the editor to stay responsive is refused
    (`TooLarge`): the editor rewraps its whole text on every key.
    """

    class TooLarge(Message):
        """A paste was refused: the text would have been ``reason`` ("12,000 lines; the editor holds …")."""

        def __init__(self, editor: "CodeEditor", reason: str) -> None:
            super().__init__()
            self.editor = editor
            self.reason = reason

        @property
        def control(self) -> "CodeEditor":
            return self.editor

    async def _on_paste(self, event: events.Paste) -> None:
        # Textual calls TextArea's own handler after this one unless the default is prevented.
        after = len(self.text) - len(self.selected_text) + len(event.text)
        if after <= len(self.text):
            return
        problem = draft_too_large(self.text + event.text)  # a selection it replaces is not subtracted: close enough
        if problem is not None:
            event.prevent_default()
            event.stop()
            self.post_message(self.TooLarge(self, problem))

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls TextArea's own handler after this one unless the default is prevented.
        if event.key != "enter" or self.read_only:
            return
        row, column = self.cursor_location
        before = self.document.get_line(row)[:column]
        indent = before[: len(before) - len(before.lstrip())]
        if before.rstrip().endswith(":"):
            indent += "\t" if self.indent_type == "tabs" else " " * self.indent_width
        event.prevent_default()
        event.stop()
        self._replace_via_keyboard("\n" + indent, *self.selection)

    def edit(self, edit: Edit) -> EditResult:
        result = super().edit(edit)
        # TextArea scrolls to the cursor before it grows its scrollable height to the new text, so a line
        # added at the bottom stayed hidden below the editor until the next key.
        self.scroll_cursor_visible()
        return result

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if not (self.soft_wrap and self.show_line_numbers):
            return strip
        wrapped = self.wrapped_document
        row_y = self.scroll_offset.y + y
        if row_y >= wrapped.height:
            return strip
        row, _ = wrapped.offset_to_location(Offset(0, row_y))
        if wrapped.location_to_offset((row, 0)).y == row_y:
            return strip  # the first row of its line: the number is drawn
        width = self.gutter_width
        gutter = list(strip.crop(0, width))
        style = gutter[0].style if gutter else None
        mark = Strip([Segment(f"{CONTINUATION:>{width - 2}}  ", style)], width)
        return Strip.join([mark, strip.crop(width, strip.cell_length)])
