"""The modal dialogs: a yes/no question, a line of input, the solution, the brief, the why question, every signal at once,
the glossary and the keys (help)."""

from __future__ import annotations

from typing import ClassVar

from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from attnpos.core.playground import SIGNAL_NAMES, SIGNALS, play
from attnpos.lessons.course.cells import Helper
from attnpos.lessons.course.glossary import Term
from attnpos.lessons.course.model import Exercise
from attnpos.lessons.course.playground_state import SIGNAL_LESSONS
from attnpos.tui.app.keys import bound_key
from attnpos.tui.app.leaks import Footer
from attnpos.tui.app.widgets.lesson_blocks import STYLESHEET, ProseBlock, QuizCard


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; y or enter says yes, n or esc says no."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="warning", compact=True)
                yield Button("No (n)", id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ChoiceScreen(ModalScreen["int | None"]):
    """One of a few choices: ↑↓ and enter (or its number) choose, esc cancels; dismissed with its index."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose(None)", "Cancel"),
        *(Binding(str(n), f"choose({n - 1})", f"Choice {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(self, question: str, choices: list[str]):
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="choice"):
            yield Static(self.question)
            yield OptionList(*(f"{n}. {choice}" for n, choice in enumerate(self.choices, start=1)))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_choose(self, index: int | None) -> None:
        if index is None or index < len(self.choices):
            self.dismiss(index)


SIDE_BY_SIDE_WIDTH = 100  # columns: narrower, the two codes are stacked so that each line reads whole


class SolutionScreen(ModalScreen[None]):
    """The reference solution beside the learner's own code (above it, below 100 columns)."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, exercise: Exercise, draft: str):
        super().__init__()
        self.exercise = exercise
        self.draft = draft

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Your code beside the reference solution · {bound_key(self, 'close')} closes", style="bold"), id="solution-title")
        with Horizontal(id="solution-pair"):
            for title, source in (("your code", self.draft), ("reference solution", self.exercise.solution)):
                with VerticalScroll(classes="solution-side") as side:
                    side.border_title = title
                    yield Static(Syntax(source, "python", theme="ansi_dark", line_numbers=True, word_wrap=True))
        yield Footer()

    def on_resize(self) -> None:
        # At 80 columns two panes side by side left 32 columns of code each: every comment wrapped over three lines.
        self.query_one("#solution-pair").set_class(self.size.width < SIDE_BY_SIDE_WIDTH, "-stacked")

    def action_close(self) -> None:
        self.dismiss(None)


class HelpersScreen(ModalScreen[None]):
    """The code of the attnpos.core names a lesson cell calls: no helper stays hidden."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,h", "close", "Back to the lesson")]

    def __init__(self, helpers: list[Helper]):
        super().__init__()
        self.helpers = helpers

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="brief") as box:
            box.border_title = "The helpers this cell calls, from attnpos.core"
            box.border_subtitle = f"↑↓ scroll · {bound_key(self, 'close')} back"
            for helper in self.helpers:
                yield Static(Text(f"{helper.name} · {helper.module}", style="bold"))
                yield Static(Syntax(helper.source, "python", theme="ansi_dark", word_wrap=True), classes="helper-code")

    def on_mount(self) -> None:
        self.query_one("#brief").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class BriefScreen(ModalScreen[None]):
    """The exercise's whole brief, with the hints seen so far, for when the panels show only a part."""

    CSS_PATH = [STYLESHEET, "dialogs.tcss"]  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f2", "close", "Back to the code")]

    def __init__(self, exercise: Exercise, hints_seen: tuple[str, ...] = ()):
        super().__init__()
        self.exercise = exercise
        self.hints_seen = hints_seen

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="brief") as box:
            box.border_title = f"Exercise · {self.exercise.title}"
            box.border_subtitle = f"↑↓ scroll · {bound_key(self, 'close')} back to the code"
            yield ProseBlock(self.exercise.instructions)
            total = len(self.exercise.hints)
            for number, hint in enumerate(self.hints_seen, start=1):
                yield ProseBlock(f"**Hint {number} of {total}:** {hint}")

    def on_mount(self) -> None:
        self.query_one("#brief").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class WhyScreen(ModalScreen[None]):
    """The question that completes an exercise once its code passes; a wrong choice is explained."""

    CSS_PATH = [STYLESHEET, "dialogs.tcss"]  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Back to the code")]

    def __init__(self, exercise: Exercise, previous: int | None, on_answer):
        super().__init__()
        self.exercise = exercise
        self.previous = previous
        self.on_answer = on_answer

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="why") as box:
            box.border_title = f"✓ passed · one last question completes “{self.exercise.title}”"
            box.border_subtitle = f"↑↓ choose · enter answer · {bound_key(self, 'close')} back"
            yield QuizCard(self.exercise.why, self.previous, autofocus=True)

    @on(QuizCard.Answered)
    def _answered(self, event: QuizCard.Answered) -> None:
        self.on_answer(event.choice, event.correct)
        if event.correct:
            box = self.query_one("#why")
            box.border_title = f"✓ “{self.exercise.title}” is complete"
            box.border_subtitle = f"{bound_key(self, 'close')} back to the code"

    def action_close(self) -> None:
        self.dismiss(None)


