"""Lessons as Rich renderables: `attnpos lessons show N` prints these, piping included."""

from __future__ import annotations

from typing import Iterable

import numpy as np
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from attnpos.lessons.course.cells import Helper, cell_helpers, run_cell
from attnpos.lessons.course.figures import changed_rows, figure
from attnpos.lessons.course.model import Block, Code, Course, ExerciseRef, Grid, Heatmap, Lesson, Math, PlaygroundLink, Prose, Quiz, render_block
from attnpos.tui.render.colours import SHADES, format_weight, ramp_step, ramp_style, shade


def matrix_table(weights: np.ndarray, labels: list[str], title: str = "", marked: frozenset[int] = frozenset()) -> Table:
    """A weight matrix as a table: each cell a shade glyph and its value on a viridis background.

    The glyph and the number carry the value on their own, so the table reads
    the same with NO_COLOR or in a pipe.
    """
    table = Table(title=title, box=None, padding=(0, 0), show_edge=False, title_style="bold")
    table.add_column("", justify="right", style="bold", no_wrap=True)
    for label in labels:
        table.add_column(label[:5], justify="center", no_wrap=True, min_width=5)
    top = float(weights.max()) or 1.0
    for label, row in zip(labels, weights, strict=True):
        cells = []
        for w in row:
            level = w / top
            cells.append(Text(f" {shade(level)}{format_weight(w)}", style=ramp_style(ramp_step(level))))
        table.add_row(("▶ " if len(table.rows) in marked else "") + label + " ", *cells)
    return table


def grid_renderable(block: Grid) -> RenderableType:
    """One grid, or two side by side as in the app (one above the other when the console is narrow)."""
    names = [n for n in (block.figure, block.compare) if n]
    titles = list(block.titles) or [""] * len(names)
    matrices = [figure(n).value for n in names]
    changed = changed_rows(*matrices) if block.mark_changed and len(matrices) == 2 else frozenset()
    tables = [
        matrix_table(value, _labels(name), title, changed if index == 1 else frozenset())
        for index, (name, value, title) in enumerate(zip(names, matrices, titles, strict=True))
    ]
    legend = Text("legend: " + "  ".join(f"{g}≈{i / (len(SHADES) - 1):.2f}" for i, g in enumerate(SHADES)), style="dim")
    parts: list[RenderableType] = [Columns(tables, padding=(0, 3)) if len(tables) == 2 else tables[0], legend]
    if block.caption:
        parts.append(Text(block.caption, style="italic"))
    return Padding(Group(*parts), (1, 0, 1, 2))


def heatmap_renderable(block: Heatmap) -> RenderableType:
    """A heat map as a table of signed values, each with its shade on one scale for both maps."""
    names = [n for n in (block.figure, block.compare) if n]
    titles = list(block.titles) or [""] * len(names)
    matrices = [np.asarray(figure(n).value, dtype=np.float64) for n in names]
    tables: list[RenderableType] = []
    for name, values, title in zip(names, matrices, titles, strict=True):
        scaled = [values] if block.own_scales else matrices
        low = min(float(m.min()) for m in scaled)
        span = (max(float(m.max()) for m in scaled) - low) or 1.0
        columns = figure(name).column_labels()
        # Text, not markup: a title such as "grad[ids] += 1" would lose its brackets
        table = Table(title=Text(title, style="bold"), box=None, padding=(0, 0), show_edge=False)
        table.add_column("", justify="right", style="bold", no_wrap=True)
        for label in columns:
            table.add_column(label, justify="right", no_wrap=True, min_width=7)
        for label, row in zip(_labels(name), values, strict=True):
            cells = []
            for v in row:
                level = (v - low) / span
                cells.append(Text(f" {shade(level)}{v:+.2f}", style=ramp_style(ramp_step(level))))
            table.add_row(label + " ", *cells)
        tables.append(table)
        tables.append(Text(f"legend: {SHADES[0]} {low:+.2f} … {SHADES[-1]} {low + span:+.2f}", style="dim"))
    parts: list[RenderableType] = list(tables)
    if block.caption:
        parts.append(Text(block.caption, style="italic"))
    return Padding(Group(*parts), (1, 0, 1, 2))


def _labels(name: str) -> list[str]:
    fig = figure(name)
    return fig.labels() if fig.labels else [str(i) for i in range(fig.value.shape[0])]


