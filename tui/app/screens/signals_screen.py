"""The position-signals screen: each way of giving attention a sense of order, as a picture.

Five heat maps, one at a time: the sinusoidal encoding, how alike two of its
vectors are as a function of distance, a learned table and its missing rows
past max_len, RoPE scores that depend only on the offset, and ALiBi's bias
for one head at a time. Each has a caption saying what to notice.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from msgspec import Struct
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from attnpos.core.learned_training import LONGEST, SHORTEST
from attnpos.core.pictures import (
    alibi_picture,
    rope_scores,
    sinusoidal_distance_products,
    sinusoidal_matrix,
    trained_lookup,
)
from attnpos.tui.app.leaks import Footer
from attnpos.tui.app.screens.course_screen import CourseScreen
from attnpos.tui.app.widgets.heat_map import HeatMap


class Picture(Struct, frozen=True):
    """One heat map of the screen and the words around it."""

    name: str  # short, for the row of picture names at the top
    title: str  # the map's border title: what rows and columns are
    values: np.ndarray  # (R, C)
    row_labels: list[str]
    column_labels: list[str]
    caption: str  # one or two lines: what to notice
    low: float | None = None  # colour scale ends; None for the matrix min and max
    high: float | None = None
    missing: str = "no value"


def slope_text(slope: float) -> str:
    """'1/2 = 0.5', '1/256 = 0.0039': ALiBi slopes are powers of one half."""
    return f"1/{1 / slope:g} = {slope:.2g}"


class SignalsScreen(CourseScreen):
    """Pictures of the position signals, one at a time; escape goes back."""

    CSS_PATH = "signals_screen.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("1", "show_picture(0)", "Pictures", key_display="1-5"),
        Binding("2", "show_picture(1)", "Distance picture", show=False),
        Binding("3", "show_picture(2)", "Learned picture", show=False),
        Binding("4", "show_picture(3)", "RoPE picture", show=False),
        Binding("5", "show_picture(4)", "ALiBi picture", show=False),
        # Priority, or tab would move the focus instead.
        Binding("tab", "next_picture", "Next", priority=True),
        Binding("shift+tab", "previous_picture", "Previous", show=False, priority=True),
        Binding("left_square_bracket", "previous_head", "Head −", key_display="["),
        Binding("right_square_bracket", "next_head", "Head +", key_display="]"),
    ]

    ALIBI = 4
    """Index of the ALiBi picture, the one whose head can change."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.picture_index = 0
        self.head = 0
        self._alibi = alibi_picture(n_heads=8, T=8)
        self._fixed = self._fixed_pictures()

    # ---- the pictures --------------------------------------------------------

    @staticmethod
    def _fixed_pictures() -> list[Picture]:
        """The four pictures that do not depend on the head."""
        encoding = sinusoidal_matrix(T=32)  # (32, 16)
        distance = sinusoidal_distance_products()
        learned = trained_lookup()
        rope = rope_scores()
        channels = [str(c) for c in range(encoding.shape[1])]
        return [
            Picture(
                name="sinusoidal",
                title="sinusoidal PE: rows position t, columns channel c",
                values=encoding,
                row_labels=[f"t={t}" for t in range(encoding.shape[0])],
                column_labels=channels,
                caption="Each channel pair turns at its own speed: the left columns change every row, "
                "the right ones barely move. Every row is a different pattern within −1…+1.",
            ),
            Picture(
                name="distance",
                title="PE[p]·PE[p+k]: rows start p, columns distance k",
                values=distance.products,
                row_labels=[f"p={p}" for p in distance.positions],
                column_labels=[str(k) for k in distance.offsets],
                caption="Every row is the same: the product depends only on k (sin·sin + cos·cos is "
                "the cos of the difference). Highest at k = 0, then falling with wobbles.",
            ),
            Picture(
                name="learned",
                title=f"learned table, max_len {learned.max_len}: rows position t, columns channel c",
                values=learned.values,
                row_labels=[f"t={t}" for t in range(len(learned.has_row))],
                column_labels=[str(c) for c in range(learned.values.shape[1])],
                caption=f"Lesson 7's table, trained on sequences of {SHORTEST} to {LONGEST} tokens: rows 0–{LONGEST - 1} learned "
                f"their waves, rows {LONGEST}–{learned.max_len - 1} never got a gradient and keep their small random start. "
                f"From t = {learned.max_len} there is no row at all: learned_positions raises IndexError.",
                missing="no row",
            ),
            Picture(
                name="RoPE",
                title="RoPE score q·k: rows q at position m, columns k at m + k",
                values=rope.scores,
                row_labels=[f"m={m}" for m in rope.starts],
                column_labels=[str(k) for k in rope.offsets],
                caption="Each column is one colour from top to bottom: turning q and k by the same m "
                "leaves the score depending only on the offset k, not on where it happens.",
            ),
        ]

    def _alibi_for_head(self) -> Picture:
        """ALiBi's published, causal bias for the current head, on one colour scale for all heads so slopes compare."""
        bias, slopes = self._alibi.bias, self._alibi.slopes
        T = bias.shape[1]
        return Picture(
            name="ALiBi",
            title=f"ALiBi bias, head {self.head} (heads 0–{len(slopes) - 1}): rows query i, columns key j",
            values=bias[self.head],
            row_labels=[f"i={i}" for i in range(T)],
            column_labels=[str(j) for j in range(T)],
            caption=f"Head {self.head}, slope {slope_text(slopes[self.head])}: the bias −slope·(i − j) is 0 on the "
            "diagonal and drops by the slope per step back; later keys (j > i) are masked, as published.",
            low=float(np.nanmin(bias)),
            high=0.0,
            missing="masked: a later key",
        )

    @property
    def picture(self) -> Picture:
        """The picture on screen."""
        return self._alibi_for_head() if self.picture_index == self.ALIBI else self._fixed[self.picture_index]

    @property
    def picture_count(self) -> int:
        return len(self._fixed) + 1

    @property
    def heat_map(self) -> HeatMap:
        return self.query_one(HeatMap)

    @property
    def caption(self) -> str:
        """The caption on screen, as plain text."""
        return self.picture.caption

    # ---- composing and updating ----------------------------------------------

    def compose(self) -> ComposeResult:
        picture = self.picture
        yield Static(self._names(), id="signals-names")
        yield Static(picture.caption, id="signals-caption", markup=False)
        with Vertical(id="signals-body"):
            yield HeatMap(
                picture.values,
                picture.row_labels,
                picture.column_labels,
                low=picture.low,
                high=picture.high,
                missing=picture.missing,
                title=picture.title,
            )
        yield Footer()

    def _names(self) -> Text:
        """'1 sinusoidal  2 distance …' with the current picture in reverse video (seen without colour too)."""
        names = [picture.name for picture in self._fixed] + ["ALiBi"]
        text = Text()
        for index, name in enumerate(names):
            text.append(f" {index + 1} {name} ", style="reverse bold" if index == self.picture_index else "")
            text.append(" ")
        return text

    def _redraw(self) -> None:
        """Show the current picture, its caption and which bindings apply."""
        picture = self.picture
        self.heat_map.show(
            picture.values,
            picture.row_labels,
            picture.column_labels,
            low=picture.low,
            high=picture.high,
            missing=picture.missing,
            title=picture.title,
        )
        self.query_one("#signals-names", Static).update(self._names())
        self.query_one("#signals-caption", Static).update(picture.caption)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Head keys only apply to the ALiBi picture (hidden from the footer elsewhere)."""
        if action in ("previous_head", "next_head"):
            return self.picture_index == self.ALIBI
        return True

    # ---- actions -------------------------------------------------------------

    def action_back(self) -> None:
        """Return to the screen below."""
        self.app.pop_screen()

    def action_show_picture(self, index: int) -> None:
        """Show picture `index` (0-based)."""
        self.picture_index = index % self.picture_count
        self._redraw()

    def action_next_picture(self) -> None:
        """Show the next picture, wrapping around."""
        self.action_show_picture(self.picture_index + 1)

    def action_previous_picture(self) -> None:
        """Show the previous picture, wrapping around."""
        self.action_show_picture(self.picture_index - 1)

    def action_next_head(self) -> None:
        """ALiBi: the next head (gentler slope), wrapping around."""
        self.head = (self.head + 1) % len(self._alibi.slopes)
        self._redraw()

    def action_previous_head(self) -> None:
        """ALiBi: the previous head (steeper slope), wrapping around."""
        self.head = (self.head - 1) % len(self._alibi.slopes)
        self._redraw()