class PromptScreen(ModalScreen["str | None"]):
    """One line of input: enter accepts, esc cancels; a validator may refuse with a reason."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up

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


class SignalsTableScreen(ModalScreen[None]):
    """Every position signal on the current sentence and order, side by side, each row explained and linked to its lesson."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,a", "close", "Close")]

    def __init__(self, tokens: list[str], perm: list[int], temperature: float, seed: int, lesson_titles: dict[int, str] | None = None):
        super().__init__()
        self.tokens, self.perm, self.temperature, self.seed = tokens, perm, temperature, seed
        self.lesson_titles = lesson_titles or {}

    def compose(self) -> ComposeResult:
        order = " ".join(map(str, self.perm))
        with Vertical(id="signals-table") as box:
            box.border_title = f"all signals · order {order} · enter opens a lesson · {bound_key(self, 'close')} closes"
            yield Static(Text(self._columns("signal", "gap", "twins' rows", "Σ tells apart", "lesson"), style="bold"))
            yield OptionList(*[self._row(signal) for signal in SIGNALS], id="signal-lessons")
            yield Static("", id="signal-about")
            yield Static(
                "gap ≈ 0: attention only relisted its outputs (no order seen). The constant offset is the "
                "same at every slot, so it sees no more than none; every per-slot signal does. causal is a "
                "mask and no position vector: it is tied to the slots, so it sees order too. alibi is the "
                "published form, −m·(i − j) on earlier keys with that mask (head 0, m = 1/2). t5 is one "
                "head's bias by bucket of j − i, both directions, from a seeded table of 32 scalars.",
                classes="note",
            )

    @staticmethod
    def _columns(signal: str, gap: str, twins: str, pooled: str, lesson: str) -> str:
        return f"{signal:<11}{gap:>9}  {twins:<11}  {pooled:<13}  {lesson}"

    def _row(self, signal: str) -> Option:
        state = play(self.tokens, self.perm, signal, temperature=self.temperature, seed=self.seed)
        twins = "-" if not state.twins else ("identical" if state.twins[0][2] else "different")
        pooled = "yes" if state.pooled_tells_apart else "no"
        return Option(self._columns(signal, f"{state.gap:.3g}", twins, pooled, str(SIGNAL_LESSONS[signal])), id=signal)

    @on(OptionList.OptionHighlighted, "#signal-lessons")
    def _explain(self, event: OptionList.OptionHighlighted) -> None:
        """What the highlighted row's signal is, and where it is taught."""
        signal = str(event.option.id)
        lesson = SIGNAL_LESSONS[signal]
        title = self.lesson_titles.get(lesson, "")
        where = f"lesson {lesson}" + (f", {title}" if title else "")
        self.query_one("#signal-about", Static).update(Text.assemble((signal, "bold"), f": {SIGNAL_NAMES[signal]}. Taught in {where}."))

    @on(OptionList.OptionSelected, "#signal-lessons")
    def _open_lesson(self, event: OptionList.OptionSelected) -> None:
        lesson = SIGNAL_LESSONS[str(event.option.id)]
        self.dismiss(None)
        self.app.call_later(self.app.open_lesson, lesson)  # type: ignore[attr-defined]

    def action_close(self) -> None:
        self.dismiss(None)


class GlossaryScreen(ModalScreen[None]):
    """The glossary, opened from the command palette (ctrl+p, "Glossary"); esc closes it."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close the glossary")]

    def __init__(self, terms: tuple[Term, ...]):
        super().__init__()
        self.terms = terms

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2, 1, 0), expand=True)
        table.add_column("term", style="bold", width=24, overflow="fold")  # hyphenated terms are long words
        table.add_column("meaning", ratio=1)
        for term in self.terms:
            table.add_row(term.term, Text(term.meaning) + Text(f"  (lesson {term.lesson})", style="dim"))
        with VerticalScroll(id="glossary-body") as body:
            body.border_title = f"Glossary: {len(self.terms)} terms ({bound_key(self, 'close')} to close)"
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """Lists the bindings of the screen below it (and of the widget that had focus), then the app's."""

    CSS_PATH = "dialogs.tcss"  # loaded with the screen, not at start-up

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close help"),
    ]

    def __init__(self, groups: list[tuple[str, list[tuple[str, str]]]]):
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
        table.add_column("key", style="bold", max_width=24)  # a long "a / b / c" wraps at its slashes
        table.add_column("what it does", ratio=1)  # the keys take what they need, the text the rest
        for title, rows in self.groups:
            table.add_row(f"[reverse] {title} [/]", "")
            for key, description in rows:
                table.add_row(key, description)
            table.add_row("", "")
        with VerticalScroll(id="help-body") as body:
            body.border_title = f"Keys ({bound_key(self, 'close')} to close)"
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)
