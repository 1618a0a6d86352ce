"""Widgets for the blocks of a lesson page: code cells, formulas, figures, questions, exercises."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

import numpy as np
from rich.markdown import Markdown as RichMarkdown
from rich.syntax import Syntax
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.geometry import Offset
from textual.message import Message
from textual.widgets import Button, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from attnpos.lessons.course.cells import CellResult, Helper, cell_helpers, run_cell
from attnpos.lessons.course.figures import changed_rows, figure
from attnpos.lessons.course.model import Code, Exercise, Grid, Heatmap, Math, PlaygroundLink, Quiz
from attnpos.tui.app.keys import bound_key
from attnpos.tui.app.widgets.attention_grid import AttentionGrid, GridLegend
from attnpos.tui.app.widgets.grid_pair import GridPair, GridSpec
from attnpos.tui.app.widgets.heat_map import HeatMap

# The blocks' styles: first in the CSS_PATH of every screen that shows blocks, so Textual reads them with the first
# such screen instead of parsing them (and parsing them again at every later stylesheet change) before the first frame.
STYLESHEET = Path(__file__).with_name("lesson_blocks.tcss")


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


CellRunner = Callable[[str], CellResult]
"""Runs a learner's version of a cell (in the sandbox: it is learner code now) and returns what it printed."""


