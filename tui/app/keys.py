"""Keys named in prose come from the bindings: one home for each key, the BINDINGS that run it.

`bound_key(screen, "check")` is the key that runs the screen's (or the app's)
``check`` action, named as the help screen names keys ("ctrl+t", "esc", "?").
Change a binding and every sentence that mentions it follows. `binding_groups`
lists what the help dialog shows: every key that works where the learner is.
A key a browser keeps for itself (ctrl+t opens a tab under `attnpos serve`) has a
twin action bound to another key: `works_here` switches each off where its key
does not arrive, so the footer and the help show the one that works, and
`bound_key` names it in prose.
"""

from __future__ import annotations

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import Screen

KEY_NAMES = {
    "question_mark": "?",
    "escape": "esc",
    "left": "←",
    "right": "→",
    "up": "↑",
    "down": "↓",
    "enter": "enter",
    "plus": "+",
    "equals_sign": "=",
    "minus": "-",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
}


# Action -> its twin in a browser, bound to a key the page passes on (f5); the browser keeps the first's (ctrl+t).
BROWSER_TWINS = {"check": "check_in_browser"}


def works_here(node: DOMNode, action: str) -> bool:
    """Whether ``action``'s key reaches the app where it runs: in a browser the twin's, in a terminal the original's."""
    if action in BROWSER_TWINS:
        return not node.app.is_web
    if action in BROWSER_TWINS.values():
        return node.app.is_web
    return True


def key_label(key: str) -> str:
    """'escape,q' → 'esc / q': a binding's keys as the help screen and the prose show them."""
    return " / ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in key.split(","))


def bound_key(node: DOMNode, action: str, *, typed: bool = True) -> str:
    """The keys that run ``action`` on ``node`` or, failing that, on the app ('esc / o').

    The nearest class that binds the action wins, as in Textual. ``typed=False`` skips single
    printable keys: in an editor `q` types a q, so quitting is ctrl+q there. In a browser an
    action with a twin (:data:`BROWSER_TWINS`) is named by the twin's key. A missing binding
    is a bug in the caller's prose, so it raises.
    """
    if not works_here(node, action):
        action = BROWSER_TWINS[action]
    for owner in (node, node.app):
        for cls in type(owner).__mro__:
            keys = [
                binding.key
                for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", ()))
                if binding.action == action and (typed or len(binding.key) > 1)
            ]
            if keys:
                return key_label(",".join(keys))
    raise LookupError(f"no binding runs {action!r} on {type(node).__name__} or the app")


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
