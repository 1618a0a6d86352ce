"""The glossary screen: every term of the course with its meaning and the lesson that teaches it."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from attnpos.lessons.glossary import Term
from attnpos.tui.keys import bound_key


class GlossaryScreen(ModalScreen[None]):
    """The glossary, opened from the command palette (ctrl+p, "Glossary"); esc closes it."""

    CSS_PATH = "glossary_screen.tcss"  # loaded with the screen, not at start-up
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close the glossary")]

    def __init__(self, terms: tuple[Term, ...]):
        super().__init__()
        self.terms = terms

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2, 1, 0), expand=True)
        table.add_column("term", style="bold", width=24, overflow="fold")  # hyphenated terms are long words
        table.add_column("meaning", ratio=1)
        for term in self.terms:
            table.add_row(term.term, Text(term.meaning) + Text(f"  (lesson {term.lesson})", style="dim"))
        with VerticalScroll(id="glossary-body") as body:
            body.border_title = f"Glossary: {len(self.terms)} terms ({bound_key(self, 'close')} to close)"
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)
