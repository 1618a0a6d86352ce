"""The playground: type a sentence, reorder it, switch position signals, and watch the figures move."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import ClassVar

import numpy as np

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Header, Input, Static

from attnpos.core.playground import (
    DEFAULT_SEED,
    DEFAULT_SENTENCE,
    MAX_TOKENS,
    SAME,
    SIGNAL_NAMES,
    SIGNALS,
    Play,
    play,
    row_change,
)
from attnpos.core.permutation import is_permutation
from attnpos.core.words import label_tokens, tokenize
from attnpos.lessons.figures import CHANGED_ROW
from attnpos.tui.leaks import Footer
from attnpos.tui.grid import AttentionGrid, GridLegend, colour_available
from attnpos.tui.palette import shade, viridis

TEMPERATURE_STEP = 1.5


class PromptScreen(ModalScreen["str | None"]):
    """One line of input: enter accepts, esc cancels; a validator may refuse with a reason."""

    CSS_PATH = "playground.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = "", validate=None):
        super().__init__()
        self.question = question
        self.value = value
        self.validate = validate

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Static(self.question)
            yield Input(self.value, id="prompt-input")
            yield Static("", id="prompt-error")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        problem = self.validate(event.value) if self.validate else None
        if problem:
            self.query_one("#prompt-error", Static).update(Text(problem, style="bold red"))
        else:
            self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


STRIP_LEVELS = 255


@lru_cache(maxsize=STRIP_LEVELS + 1)
def _strip_style(level: int) -> Style:
    """A strip cell's background, one of 256: parsing a colour string per cell cost a frame at 64 tokens."""
    return Style(bgcolor=RichColor.from_rgb(*viridis(level / STRIP_LEVELS)))


