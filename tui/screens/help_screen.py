"""The help screen: every key binding that works where the learner is."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_NAMES = {
    "question_mark": "?", "escape": "esc", "left": "←", "right": "→", "up": "↑", "down": "↓", "enter": "enter",
    "plus": "+", "equals_sign": "=", "minus": "-", "left_square_bracket": "[", "right_square_bracket": "]",
}


def key_label(key: str) -> str:
    return " / ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in key.split(","))


class HelpScreen(ModalScreen[None]):
    """Lists the bindings of the screen below it (and of the widget that had focus), then the app's."""

    CSS_PATH = "help_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close help"),
    ]

    def __init__(self, groups: list[tuple[str, list[tuple[str, str]]]]):
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
        table.add_column("key", style="bold", max_width=24)  # a long "a / b / c" wraps at its slashes
        table.add_column("what it does", ratio=1)  # the keys take what they need, the text the rest
        for title, rows in self.groups:
            table.add_row(f"[reverse] {title} [/]", "")
            for key, description in rows:
                table.add_row(key, description)
            table.add_row("", "")
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Keys (esc to close)"
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)


def binding_groups(screen, focused) -> list[tuple[str, list[tuple[str, str]]]]:
    """(title, [(keys, description)]) for the screen, the app and the focused widget, in that order.

    The course's own keys come first; the focused widget's (a list's or the
    editor's cursor keys) last. Keys bound to the same action are shown
    together; a key that a closer node takes when pressed is listed there only.
    """
    taken: set[str] = set()
    groups = []
    # In an editable text area a printable key types itself instead of running its binding.
    typing = getattr(focused, "read_only", None) is False
    for title, node in (("This widget", focused), ("This screen", screen), ("Everywhere", screen.app)):
        if node is None:
            continue
        by_action: dict[tuple[str, str], list[str]] = {}
        for key, bindings in node._bindings.key_to_bindings.items():
            for binding in bindings:
                if binding.description and key not in taken:
                    by_action.setdefault((binding.action, binding.description), []).append(key)
        for keys in by_action.values():
            taken.update(keys)
        rows = [
            (key_label(",".join(keys)), _when(description, keys, typing and node is not focused))
            for (_, description), keys in by_action.items()
        ]
        if rows:
            groups.append((title, rows))
    # Closest first decides which node owns a key; course keys first is how a learner reads it.
    return sorted(groups, key=lambda group: group[0] == "This widget")


def _when(description: str, keys: list[str], typing: bool) -> str:
    """Say so when every key of a binding would be typed into the focused editor instead."""
    printable = all(len(key_label(key)) == 1 for key in keys)
    return f"{description} (outside the editor)" if typing and printable else description
