"""The colour-blind-safe scale and the shade glyphs every grid uses, in the app and in print."""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from rich.color import Color as RichColor
from rich.console import Console
from rich.segment import Segment
from rich.style import Style

# Viridis sampled at nine evenly spaced points (matplotlib's table); between them we interpolate.
VIRIDIS_STOPS: tuple[tuple[int, int, int], ...] = (
    (0x44, 0x01, 0x54),
    (0x47, 0x2D, 0x7B),
    (0x3B, 0x52, 0x8B),
    (0x2C, 0x72, 0x8E),
    (0x21, 0x91, 0x8C),
    (0x28, 0xAE, 0x80),
    (0x5E, 0xC9, 0x62),
    (0xAD, 0xDC, 0x30),
    (0xFD, 0xE7, 0x25),
)
SHADES = "·░▒▓█"
"""One glyph per fifth of the scale, lightest weight first; the dot keeps a near-zero cell visible."""


class ColourSettings(Protocol):
    """What colour_available reads of a Textual App (this module never imports Textual)."""

    @property
    def no_color(self) -> bool: ...
    @property
    def native_ansi_color(self) -> bool: ...
    @property
    def console(self) -> Console: ...


def colour_available(app: ColourSettings) -> bool:
    """Whether the viridis ramp can be shown faithfully.

    Not when the user asked for no colour (`NO_COLOR`, read by Textual into
    `App.no_color`), when the app keeps to the terminal's own ANSI palette
    (`App.ansi_color` / an ANSI theme), or when the terminal has fewer than 256
    colours (Rich's detected `color_system` is "standard", "windows" or None).
    """
    if app.no_color or app.native_ansi_color:
        return False
    return app.console.color_system in ("truecolor", "256")


def viridis(fraction: float) -> tuple[int, int, int]:
    """The viridis colour at `fraction` of the scale (clipped to 0..1) as RGB."""
    position = min(max(fraction, 0.0), 1.0) * (len(VIRIDIS_STOPS) - 1)
    lower = min(int(position), len(VIRIDIS_STOPS) - 2)
    blend = position - lower
    start, end = VIRIDIS_STOPS[lower], VIRIDIS_STOPS[lower + 1]
    return tuple(round(a + (b - a) * blend) for a, b in zip(start, end, strict=True))  # type: ignore[return-value]


def readable_text_colour(background: tuple[int, int, int]) -> RichColor:
    """Black on the light (yellow, green) end of the ramp, white on the dark end."""
    red, green, blue = background
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return RichColor.from_rgb(0, 0, 0) if luminance > 140 else RichColor.from_rgb(255, 255, 255)


RAMP_STEPS = 255
"""Grids and strips colour their many cells in 256 steps of the ramp, so that a cell's style is
looked up, not built: building a Style per cell was most of a frame at 64 tokens."""


def ramp_step(fraction: float) -> float:
    """``fraction`` (clipped to 0..1) rounded to the nearest of the ramp's steps."""
    return round(min(max(fraction, 0.0), 1.0) * RAMP_STEPS) / RAMP_STEPS


@lru_cache(maxsize=4 * (RAMP_STEPS + 1))
def ramp_style(fraction: float, text: bool = True, bold: bool | None = None) -> Style:
    """A cell at ``fraction`` of the ramp: its viridis background and, unless ``text`` is False, text readable on it."""
    background = viridis(fraction)
    return Style(bgcolor=RichColor.from_rgb(*background), color=readable_text_colour(background) if text else None, bold=bold)


def ramp_segments(width: int) -> list[Segment]:
    """The whole ramp from 0 to 1 in ``width`` cells, for a legend."""
    return [Segment(" ", Style(bgcolor=RichColor.from_rgb(*viridis(step / (width - 1))))) for step in range(width)]


def shade(fraction: float) -> str:
    """The shade glyph for `fraction` of the scale: five equal bands."""
    return SHADES[min(int(min(max(fraction, 0.0), 1.0) * len(SHADES)), len(SHADES) - 1)]


def format_weight(weight: float) -> str:
    """Three characters: '.21' below one, '1.0' at one (softmax weights never exceed it)."""
    weight = min(max(weight, 0.0), 1.0)
    return "1.0" if weight >= 0.995 else f"{weight:.2f}"[1:]
