"""Widgets for the blocks of a lesson page: code cells, formulas, figures, questions, exercises."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from rich.markdown import Markdown as RichMarkdown
from rich.syntax import Syntax
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Offset
from textual.message import Message
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from attnpos.lessons.cells import CellResult, run_cell
from attnpos.lessons.figures import changed_rows, figure
from attnpos.lessons.model import Code, Exercise, Grid, Math, PlaygroundLink, Quiz
from attnpos.tui.widgets.attention_grid import AttentionGrid, GridLegend
from attnpos.tui.widgets.grid_pair import GridPair, GridSpec


class ProseBlock(Static):
    """A paragraph (or list, or heading) of lesson Markdown, drawn by Rich as one widget.

    Textual's Markdown widget builds a widget per block and per inline run;
    a lesson page has dozens of paragraphs, and one Static each opens a page
    several times faster.
    """

    def __init__(self, markdown: str, **kwargs):
        super().__init__(parsed_markdown(markdown), classes="prose", **kwargs)


@lru_cache(maxsize=64)  # about a lesson's worth: enough to page back and forth
def parsed_markdown(markdown: str) -> RichMarkdown:
    """Parsed once and kept: Rich builds a new markdown-it parser for every Markdown object."""
    return RichMarkdown(markdown, code_theme="ansi_dark", inline_code_theme="ansi_dark")




@lru_cache(maxsize=64)
def highlighted(source: str, language: str) -> Text:
    """Code highlighted once and kept: finding the lexer and highlighting cost more than drawing a whole page."""
    text = Syntax(source, language, theme="ansi_dark").highlight(source)
    text.rstrip()
    return text


class MathBlock(Static):
    """A display formula, already Unicode."""

    def __init__(self, block: Math):
        super().__init__(Text(block.text, justify="center"), classes="math")


class ClickButton(Button, can_focus=False):
    """A button for the mouse: its key is on its label and its block is the tab stop, so tab skips it."""


class CodeCell(Vertical):
    """A code block; a runnable one has a Run button and shows its output below.

    A runnable cell is one tab stop (its button is not another), and enter or r runs it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "run", "Run this cell", show=False)]

    class Ran(Message):
        """Posted when the cell has run, with what it printed."""

        def __init__(self, cell: "CodeCell", result: CellResult):
            super().__init__()
            self.cell = cell
            self.result = result

    def __init__(self, block: Code):
        super().__init__(classes="code-cell")
        self.block = block
        self.can_focus = block.runnable

    def compose(self) -> ComposeResult:
        yield Static(highlighted(self.block.source, self.block.language), classes="source")
        if self.block.runnable:
            with Horizontal(classes="cell-bar"):
                yield ClickButton("▶ Run (r)", classes="run", compact=True)
                yield Static("runs against attnpos.core", classes="cell-hint")
            yield Static("", classes="output")

    def action_run(self) -> None:
        self.run()

    @on(Button.Pressed, ".run")
    def run(self) -> None:
        """Run the block in a worker thread; the page stays responsive."""
        if not self.block.runnable:
            return
        self.query_one(".output", Static).update(Text("running…", style="italic"))
        self.add_class("-has-output")
        self._run_in_thread()

    @work(thread=True, exclusive=True, group="cell")
    def _run_in_thread(self) -> None:
        result = run_cell(self.block.source)
        self.app.call_from_thread(self._show, result)

    def _show(self, result: CellResult) -> None:
        output = Text(result.output.rstrip("\n") or "(no output)")
        if result.error:
            output = Text(result.output.rstrip("\n") + ("\n" if result.output.strip() else ""))
            output.append(f"✗ {result.error}", style="bold red")
        self.query_one(".output", Static).update(output)
        self.set_class(bool(result.error), "-error")
        self.query_one(".output", Static).scroll_visible(animate=False)
        self.post_message(self.Ran(self, result))


def _labels(name: str) -> list[str]:
    fig = figure(name)
    return fig.labels() if fig.labels else [str(i) for i in range(fig.value.shape[0])]


def _tokens(name: str) -> list[int] | None:
    fig = figure(name)
    return fig.tokens() if fig.tokens else None


class GridFigure(Vertical):
    """An attention-grid figure from the lesson, alone or beside its comparison."""

    def __init__(self, block: Grid):
        super().__init__(classes="grid-figure")
        self.block = block

    def compose(self) -> ComposeResult:
        block = self.block
        first = figure(block.figure)
        titles = block.titles or ("", "")
        if block.compare is None:
            yield AttentionGrid(first.value, _labels(block.figure), title=titles[0])
            yield GridLegend(1.0)
        else:
            second = figure(block.compare)
            changed = changed_rows(first.value, second.value) if block.mark_changed else frozenset()
            yield GridPair(
                GridSpec(first.value, _labels(block.figure), tokens=_tokens(block.figure)),
                GridSpec(second.value, _labels(block.compare), changed, tokens=_tokens(block.compare)),
                captions=(titles[0], titles[1]),
            )
        if block.caption:
            yield Static(block.caption, classes="caption")


