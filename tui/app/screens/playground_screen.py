"""The playground: type a sentence, reorder it, switch position signals, and watch the figures move."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import var
from textual.widgets import Header, Static

from attnpos.core.playground import PLAYGROUND_MAX_TOKENS
from attnpos.lessons.course.playground_state import DEFAULT_SENTENCE, TEMPERATURE_STEP, PlaygroundState
from attnpos.tui.app.leaks import Footer
from attnpos.tui.app.screens.course_screen import CourseScreen
from attnpos.tui.app.screens.dialogs import PromptScreen, SignalsTableScreen
from attnpos.tui.app.widgets.attention_grid import AttentionGrid, GridLegend
from attnpos.tui.app.widgets.output_strips import OutputStrips


def figures_text(state: PlaygroundState) -> Text:
    """The live figures, one line each with what it means, then what the last change did."""
    lines = Text()
    for name, meaning in state.figure_lines():
        lines.append(f"{name} ", style="bold")
        lines.append(f"{meaning}\n")
    lines.append(state.last_change, style="italic")
    return lines


class PlaygroundScreen(CourseScreen):
    """Cause the blind spot yourself: every key changes the sentence, its order or its position signal."""

    CSS_PATH = "playground_screen.tcss"  # loaded with the screen, not at start-up

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
        Binding("plus,equals_sign", "sharpen", f"Sharpen (temperature ÷{TEMPERATURE_STEP:g})", show=False),
        Binding("minus", "flatten", f"Flatten (temperature ×{TEMPERATURE_STEP:g})", show=False),
        Binding("right_square_bracket", "seed(1)", "Next seed", show=False),
        Binding("left_square_bracket", "seed(-1)", "Previous seed", show=False),
        Binding("c", "toggle_characters", "Words / characters", show=False),
        Binding("S", "signal_pictures", "Signal pictures", show=False),
        Binding("a", "all_signals", "All signals", show=False),
        Binding("escape", "back", "Back"),
    ]

    revision: var[int] = var(0, init=False)
    """The state's revision drawn: a control raises it (``PlaygroundState.on_change``), and the view follows."""

    def __init__(self, sentence: str = DEFAULT_SENTENCE, perm: list[int] | None = None, signal: str = "none"):
        super().__init__()
        self.state = PlaygroundState(sentence, perm, signal, key=self.key, on_change=self._state_changed)

    def _state_changed(self) -> None:
        self.revision = self.state.revision

    def watch_revision(self) -> None:
        self.refresh_view()

    def compose(self) -> ComposeResult:
        state = self.state
        yield Header()
        yield Static(id="play-bar")
        with Horizontal(id="play-main"):
            yield AttentionGrid(state.computed.weights, state.labels(), title="as typed", id="play-first")
            yield AttentionGrid(state.computed.shuffled_weights, state.labels(state.perm), title="now", id="play-moved")
            yield OutputStrips(id="play-outputs")
        yield GridLegend(1.0)
        yield Static(id="play-figures")
        yield Footer(show_command_palette=False)  # room for help and quit at 80 columns

    def on_mount(self) -> None:
        self.sub_title = "Playground"
        self.refresh_view()
        self.query_one("#play-moved", AttentionGrid).focus()

    def refresh_view(self) -> None:
        """Draw the state: the grid in the current order (and, side by side, as typed), outputs, figures."""
        state = self.state
        computed = state.computed
        first = self.query_one("#play-first", AttentionGrid)
        moved = self.query_one("#play-moved", AttentionGrid)
        first.set_weights(computed.weights, state.labels(), marked_rows=state.marked, predicted_rows=state.predicted)
        moved.set_weights(
            computed.shuffled_weights,
            state.labels(state.perm),
            marked_rows=state.slots(state.marked),
            predicted_rows=state.slots(state.predicted),
        )
        first.display = state.side_by_side
        outputs = self.query_one("#play-outputs", OutputStrips)
        outputs.show(computed.shuffled_outputs, state.labels(state.perm))
        outputs.display = not state.side_by_side or self.app.size.width >= 110
        order = " ".join(map(str, state.perm)) if state.reordered else "as typed"
        self.query_one("#play-bar", Static).update(
            Text.assemble(
                (state.signal, "bold"),
                " · ",
                f"T={len(state.tokens)}",
                " · order ",
                (order, "bold"),
                " · temperature ",
                f"{state.temperature:.3g}",
                " · seed ",
                str(state.seed),
            )
        )
        self.query_one("#play-figures", Static).update(figures_text(state))
        if state.side_by_side:  # in step from the start, and after every reorder
            first.move_cursor(state.perm[moved.cursor_row], state.perm[moved.cursor_col])

    def on_attention_grid_cursor_moved(self, event: AttentionGrid.CursorMoved) -> None:
        """Side by side, the other grid's cursor follows the same pair of tokens (a token's slot now is perm.index)."""
        if not self.state.side_by_side:
            return
        perm = self.state.perm
        first = self.query_one("#play-first", AttentionGrid)
        moved = self.query_one("#play-moved", AttentionGrid)
        if event.grid is first:
            moved.move_cursor(perm.index(event.row), perm.index(event.col))
        else:
            first.move_cursor(perm[event.row], perm[event.col])

    @property
    def cursor_row(self) -> int:
        """The token (its index as typed) under the cursor of the current-order grid."""
        return self.state.perm[self.query_one("#play-moved", AttentionGrid).cursor_row]

    # --- actions: each changes the state; the view follows (watch_revision) -----------------------

    def action_shuffle(self) -> None:
        self.state.shuffle()

    def action_reverse(self) -> None:
        self.state.reverse()

    def action_original_order(self) -> None:
        self.state.original_order()

    def action_swap(self) -> None:
        """Press w on one token's row, move the cursor, press w on another: they trade slots."""
        self.state.swap(self.cursor_row)

    def action_type_permutation(self) -> None:
        state = self.state

        def chosen(text: str | None) -> None:
            if text is not None:
                state.reorder(text)

        question = f"The new order: slot k shows token perm[k] (0 … {len(state.tokens) - 1})"
        self.app.push_screen(PromptScreen(question, " ".join(map(str, state.perm)), state.order_problem), chosen)

    def action_next_signal(self) -> None:
        self.state.step_signal(1)

    def action_previous_signal(self) -> None:
        self.state.step_signal(-1)

    def action_sharpen(self) -> None:
        self.state.sharpen()

    def action_flatten(self) -> None:
        self.state.flatten()

    def action_seed(self, step: int) -> None:
        self.state.step_seed(step)

    def action_predict(self) -> None:
        """Mark (or unmark) the cursor's row as one you expect the next change to move."""
        self.state.predict(self.cursor_row)

    def action_toggle_pair(self) -> None:
        self.state.toggle_pair()

    def action_edit_token(self) -> None:
        row = self.cursor_row
        old = self.state.tokens[row]

        def chosen(text: str | None) -> None:
            if text:
                self.state.edit_token(row, text)

        self.app.push_screen(PromptScreen(f"Replace “{old}” with:", old, self.state.token_problem), chosen)

    def action_type_sentence(self) -> None:
        state = self.state

        def chosen(text: str | None) -> None:
            if text is not None:
                state.set_sentence(text)

        question = f"A sentence ({state.by} tokens, up to {PLAYGROUND_MAX_TOKENS}):"
        self.app.push_screen(PromptScreen(question, state.sentence, state.sentence_problem), chosen)

    def action_toggle_characters(self) -> None:
        problem = self.state.toggle_characters()
        if problem is not None:
            self.notify(problem, severity="warning")

    def action_all_signals(self) -> None:
        state = self.state
        if not state.reordered:
            self.notify(f"Shuffle first ({self.key('shuffle')}): with one order there is nothing to compare.", timeout=4)
            return
        course = self.app._course_or_notice()
        titles = {lesson.number: lesson.title for lesson in course.lessons} if course is not None else {}
        self.app.push_screen(SignalsTableScreen(state.tokens, state.perm, state.temperature, state.seed, titles))

    def action_signal_pictures(self) -> None:
        self.app.open_signal_pictures()

    def action_back(self) -> None:
        self.app.pop_screen()
