"""Keys named in prose come from the bindings: one home for each key, the BINDINGS that run it.

`bound_key(screen, "check")` is the key that runs the screen's (or the app's)
``check`` action, named as the help screen names keys ("ctrl+t", "esc", "?").
Change a binding and every sentence that mentions it follows.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode

KEY_NAMES = {
    "question_mark": "?", "escape": "esc", "left": "←", "right": "→", "up": "↑", "down": "↓", "enter": "enter",
    "plus": "+", "equals_sign": "=", "minus": "-", "left_square_bracket": "[", "right_square_bracket": "]",
}


def key_label(key: str) -> str:
    """'escape,q' → 'esc / q': a binding's keys as the help screen and the prose show them."""
    return " / ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in key.split(","))


def bound_key(node: DOMNode, action: str, *, typed: bool = True) -> str:
    """The keys that run ``action`` on ``node`` or, failing that, on the app ('esc / o').

    The nearest class that binds the action wins, as in Textual. ``typed=False`` skips single
    printable keys: in an editor `q` types a q, so quitting is ctrl+q there. A missing binding
    is a bug in the caller's prose, so it raises.
    """
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
