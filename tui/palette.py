"""The colour-blind-safe scale and shade glyphs every grid uses."""

from __future__ import annotations

# viridis sampled at nine evenly spaced points (matplotlib's _viridis_data).
VIRIDIS = (
    (68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
    (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37),
)
SHADES = (" ", "░", "▒", "▓", "█")


def viridis(level: float) -> tuple[int, int, int]:
    """RGB of viridis at ``level`` in [0, 1] (clipped), linearly interpolated."""
    level = min(max(float(level), 0.0), 1.0) * (len(VIRIDIS) - 1)
    low = int(level)
    high = min(low + 1, len(VIRIDIS) - 1)
    t = level - low
    return tuple(round(a + (b - a) * t) for a, b in zip(VIRIDIS[low], VIRIDIS[high]))  # type: ignore[return-value]


def viridis_hex(level: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*viridis(level))


def shade(level: float) -> str:
    """A glyph for ``level`` in [0, 1]: blank for ~0, full block for the maximum."""
    level = min(max(float(level), 0.0), 1.0)
    return SHADES[min(int(level * len(SHADES)), len(SHADES) - 1)]
