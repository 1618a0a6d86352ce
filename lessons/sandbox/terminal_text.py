"""Learner-made text made safe to show on a terminal, and set apart from the checker's own.

Everything a script prints or raises reaches a terminal through the CLI or
the app. An escape sequence in it could draw a fake green "✓ passed", set
the window title or write the clipboard (OSC 52); a carriage return could
overwrite the line before it. So every control character except newline and
tab is shown escaped (``\\x1b``, ``\\r``), as are the invisible format
characters: the bidirectional overrides, isolates and marks that reorder how
a line reads ("Trojan Source"), the zero-width spaces and joiners, the
Unicode line and paragraph separators (U+2028/2029, which some terminals and
editors break lines at) and the tag characters. Newlines stay, so a script's
output keeps its lines: every front end shows learner text :func:`fenced`,
each line behind a bar, so no line of it can pass for the checker's verdict.
"""

from __future__ import annotations

import re

# C0 and C1 controls but tab and newline; then Unicode's invisible format characters (category Cf) and the
# line and paragraph separators (Zl, Zp).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]"
)
_NAMED = {"\r": "\\r", "\x0b": "\\v", "\x0c": "\\f"}
# What marks every line of learner text in the CLI and the app.
FENCE = "│ "


def printable(text: str) -> str:
    """``text`` with every control and invisible format character but newline and tab shown as an escape."""
    return _UNSAFE.sub(_escape, text)


def fenced(text: str, indent: str = "  ") -> str:
    """Learner text, made printable, each of its lines behind ``indent`` and the fence bar."""
    return "\n".join(f"{indent}{FENCE}{line}" for line in printable(text).split("\n"))


def _escape(match: re.Match) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