class CodeCell(Vertical):
    """A code block; a runnable one has a Run button and shows its output below.

    A runnable cell is one tab stop (its button is not another), and enter or r runs it. `i` edits it
    in place, as in a notebook: ctrl+r runs the edited code in the sandbox, ctrl+o goes back to the
    lesson's code (ctrl+z undoes that), esc stops editing. The edit is kept (`Edited`) and runs on r too.

    What it prints is never wrapped, so a table keeps its rows whole: output wider than the page
    scrolls sideways (← and → while the cell has focus). An error wraps, below it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "run", "Run this cell", show=False),
        Binding("i", "edit", "Edit this cell", show=False),
        Binding("h", "helpers", "The helpers it calls", show=False),
        # While editing; the cell's bar says them, and the footer keeps its room for the page's keys.
        Binding("ctrl+r", "run_editing", "Run this cell", show=False),
        Binding("ctrl+o", "original", "The lesson's code", show=False),
        # Priority: the editor would take escape itself (to move focus on); when not editing, check_action passes it on.
        Binding("escape", "stop_editing", "Stop editing", show=False, priority=True),
        Binding("left", "scroll_output(-1)", "Output left", show=False),
        Binding("right", "scroll_output(1)", "Output right", show=False),
    ]

    class Ran(Message):
        """Posted when the cell has run, with what it printed."""

        def __init__(self, cell: "CodeCell", result: CellResult):
            super().__init__()
            self.cell = cell
            self.result = result

    class HelpersAsked(Message):
        """The learner asked to see the code of the attnpos.core names the cell calls."""

        def __init__(self, cell: "CodeCell", helpers: list[Helper]):
            super().__init__()
            self.cell = cell
            self.helpers = helpers

    class Edited(Message):
        """The learner's version of the cell changed: ``source``, or None when it is the lesson's code again."""

        def __init__(self, cell: "CodeCell", source: str | None):
            super().__init__()
            self.cell = cell
            self.source = source

    def __init__(self, block: Code, edited: str | None = None, run_edited: CellRunner | None = None):
        """``edited``: the learner's earlier version; ``run_edited`` runs such a version (editing needs it)."""
        super().__init__(classes="code-cell")
        self.block = block
        self.can_focus = block.runnable
        self.source = edited if edited is not None else block.source
        self.run_edited = run_edited
        self.set_class(self.is_edited, "-edited")

    @property
    def is_edited(self) -> bool:
        return self.source != self.block.source

    @property
    def editing(self) -> bool:
        return bool(self.query(".cell-editor"))

    def compose(self) -> ComposeResult:
        yield Static(highlighted(self.source, self.block.language), classes="source")
        if self.block.runnable:
            with Horizontal(classes="cell-bar"):
                yield ClickButton("▶ Run (r)", classes="run", compact=True)
                yield Static(self._hint(), classes="cell-hint")
            with Container(classes="output-scroll"):
                yield Static("", classes="output")
            yield Static("", classes="cell-error")

    def _hint(self) -> str:
        if self.editing:
            keys = (bound_key(self, "run_editing"), bound_key(self, "original"), bound_key(self, "stop_editing"))
            return "{} runs · {}: the lesson's code · {} stops".format(*keys)
        helpers = " · h its helpers" if cell_helpers(self.block.source) else ""
        if self._output_is_wide:
            helpers += f" · {bound_key(self, 'scroll_output(-1)')} {bound_key(self, 'scroll_output(1)')} scroll the output"
        if self.is_edited:
            return "your version: runs in the sandbox · i edits" + helpers
        return "runs against attnpos.core" + (" · i edits" if self.run_edited is not None else "") + helpers

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("original", "stop_editing"):
            return self.editing
        if action == "helpers":
            return not self.editing and bool(cell_helpers(self.block.source))
        if action == "edit":
            return self.block.runnable and self.run_edited is not None and not self.editing
        if action == "scroll_output":
            return not self.editing and self._output_is_wide
        return True

    @property
    def _output_is_wide(self) -> bool:
        """Whether the output is wider than the cell, so that ← and → scroll it."""
        scroll = self.query(".output-scroll")  # none while the cell is composed, or in a cell that does not run
        return bool(scroll) and scroll.first().max_scroll_x > 0

    def action_scroll_output(self, direction: int) -> None:
        """A few columns of the output sideways (a table's rows are never wrapped)."""
        self.query_one(".output-scroll").scroll_relative(x=direction * 8, animate=False, immediate=True)  # keys held down: each from where the last left it

    def action_run(self) -> None:
        self.run()

    def action_run_editing(self) -> None:
        """ctrl+r, as in the exercise editor: r and enter type there."""
        self.run()

    def action_helpers(self) -> None:
        self.post_message(self.HelpersAsked(self, cell_helpers(self.block.source)))

    def action_edit(self) -> None:
        """Edit in place: the code becomes an editor holding the cell's code (the learner's version if any)."""
        from attnpos.tui.app.widgets.code_editor import CodeEditor

        editor = CodeEditor.code_editor(self.source, language=self.block.language, theme="monokai", soft_wrap=True, classes="cell-editor")
        self.query_one(".source", Static).display = False
        self.mount(editor, after=self.query_one(".source"))
        editor.focus()
        self._refresh_hint()

    async def action_stop_editing(self) -> None:
        self._keep(self.query_one(".cell-editor", TextArea).text)
        source = self.query_one(".source", Static)
        source.update(highlighted(self.source, self.block.language))
        source.display = True
        await self.query_one(".cell-editor").remove()  # before focusing: removing the focused editor moves focus on
        self.focus()
        self._refresh_hint()

    def action_original(self) -> None:
        """Back to the lesson's code, undoably (ctrl+z in the editor brings the edit back)."""
        editor = self.query_one(".cell-editor", TextArea)
        editor.replace(self.block.source, editor.document.start, editor.document.end)
        self._keep(self.block.source)

    @on(TextArea.Changed, ".cell-editor")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._keep(event.text_area.text)

    def _keep(self, source: str) -> None:
        was = self.source
        self.source = source
        self.set_class(self.is_edited, "-edited")
        if source != was:
            self.post_message(self.Edited(self, source if self.is_edited else None))

    def _refresh_hint(self) -> None:
        if self.block.runnable:
            self.query_one(".cell-hint", Static).update(self._hint())

    @on(Button.Pressed, ".run")
    def run(self) -> None:
        """Run the block in a worker thread; the page stays responsive."""
        if not self.block.runnable:
            return
        if self.editing:
            self._keep(self.query_one(".cell-editor", TextArea).text)
        self.query_one(".output", Static).update(Text("running…", style="italic"))
        self.query_one(".cell-error", Static).update("")
        self.add_class("-has-output")
        self.remove_class("-error", "-error-only")
        self._run_in_thread(self.source)

    @work(thread=True, exclusive=True, group="cell")
    def _run_in_thread(self, source: str) -> None:
        # The lesson's own code is course content and runs here; the learner's version is learner code.
        if source != self.block.source and self.run_edited is not None:
            result = self.run_edited(source)
        else:
            result = run_cell(self.block.source, on_output=lambda text: self.app.call_from_thread(self._show_progress, text))
        self.app.call_from_thread(self._show, result)

    def _show_progress(self, printed: str) -> None:
        """What the cell has printed so far, while it still runs."""
        if not self.is_attached:  # the learner paged on while it ran
            return
        output = Text(printed, no_wrap=True)
        output.append("running…", style="italic")
        shown = self.query_one(".output", Static)
        shown.update(output)
        shown.scroll_visible(animate=False)

    def _show(self, result: CellResult) -> None:
        if not self.is_attached:  # the learner paged on while it ran
            return
        printed = result.output.rstrip("\n")
        self.query_one(".output", Static).update(Text(printed or "(no output)", no_wrap=True))
        self.query_one(".cell-error", Static).update(Text(f"✗ {result.error}", style="bold red") if result.error else "")
        self.set_class(bool(result.error), "-error")
        self.set_class(bool(result.error) and not printed, "-error-only")
        (self.query_one(".cell-error") if result.error else self.query_one(".output-scroll")).scroll_visible(animate=False)
        self.call_after_refresh(self._refresh_hint)  # ← → are named once the output is laid out and found wide
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


