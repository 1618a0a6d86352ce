"""The help screen: every key binding that works where the learner is."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from attnpos.tui.keys import bound_key, key_label


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
            body.border_title = f"Keys ({bound_key(self, 'close')} to close)"
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)


def binding_groups(screen: Screen) -> list[tuple[str, list[tuple[str, str]]]]:
    """(title, [(keys, description)]) for the screen, the app and the focused widget, in that order.

    From Textual's `Screen.active_bindings`: each key is listed where pressing
    it acts (the focused widget, or a priority binding of the screen or the
    app), and a binding its node has switched off (`check_action`) is not.
    Two kinds of the course's own keys are listed besides: one the focused
    widget types instead (`?` in the editor), marked, since it works once
    focus leaves the editor; and one a scrolling container between focus and
    screen also binds, since such a container passes the key on when it has
    nothing to scroll. Keys bound to the same action are shown together. The
    course's keys come first; the focused widget's (a list's or the editor's cursor keys) last.
    """
    focused = screen.focused
    owners = (focused, screen, screen.app)
    keys_of: dict[DOMNode, dict[tuple[str, str], list[str]]] = {}
    typed: set[str] = set()

    def add(node: DOMNode, key: str, binding: Binding) -> None:
        if binding.description:
            keys_of.setdefault(node, {}).setdefault((binding.action, binding.description), []).append(key)

    active = screen.active_bindings
    for key, acting in active.items():
        if acting.node in owners:
            add(acting.node, key, acting.binding)
    course_nodes: tuple[DOMNode, ...] = (screen, screen.app)
    for node in course_nodes:
        for key, bindings in BindingsMap(type(node).BINDINGS).key_to_bindings.items():
            if key in active:
                if active[key].node in owners:
                    continue  # listed where it acts
            elif focused is None or not focused.check_consume_key(key, key_to_character(key)):
                continue  # switched off
            else:
                typed.add(key)
            for binding in bindings:
                add(node, key, binding)
    groups = []
    titled: tuple[tuple[str, DOMNode | None], ...] = (("This screen", screen), ("Everywhere", screen.app), ("This widget", focused))
    for title, owner in titled:
        if owner is None:
            continue
        rows = [_row(description, keys, typed) for (_, description), keys in keys_of.get(owner, {}).items()]
        if rows:
            groups.append((title, rows))
    return groups


def _row(description: str, keys: list[str], typed: set[str]) -> tuple[str, str]:
    """(keys, description) as they work here: a key the focused widget types instead is left out
    (q beside ctrl+q in the editor); when every key of a binding is typed, the row says so."""
    acting = [key for key in keys if key not in typed]
    if acting:
        return key_label(",".join(acting)), description
    return key_label(",".join(keys)), f"{description} (outside the editor)"
