"""The exercise editor: Textual's code editor, with wrapped lines marked in the gutter."""

from __future__ import annotations

from rich.segment import Segment
from textual.geometry import Offset
from textual.strip import Strip
from textual.widgets import TextArea

CONTINUATION = "↪"
"""Drawn in the line-number gutter beside the second and later rows of a wrapped line."""


class CodeEditor(TextArea):
    """A TextArea whose wrapped rows say so: with soft wrap, Textual leaves their gutter blank,
    and at 60 columns a wrapped comment then reads as an indented line of its own."""

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
