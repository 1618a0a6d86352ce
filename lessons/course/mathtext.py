"""LaTeX math as readable Unicode for a terminal.

unicodeit does the heavy lifting (Greek, bold letters, sub- and superscripts,
operators); this module first rewrites the constructs it leaves alone
(``\\frac``, ``\\sqrt``, ``\\text``, ``\\left``/``\\right``, spacing) and then
rejects anything still unconverted, so a typo in a lesson is an error rather
than a stray backslash on screen.
"""

from __future__ import annotations

import re
from functools import lru_cache

import unicodeit
from pylatexenc.latexwalker import LatexWalker, LatexWalkerError


class MathError(ValueError):
    """The LaTeX could not be parsed or has a command this renderer does not know."""


_TEXT_COMMANDS = ("text", "mathrm", "operatorname", "textrm", "mathit")
_SPACING = {r"\,": " ", r"\;": " ", r"\:": " ", r"\!": "", r"\quad": "  ", r"\qquad": "   "}
_OPEN = {"^": "\x01", "_": "\x02"}
_CLOSE = "\x03"
_WORDS = {r"^\top": "ᵀ", r"\exp": "exp", r"\log": "log", r"\max": "max", r"\min": "min", r"\sin": "sin", r"\cos": "cos"}


def _group(text: str, start: int) -> tuple[str, int]:
    """The contents of the brace group opening at text[start], and the index after it."""
    if start >= len(text) or text[start] != "{":
        raise MathError(f"expected '{{' after a command in {text!r}")
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise MathError(f"unbalanced braces in {text!r}")


def _simple(text: str) -> bool:
    """Short enough to need no parentheses around it in a/b or √x."""
    return re.fullmatch(r"√?(\\[a-zA-Z]+|[\w.]+)([_^](\{[\w.]+\}|[\w.]))?", text.strip()) is not None


def _wrap(text: str) -> str:
    return text if _simple(text) else f"({text})"


def _rewrite(latex: str) -> str:
    r"""Replace \frac, \sqrt and text commands, innermost first, by plain forms unicodeit can finish."""
    pattern = re.compile(r"\\(frac|sqrt|" + "|".join(_TEXT_COMMANDS) + r")\s*(?=\{)")
    while match := pattern.search(latex):
        name, start = match.group(1), match.end()
        first, after = _group(latex, start)
        if name == "frac":
            second, after = _group(latex, after)
            replacement = f"{_wrap(_rewrite(first))}/{_wrap(_rewrite(second))}"
        elif name == "sqrt":
            replacement = "√" + _wrap(_rewrite(first))
        else:
            replacement = first.replace("\\", "")
        latex = latex[: match.start()] + replacement + latex[after:]
    return latex


def _script_group(match: re.Match) -> str:
    """A sub- or superscript group: Unicode glyphs when all exist, else ^(…) so none is half converted."""
    converted = unicodeit.replace(match.group(0))
    if not re.search(r"[_^{}]", converted):
        return converted
    # Sentinels keep unicodeit from turning the fallback's own "^(" into a superscript parenthesis.
    return f"{_OPEN[match.group(1)]}{unicodeit.replace(match.group(2))}{_CLOSE}"


@lru_cache(maxsize=1024)  # the same formulas again on every load of the course (each app, each check of it)
def to_unicode(latex: str) -> str:
    """Render one formula; raises MathError for broken or unsupported LaTeX."""
    try:
        LatexWalker(latex, tolerant_parsing=False).get_latex_nodes()
    except LatexWalkerError as error:
        raise MathError(str(error).splitlines()[0]) from None
    text = _rewrite(latex)
    text = re.sub(r"\\(left|right|big|Big)\s*(\\?[()\[\]|.{}])", lambda m: "" if m.group(2) == "." else m.group(2).lstrip("\\"), text)
    for command, plain in {**_SPACING, **_WORDS}.items():
        text = text.replace(command, plain)
    text = re.sub(r"([_^])\{([^{}]*)\}", _script_group, text)
    text = unicodeit.replace(text)
    text = text.replace(_OPEN["^"], "^(").replace(_OPEN["_"], "_(").replace(_CLOSE, ")")
    leftover = re.search(r"\\[a-zA-Z]+", text)
    if leftover:
        raise MathError(f"unknown command {leftover.group(0)}")
    return re.sub(r"\s+", " ", text.replace("{", "").replace("}", "")).strip()
