"""Learner-made text made safe to show on a terminal.

Everything a script prints or raises reaches a terminal through the CLI or
the app. An escape sequence in it could draw a fake green "✓ passed", set
the window title or write the clipboard (OSC 52); a carriage return could
overwrite the line before it. So every control character except newline and
tab is shown escaped (``\\x1b``, ``\\r``), as are the Unicode bidirectional
overrides that reorder how a line reads ("Trojan Source").
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\r": "\\r", "\x0b": "\\v", "\x0c": "\\f"}


def printable(text: str) -> str:
    """``text`` with every control character but newline and tab shown as an escape."""
    return _UNSAFE.sub(_escape, text)


def _escape(match: re.Match) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