class _Printed:
    """Each kind of block as Rich renderables (attnpos.lessons.course.model.BlockRenderer)."""

    def __init__(self, course: Course, run_code: bool) -> None:
        self.course, self.run_code = course, run_code

    def prose(self, block: Prose) -> list[RenderableType]:
        return [Padding(Markdown(block.markdown), (0, 0, 1, 0))]

    def math(self, block: Math) -> list[RenderableType]:
        return [Padding(Text(block.text, style="italic", justify="center"), (1, 0))]

    def code(self, block: Code) -> list[RenderableType]:
        title = "python · runnable" if block.runnable else block.language
        parts: list[RenderableType] = [Panel(Syntax(block.source, block.language, theme="ansi_dark", word_wrap=True), title=title, title_align="left")]
        helpers = cell_helpers(block.source) if block.runnable else []
        if helpers:
            names = ", ".join(helper.name for helper in helpers)
            parts.append(Text(f"calls {names} from attnpos.core: their code is under “Helpers” after the lesson", style="dim"))
        if block.runnable and self.run_code:
            result = run_cell(block.source)
            output = Text(result.output.rstrip("\n"))
            if result.error:
                output.append(("\n" if result.output else "") + result.error, style="bold red")
            parts.append(Panel(output, title="output", title_align="left", style="dim"))
        return parts

    def grid(self, block: Grid) -> list[RenderableType]:
        return [grid_renderable(block)]

    def heatmap(self, block: Heatmap) -> list[RenderableType]:
        return [heatmap_renderable(block)]

    def quiz(self, block: Quiz) -> list[RenderableType]:
        choices = Table.grid(padding=(0, 1))
        choices.add_column(no_wrap=True)
        choices.add_column()
        for index, choice in enumerate(block.choices):
            choices.add_row(f"{chr(97 + index)})", choice)
        body = Group(Text(block.question), Text(""), choices)
        return [Panel(body, title="question (answer it in the app)", title_align="left")]

    def exercise(self, block: ExerciseRef) -> list[RenderableType]:
        exercise = self.course.exercises[block.id]
        body = Group(Markdown(exercise.instructions), Text(f"\nStart it: attnpos exercise {exercise.id}", style="bold"))
        return [Panel(body, title=f"exercise {exercise.id}: {exercise.title}", title_align="left")]

    def playground(self, block: PlaygroundLink) -> list[RenderableType]:
        link = Text(block.description)
        if block.caption:
            link.append("\n" + block.caption, style="dim")
        return [Panel(link, title="playground (open it in the app)", title_align="left")]


def block_renderables(block: Block, course: Course, run_code: bool) -> list[RenderableType]:
    return render_block(block, _Printed(course, run_code))


def lesson_renderable(lesson: Lesson, course: Course, run_code: bool = True) -> Group:
    parts: list[RenderableType] = [Rule(f"Lesson {lesson.number}: {lesson.title}"), Text(lesson.summary, style="italic")]
    for section in lesson.sections:
        parts.append(Text(f"\n{section.title}", style="bold underline"))
        for block in section.blocks:
            parts.extend(block_renderables(block, course, run_code))
    parts.extend(answers_renderables(lesson))
    parts.extend(helpers_renderables(lesson))
    return Group(*parts)


def helpers_renderables(lesson: Lesson) -> Iterable[RenderableType]:
    """Each attnpos.core name the lesson's code calls, with its code, once: no helper stays hidden."""
    shown: dict[str, Helper] = {}
    for section in lesson.sections:
        for block in section.blocks:
            if isinstance(block, Code) and block.runnable:
                for helper in cell_helpers(block.source):
                    shown.setdefault(helper.name, helper)
    if not shown:
        return
    yield Text("\nHelpers", style="bold underline")
    for helper in shown.values():
        yield Panel(Syntax(helper.source, "python", theme="ansi_dark", word_wrap=True), title=f"{helper.name} · {helper.module}", title_align="left")


def answers_renderables(lesson: Lesson) -> Iterable[RenderableType]:
    """The questions' answers with every choice's explanation, after the lesson as in a textbook:
    what the app says when a choice is made, for a reader who reads the lesson here (a screen reader)."""
    quizzes = lesson.quizzes
    if not quizzes:
        return
    yield Text("\nAnswers", style="bold underline")
    for quiz in quizzes:
        explained = Table.grid(padding=(0, 1))
        explained.add_column(no_wrap=True)
        explained.add_column()
        for index, explanation in enumerate(quiz.explanations):
            mark = "✓" if index == quiz.answer else "✗"
            explained.add_row(f"{mark} {chr(97 + index)})", explanation)
        yield Panel(Group(Text(quiz.question, style="italic"), Text(""), explained), title=f"answer: {chr(97 + quiz.answer)})", title_align="left")