class HeatmapFigure(Vertical):
    """A heat map figure from the lesson (any real matrix), alone or beside a second on one colour scale."""

    def __init__(self, block: Heatmap):
        super().__init__(classes="heatmap-figure")
        self.block = block

    def compose(self) -> ComposeResult:
        block = self.block
        names = [n for n in (block.figure, block.compare) if n]
        titles = block.titles or ("",) * len(names)
        values = [figure(n).value for n in names]
        low = None if block.own_scales else min(float(np.nanmin(v)) for v in values)
        high = None if block.own_scales else max(float(np.nanmax(v)) for v in values)
        with Horizontal(classes="heatmap-row"):
            for name, value, title in zip(names, values, titles, strict=True):
                yield HeatMap(value, _labels(name), figure(name).column_labels(), low=low, high=high, title=title)
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
        # Held, not queried: a call made after a refresh can arrive once the page is being removed,
        # when the card has lost its children (keys held down page faster than pages are drawn).
        self.choices = OptionList(*self._options())

    def compose(self) -> ComposeResult:
        yield Static(Text("? ", style="bold") + Text(self.quiz.question), classes="question")
        yield self.choices
        how = "↑↓ and enter answer" if self.autofocus else "tab reaches the choices, then ↑↓ and enter answer"
        yield Static(Text(how, style="dim") if self.chosen is None else "", classes="feedback")

    def _options(self, highlighted: int | None = None) -> list[Option]:
        return [Option(self._prompt(index, highlighted)) for index in range(len(self.quiz.choices))]

    def _prompt(self, index: int, highlighted: int | None) -> Text:
        """A choice's line: ▸ where the cursor is and ● when chosen, so neither needs colour to be seen."""
        cursor = "▸" if index == highlighted else " "
        return Text(f"{cursor}{'●' if index == self.chosen else '○'} {chr(97 + index)}) {self.quiz.choices[index]}")

    def on_mount(self) -> None:
        if self.chosen is not None:
            self._explain(self.chosen)
        if self.autofocus:  # here, not in the parent's on_mount: only now do the choices exist
            self.choices.focus()

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._mark_cursor()
        self.call_after_refresh(self._place_terminal_cursor)  # once the list has scrolled to it

    def _mark_cursor(self) -> None:
        options = self.choices
        if not options.is_attached:
            return
        for index in range(options.option_count):
            options.replace_option_prompt_at_index(index, self._prompt(index, options.highlighted))

    @on(events.DescendantFocus)
    def _focused(self) -> None:
        self.call_after_refresh(self._place_terminal_cursor)

    def _place_terminal_cursor(self) -> None:
        """The terminal's cursor on the highlighted choice, so a screen reader follows the question.

        Where a choice starts is OptionList's private `_index_to_line` (choices wrap, so it cannot
        be counted from outside); tests/e2e/test_learner_walkthrough.py fails if Textual renames it.
        """
        options = self.choices
        if not options.is_attached or not options.has_focus or options.highlighted is None:
            return  # the page went (or the focus moved) before this refresh
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
        cursor = highlighted if highlighted is not None else index
        options.clear_options()
        options.add_options(self._options(cursor))
        options.highlighted = cursor
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
