"""Widgets for the blocks of a lesson page: code cells, formulas, figures, questions, exercises."""

from __future__ import annotations

import numpy as np
from rich.syntax import Syntax
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Label, Markdown, RadioButton, RadioSet, Static

from attnpos.lessons.cells import CellResult, run_cell
from attnpos.lessons.figures import figure
from attnpos.lessons.model import Code, Exercise, Grid, Math, Quiz
from attnpos.tui.grid import AttentionGrid, GridLegend, GridPair, GridSpec

CHANGED_ROW = 0.05  # a row whose largest weight moved by more than this counts as changed


class MathBlock(Static):
    """A display formula, already Unicode."""

    def __init__(self, block: Math):
        super().__init__(Text(block.text, justify="center"), classes="math")


class CodeCell(Vertical):
    """A code block; a runnable one has a Run button and shows its output below."""

    class Ran(Message):
        """Posted when the cell has run, with what it printed."""

        def __init__(self, cell: "CodeCell", result: CellResult):
            super().__init__()
            self.cell = cell
            self.result = result

    def __init__(self, block: Code):
        super().__init__(classes="code-cell")
        self.block = block

    def compose(self) -> ComposeResult:
        yield Static(Syntax(self.block.source, self.block.language, theme="ansi_dark", word_wrap=True), classes="source")
        if self.block.runnable:
            with Horizontal(classes="cell-bar"):
                yield Button("▶ Run", classes="run", compact=True)
                yield Label("runs against attnpos.core", classes="cell-hint")
            yield Static("", classes="output")

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
        self.post_message(self.Ran(self, result))


def _labels(name: str) -> list[str]:
    fig = figure(name)
    return fig.labels() if fig.labels else [str(i) for i in range(fig.value.shape[0])]


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
            moved = np.max(np.abs(second.value - first.value), axis=1)
            changed = frozenset(int(i) for i in np.flatnonzero(moved > CHANGED_ROW)) if block.mark_changed else frozenset()
            yield GridPair(
                GridSpec(first.value, _labels(block.figure)),
                GridSpec(second.value, _labels(block.compare), changed),
                captions=(titles[0], titles[1]),
            )
        if block.caption:
            yield Static(block.caption, classes="caption")


class QuizCard(Vertical):
    """A multiple-choice question; a choice gets its explanation, right or wrong."""

    class Answered(Message):
        def __init__(self, quiz: Quiz, choice: int):
            super().__init__()
            self.quiz = quiz
            self.choice = choice

        @property
        def correct(self) -> bool:
            return self.choice == self.quiz.answer

    def __init__(self, quiz: Quiz, previous: int | None = None):
        super().__init__(classes="quiz")
        self.quiz = quiz
        self.previous = previous

    def compose(self) -> ComposeResult:
        yield Static(Text("? ", style="bold") + Text(self.quiz.question), classes="question")
        with RadioSet():
            for index, choice in enumerate(self.quiz.choices):
                yield RadioButton(f"{chr(97 + index)}) {choice}", value=index == self.previous)
        yield Static("", classes="feedback")

    def on_mount(self) -> None:
        if self.previous is not None:
            self._explain(self.previous)

    @on(RadioSet.Changed)
    def _chosen(self, event: RadioSet.Changed) -> None:
        event.stop()
        self._explain(event.index)
        self.post_message(self.Answered(self.quiz, event.index))

    def _explain(self, choice: int) -> None:
        right = choice == self.quiz.answer
        mark = Text("✓ right. " if right else "✗ not quite. ", style="bold green" if right else "bold red")
        self.query_one(".feedback", Static).update(mark + Text(self.quiz.explanations[choice]))
        self.set_class(right, "-right")
        self.set_class(not right, "-wrong")


class ExerciseCard(Vertical):
    """Where an exercise sits in a lesson: its task, and the way into it."""

    def __init__(self, exercise: Exercise, status: str):
        super().__init__(classes="exercise-card")
        self.exercise = exercise
        self.status = status

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Exercise · {self.exercise.title}", style="bold") + Text(f"  ({self.status})", style="dim"))
        yield Markdown(self.exercise.instructions)
        with Horizontal(classes="cell-bar"):
            yield Button("✎ Open exercise", classes="open-exercise", compact=True)
            yield Label(f"e on this page · or in your own editor: attnpos exercise {self.exercise.id}", classes="cell-hint")

    @on(Button.Pressed, ".open-exercise")
    def open(self) -> None:
        self.app.open_exercise(self.exercise.id)