class QuizCard(Vertical):
    """A multiple-choice question; a choice gets its explanation, right or wrong.

    Choices are an OptionList so that long answers wrap instead of being cut
    off, and the chosen one is marked with ● (not by colour alone).
    """

    class Answered(Message):
        def __init__(self, quiz: Quiz, choice: int):
            super().__init__()
            self.quiz = quiz
            self.choice = choice

        @property
        def correct(self) -> bool:
            return self.choice == self.quiz.answer

    def __init__(self, quiz: Quiz, previous: int | None = None, autofocus: bool = False):
        super().__init__(classes="quiz")
        self.quiz = quiz
        self.chosen = previous
        self.autofocus = autofocus

    def compose(self) -> ComposeResult:
        yield Static(Text("? ", style="bold") + Text(self.quiz.question), classes="question")
        yield OptionList(*self._options())
        how = "↑↓ and enter answer" if self.autofocus else "tab reaches the choices, then ↑↓ and enter answer"
        yield Static(Text(how, style="dim") if self.chosen is None else "", classes="feedback")

    def _options(self) -> list[Option]:
        return [
            Option(Text(f"{'●' if index == self.chosen else '○'} {chr(97 + index)}) {choice}"))
            for index, choice in enumerate(self.quiz.choices)
        ]

    def on_mount(self) -> None:
        if self.chosen is not None:
            self._explain(self.chosen)
        if self.autofocus:  # here, not in the parent's on_mount: only now do the choices exist
            self.choices.focus()

    @property
    def choices(self) -> OptionList:
        return self.query_one(OptionList)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self.call_after_refresh(self._place_terminal_cursor)  # once the list has scrolled to it

    @on(events.DescendantFocus)
    def _focused(self) -> None:
        self.call_after_refresh(self._place_terminal_cursor)

    def _place_terminal_cursor(self) -> None:
        """The terminal's cursor on the highlighted choice, so a screen reader follows the question.

        Where a choice starts is OptionList's private `_index_to_line` (choices wrap, so it cannot
        be counted from outside); tests/test_learner_walkthrough.py fails if Textual renames it.
        """
        options = self.choices
        if not options.has_focus or options.highlighted is None:
            return
        line = options._index_to_line.get(options.highlighted)
        if line is not None:
            region = options.content_region
            self.app.cursor_position = Offset(region.x, region.y + line - int(options.scroll_offset.y))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index)

    def choose(self, index: int) -> None:
        """Answer with choice ``index`` (0-based), as enter on that option does."""
        self.chosen = index
        options = self.choices
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = highlighted if highlighted is not None else index
        self._explain(index)
        self.post_message(self.Answered(self.quiz, index))

    def _explain(self, choice: int) -> None:
        right = choice == self.quiz.answer
        mark = Text("✓ ", style="bold green") if right else Text("✗ ", style="bold red")
        self.query_one(".feedback", Static).update(mark + Text(self.quiz.explanations[choice]))
        self.set_class(right, "-right")
        self.set_class(not right, "-wrong")


class ExerciseCard(Vertical, can_focus=True):
    """Where an exercise sits in a lesson: its task, and the way into it (enter, or e while focused)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "open", "Open this exercise", show=False)]

    class Opened(Message):
        """Posted when the learner asks to open the exercise."""

        def __init__(self, exercise: Exercise) -> None:
            self.exercise = exercise
            super().__init__()

    def __init__(self, exercise: Exercise, status: str):
        super().__init__(classes="exercise-card")
        self.exercise = exercise
        self.status = status

    def compose(self) -> ComposeResult:
        yield Static(self._title(), classes="card-title")
        yield ProseBlock(self.exercise.instructions)
        yield ClickButton("✎ Open exercise (e)", classes="open-exercise", compact=True)
        yield Static(Text(f"or in your own editor: attnpos exercise {self.exercise.id}", style="dim"))

    def _title(self) -> Text:
        return Text(f"Exercise · {self.exercise.title}", style="bold") + Text(f"  ({self.status})", style="dim")

    def set_status(self, status: str) -> None:
        """Show where the exercise stands now (after the learner comes back from it)."""
        if status != self.status:
            self.status = status
            self.query_one(".card-title", Static).update(self._title())

    @on(Button.Pressed, ".open-exercise")
    def action_open(self) -> None:
        self.post_message(self.Opened(self.exercise))


class PlaygroundCard(Vertical, can_focus=True):
    """A lesson's {playground} link: opens the playground in the state it names (enter, or a click)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "open", "Open the playground", show=False)]

    class Opened(Message):
        """Posted when the learner asks to open the playground on this link's state."""

        def __init__(self, link: PlaygroundLink) -> None:
            self.link = link
            super().__init__()

    def __init__(self, link: PlaygroundLink):
        super().__init__(classes="playground-card")
        self.link = link

    def compose(self) -> ComposeResult:
        yield ClickButton(f"▶ Playground: {self.link.description}", classes="open-playground", compact=True)
        if self.link.caption:
            yield Static(Text(self.link.caption, style="dim"))

    @on(Button.Pressed, ".open-playground")
    def action_open(self) -> None:
        self.post_message(self.Opened(self.link))