class OutputStrips(ScrollView):
    """One heat strip per token: its output vector, channel by channel.

    Drawn line by line: at 64 tokens only the rows on screen are built, where a
    Text of all 64 was laid out again on every key press.
    """

    DEFAULT_CSS = """
    OutputStrips { width: auto; height: auto; border: round $primary; padding: 0 1; }
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.border_title = "outputs"
        self._labels: list[str] = []
        self._levels: list[list[float]] = []  # (T, C) outputs scaled to [0, 1]
        self._scale = Strip([])
        self._colour = True
        self._lines: dict[int, Strip] = {}  # rows built so far for the outputs on show

    def show(self, outputs: np.ndarray, labels: list[str]) -> None:
        low, high = float(outputs.min()), float(outputs.max())
        self._levels = ((outputs - low) / (high - low or 1.0)).tolist()
        width = max(len(label) for label in labels)
        self._labels = [label.rjust(width) + " " for label in labels]
        self._scale = Strip([Segment(f"{low:+.1f} … {high:+.1f}", Style(dim=True))])
        self._colour = colour_available(self.app)
        self._lines = {}
        self.virtual_size = Size(max(width + 1 + outputs.shape[1], self._scale.cell_length), len(labels) + 1)
        self.refresh()

    def _line(self, index: int) -> Strip:
        """Row `index` (a token's strip, or the scale under them), built when first drawn."""
        if index == len(self._labels):
            return self._scale
        if index not in self._lines:
            row = self._levels[index]
            if self._colour:
                cells = [Segment(" ", _strip_style(round(level * STRIP_LEVELS))) for level in row]
            else:
                cells = [Segment("".join(shade(level) for level in row))]
            self._lines[index] = Strip([Segment(self._labels[index]), *cells])
        return self._lines[index]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = y + scroll_y
        if index > len(self._labels):
            return Strip.blank(width, self.rich_style)
        return self._line(index).crop_extend(scroll_x, scroll_x + width, self.rich_style).apply_style(self.rich_style)


class SignalsTableScreen(ModalScreen[None]):
    """Every position signal on the current sentence and order, side by side."""

    CSS_PATH = "playground.tcss"  # loaded with the screen, not at start-up
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,a", "close", "Close")]

    def __init__(self, tokens: list[str], perm: list[int], temperature: float, seed: int):
        super().__init__()
        self.tokens, self.perm, self.temperature, self.seed = tokens, perm, temperature, seed

    def compose(self) -> ComposeResult:
        table = Table(box=None, padding=(0, 1), header_style="bold")
        for column in ("signal", "gap", "twins' rows", "Σ outputs tells orders apart"):
            table.add_column(column)
        for signal in SIGNALS:
            state = play(self.tokens, self.perm, signal, temperature=self.temperature, seed=self.seed)
            twins = "-" if not state.twins else ("identical" if state.twins[0][2] else "different")
            table.add_row(signal, f"{state.gap:.3g}", twins, "yes" if state.pooled_tells_apart else "no")
        order = " ".join(map(str, self.perm))
        with Vertical(id="signals-table") as box:
            box.border_title = f"all signals · order {order} · esc closes"
            yield Static(table)
            yield Static(
                "gap ≈ 0: attention only relisted its outputs (no order seen). The constant offset is the "
                "same at every slot, so it sees no more than none; every per-slot signal does. causal is a "
                "mask and no position vector: it is tied to the slots, so it sees order too. alibi is the "
                "published form, −m·(i − j) on earlier keys with that mask (head 0, m = 1/2).",
                classes="note",
            )

    def action_close(self) -> None:
        self.dismiss(None)


class PlaygroundScreen(Screen):
    """Cause the blind spot yourself: every key changes the sentence, its order or its position signal."""

    CSS_PATH = "playground.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "shuffle", "Shuffle"),
        Binding("g", "next_signal", "Signal"),
        Binding("e", "edit_token", "Edit"),
        Binding("m", "predict", "Predict"),
        Binding("b", "toggle_pair", "Side by side", show=False),
        Binding("i", "type_sentence", "Sentence", show=False),
        Binding("w", "swap", "Swap two", show=False),
        Binding("R", "reverse", "Reverse", show=False),
        Binding("t", "type_permutation", "Type an order", show=False),
        Binding("o", "original_order", "Original order", show=False),
        Binding("G", "previous_signal", "Previous signal", show=False),
        Binding("plus,equals_sign", "sharpen", "Sharpen (temperature ÷1.5)", show=False),
        Binding("minus", "flatten", "Flatten (temperature ×1.5)", show=False),
        Binding("right_square_bracket", "seed(1)", "Next seed", show=False),
        Binding("left_square_bracket", "seed(-1)", "Previous seed", show=False),
        Binding("c", "toggle_characters", "Words / characters", show=False),
        Binding("S", "signal_pictures", "Signal pictures", show=False),
        Binding("a", "all_signals", "All signals", show=False),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, sentence: str = DEFAULT_SENTENCE, perm: list[int] | None = None, signal: str = "none"):
        """Open on ``sentence`` (words), shown in the order ``perm`` (as typed if None), with ``signal``.

        A lesson's {playground} link passes all three; they are validated when the lesson loads.
        """
        super().__init__()
        self.by = "word"
        self.sentence = sentence
        self.tokens = tokenize(sentence)[:MAX_TOKENS] or tokenize(DEFAULT_SENTENCE)
        self.perm = list(perm) if perm is not None and is_permutation(perm, len(self.tokens)) else list(range(len(self.tokens)))
        self.signal = signal if signal in SIGNALS else "none"
        self.temperature = 1.0
        self.seed = DEFAULT_SEED  # lesson 3's seed: the opening grid is lesson 3's
        self.shuffles = 0
        self.swap_from: int | None = None
        self.predicted: set[int] = set()
        self.marked: frozenset[int] = frozenset()
        self.last_change = (
            "No position signal yet, as in the lessons: s shuffles, g changes the signal, ? lists every key."
            if self.signal == "none"
            else f"From the lesson: {SIGNAL_NAMES[self.signal]}. t: order as typed · g: next signal · ? every key."
        )
        self.side_by_side = False
        self.state: Play = play(self.tokens, self.perm, self.signal, temperature=self.temperature, seed=self.seed)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="play-bar")
        with Horizontal(id="play-main"):
            yield AttentionGrid(self.state.weights, self._labels(), title="as typed", id="play-first")
            yield AttentionGrid(self.state.shuffled_weights, self._labels(self.perm), title="now", id="play-moved")
            yield OutputStrips(id="play-outputs")
        yield GridLegend(1.0)
        yield Static(id="play-figures")
        yield Footer(show_command_palette=False)  # room for help and quit at 80 columns

    def on_mount(self) -> None:
        self.sub_title = "Playground"
        self.refresh_view()
        self.query_one("#play-moved", AttentionGrid).focus()

    # --- the state and what it shows --------------------------------------------

    @property
    def reordered(self) -> bool:
        """Whether the tokens are in another order than typed."""
        return self.perm != list(range(len(self.tokens)))

    def _labels(self, order: list[int] | None = None) -> list[str]:
        labels = label_tokens(self.tokens)
        return labels if order is None else [labels[i] for i in order]

    def recompute(self) -> None:
        self.state = play(self.tokens, self.perm, self.signal, temperature=self.temperature, seed=self.seed)

    def refresh_view(self) -> None:
        """Draw the state: the grid in the current order (and, side by side, as typed), outputs, figures."""
        state = self.state
        first = self.query_one("#play-first", AttentionGrid)
        moved = self.query_one("#play-moved", AttentionGrid)
        rows_of = {token: slot for slot, token in enumerate(self.perm)}
        first.set_weights(state.weights, self._labels(), marked_rows=self.marked)
        moved.set_weights(
            state.shuffled_weights,
            self._labels(self.perm),
            marked_rows=frozenset(rows_of[t] for t in self.marked | self.predicted),
        )
        first.display = self.side_by_side
        outputs = self.query_one("#play-outputs", OutputStrips)
        outputs.show(state.shuffled_outputs, self._labels(self.perm))
        outputs.display = not self.side_by_side or self.app.size.width >= 110
        order = " ".join(map(str, self.perm)) if self.reordered else "as typed"
        self.query_one("#play-bar", Static).update(
            Text.assemble(
                (self.signal, "bold"), " · ", f"T={len(self.tokens)}", " · order ", (order, "bold"),
                " · temperature ", f"{self.temperature:.3g}", " · seed ", str(self.seed),
            )
        )
        self.query_one("#play-figures", Static).update(self.figures_text())

    def figures_text(self) -> Text:
        """The live figures, one line each with what it means."""
        state = self.state
        reordered = self.reordered
        lines = Text()
        lines.append("gap ", style="bold")
        lines.append(f"max|attn(PX) − P·attn(X)| = {state.gap:.3g}")
        if not reordered:
            lines.append(" · nothing is reordered yet: s shuffles\n")
        else:
            lines.append(" · only relisted\n" if state.equivariant else " · the outputs changed: position seen\n")
        if state.twins:
            labels = self._labels()
            i, j, same = state.twins[0]
            lines.append(f"{labels[i]}, {labels[j]} ", style="bold")
            lines.append("identical rows: nothing tells them apart\n" if same else "different rows: position tells them apart\n")
        else:
            lines.append("no repeated token ", style="bold")
            lines.append("(type a word twice to compare its rows)\n")
        lines.append("Σ outputs ", style="bold")
        lines.append(f"as typed vs now differ by {state.pooled_gap:.3g}")
        if not reordered:
            lines.append(" · one order only so far\n")
        else:
            lines.append(" · tells the orders apart\n" if state.pooled_tells_apart else " · cannot tell the orders apart\n")
        top = float(state.shuffled_weights.max(axis=1).min())
        count = len(self.tokens)
        lines.append("rows ", style="bold")
        lines.append(f"flattest row's top weight {top:.2f} (blend: 1/{count} = {1 / count:.2f}, copy: 1.00)\n")
        lines.append(self.last_change, style="italic")
        return lines

    # --- changes, with predictions revealed ---------------------------------------------

    def apply(self, description: str, change) -> None:
        """Make a change, compare each token's row and output before and after, and reveal predictions."""
        before = self.state
        before_labels = self._labels()
        change()
        self.recompute()
        after = self.state
        self.marked = frozenset()
        message = description
        if before.weights.shape == after.weights.shape:
            if self.tokens != list(before.tokens) or self.signal != before.signal or self.temperature != before.temperature or self.seed != before.seed:
                # Slot by slot in the order on screen (the perm is the same before and after this change).
                moved = row_change(before.shuffled_weights, after.shuffled_weights)
                self.marked = frozenset(self.perm[int(slot)] for slot in np.flatnonzero(moved > CHANGED_ROW))
                changed = set(self.marked)
                if self.marked and "▶" not in message:
                    message += f" ▶ marks the rows that moved by more than {CHANGED_ROW}."
            else:
                # A reorder: a token "changed" when its output is not just relisted.
                changed = {k for k in range(len(self.tokens)) if self._token_output_changed(before, after, k)}
            if self.predicted:
                message += "  " + self._reveal(changed, before_labels)
        self.predicted = set()
        self.last_change = message
        self.refresh_view()

    def _token_output_changed(self, before: Play, after: Play, token: int) -> bool:
        old_slot = before.perm.index(token)
        new_slot = after.perm.index(token)
        return bool(np.max(np.abs(after.shuffled_outputs[new_slot] - before.shuffled_outputs[old_slot])) >= SAME)

    def _reveal(self, changed: set[int], labels: list[str]) -> str:
        right = [labels[i] for i in sorted(self.predicted) if i in changed]
        wrong = [labels[i] for i in sorted(self.predicted) if i not in changed]
        missed = [labels[i] for i in sorted(changed - self.predicted)]
        parts = [f"Predictions: {len(right)} of {len(self.predicted)} right"]
        if wrong:
            parts.append(f"unchanged after all: {', '.join(wrong)}")
        if missed:
            parts.append(f"also changed: {', '.join(missed)}")
        return "; ".join(parts) + "."

    @property
    def cursor_row(self) -> int:
        """The token (its index as typed) under the cursor of the current-order grid."""
        return self.perm[self.query_one("#play-moved", AttentionGrid).cursor_row]

    # --- actions ------------------------------------------------------------------

    def action_shuffle(self) -> None:
        order = list(self.perm)
        if len(order) < 2:
            self.last_change = "One token cannot be shuffled."
            self.refresh_view()
            return
        while order == self.perm:  # a shuffle that changes nothing would only puzzle
            self.shuffles += 1
            order = list(range(len(self.tokens)))
            random.Random(f"{self.seed}-{self.shuffles}").shuffle(order)
        self.apply(f"Shuffled (shuffle {self.shuffles} of seed {self.seed}).", lambda: setattr(self, "perm", order))

    def action_reverse(self) -> None:
        self.apply("Reversed.", lambda: setattr(self, "perm", list(reversed(self.perm))))

    def action_original_order(self) -> None:
        self.apply("Back to the order as typed.", lambda: setattr(self, "perm", list(range(len(self.tokens)))))

    def action_swap(self) -> None:
        """Press w on one token's row, move the cursor, press w on another: they trade slots."""
        row = self.cursor_row
        if self.swap_from is None:
            self.swap_from = row
            self.last_change = f"Swap: {self._labels()[row]} picked; move to another row and press w again."
            self.refresh_view()
            return
        first, self.swap_from = self.swap_from, None
        if first == row:
            self.last_change = "Swap cancelled."
            self.refresh_view()
            return

        def swap() -> None:
            order = list(self.perm)
            a, b = order.index(first), order.index(row)
            order[a], order[b] = order[b], order[a]
            self.perm = order

        labels = self._labels()
        self.apply(f"Swapped {labels[first]} and {labels[row]}.", swap)

    def action_type_permutation(self) -> None:
        T = len(self.tokens)

        def check(text: str) -> str | None:
            try:
                order = [int(x) for x in text.replace(",", " ").split()]
            except ValueError:
                return "Use the numbers 0 to T−1, separated by spaces."
            return None if is_permutation(np.array(order), T) else f"Each of 0 … {T - 1} exactly once, please."

        def chosen(text: str | None) -> None:
            if text is not None:
                order = [int(x) for x in text.replace(",", " ").split()]
                self.apply(f"Reordered to {' '.join(map(str, order))}.", lambda: setattr(self, "perm", order))

        self.app.push_screen(PromptScreen(f"The new order: slot k shows token perm[k] (0 … {T - 1})", " ".join(map(str, self.perm)), check), chosen)

    def _set_signal(self, step: int) -> None:
        index = (SIGNALS.index(self.signal) + step) % len(SIGNALS)
        self.apply(f"Signal: {SIGNAL_NAMES[SIGNALS[index]]}.", lambda: setattr(self, "signal", SIGNALS[index]))

    def action_next_signal(self) -> None:
        self._set_signal(1)

    def action_previous_signal(self) -> None:
        self._set_signal(-1)

    def action_sharpen(self) -> None:
        self.apply("Sharper rows: nearer a copy.", lambda: setattr(self, "temperature", self.temperature / TEMPERATURE_STEP))

    def action_flatten(self) -> None:
        self.apply("Flatter rows: nearer a blend.", lambda: setattr(self, "temperature", self.temperature * TEMPERATURE_STEP))

    def action_seed(self, step: int) -> None:
        seed = max(0, self.seed + step)
        if seed == self.seed:
            self.last_change = "The seed is already 0, the first one."
            self.refresh_view()
            return
        self.apply(f"Seed {seed}: new word vectors and head.", lambda: setattr(self, "seed", seed))

    def action_predict(self) -> None:
        """Mark (or unmark) the cursor's row as one you expect the next change to move."""
        row = self.cursor_row
        self.predicted ^= {row}
        names = ", ".join(self._labels()[i] for i in sorted(self.predicted)) or "none"
        self.last_change = f"You predict these rows will change: {names}. Now make a change (e, s, g, …)."
        self.refresh_view()

    def action_toggle_pair(self) -> None:
        self.side_by_side = not self.side_by_side
        self.refresh_view()

    def action_edit_token(self) -> None:
        row = self.cursor_row
        old = self.tokens[row]

        def chosen(text: str | None) -> None:
            if text:
                def edit() -> None:
                    self.tokens = [*self.tokens[:row], text.strip(), *self.tokens[row + 1:]]
                    self.sentence = self._sentence_with(row, text.strip())

                self.apply(f"Edited {old} → {text.strip()}; ▶ marks the rows that moved by more than {CHANGED_ROW}.", edit)

        check = lambda text: None if text.strip() and not any(c.isspace() for c in text.strip()) else "One token, no spaces."
        self.app.push_screen(PromptScreen(f"Replace “{old}” with:", old, check), chosen)

    def _sentence_with(self, row: int, text: str) -> str:
        """The sentence with token `row` replaced, so switching words/characters keeps the edit."""
        if self.by == "word":
            words = self.sentence.split()
            return " ".join([*words[:row], text, *words[row + 1:]])
        at = [i for i, ch in enumerate(self.sentence) if not ch.isspace()][row]
        return self.sentence[:at] + text + self.sentence[at + 1:]

    def action_type_sentence(self) -> None:
        def check(text: str) -> str | None:
            count = len(tokenize(text, self.by))
            if count == 0:
                return "Type at least one token."
            return None if count <= MAX_TOKENS else f"{count} tokens; the playground takes up to {MAX_TOKENS}."

        def chosen(text: str | None) -> None:
            if text is not None:
                self.sentence = text
                self._retokenize()

        self.app.push_screen(PromptScreen(f"A sentence ({self.by} tokens, up to {MAX_TOKENS}):", self.sentence, check), chosen)

    def action_toggle_characters(self) -> None:
        by = "char" if self.by == "word" else "word"
        if len(tokenize(self.sentence, by)) > MAX_TOKENS:
            self.notify(f"As characters that is more than {MAX_TOKENS} tokens.", severity="warning")
            return
        self.by = by
        self._retokenize()

    def _retokenize(self) -> None:
        self.tokens = tokenize(self.sentence, self.by)
        self.perm = list(range(len(self.tokens)))
        self.predicted, self.marked, self.swap_from = set(), frozenset(), None
        self.recompute()
        self.last_change = f"{len(self.tokens)} {self.by} tokens."
        self.refresh_view()

    def action_all_signals(self) -> None:
        if not self.reordered:
            self.notify("Shuffle first (s): with one order there is nothing to compare.", timeout=4)
            return
        self.app.push_screen(SignalsTableScreen(self.tokens, self.perm, self.temperature, self.seed))

    def action_signal_pictures(self) -> None:
        self.app.open_signal_pictures()

    def action_back(self) -> None:
        self.app.pop_screen()
