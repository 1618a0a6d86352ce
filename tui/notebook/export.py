"""`attnpos export notebook N|all --dir D`: each lesson as a Jupyter notebook, built from the lesson files.

Prose becomes Markdown with its math as LaTeX, runnable blocks code cells,
grids code cells that draw the matrix with Rich (so no plotting library is
needed), each exercise its starter under ``%%attnpos check``, and each
question Markdown with its explanations folded away until asked for.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from attnpos.lessons.course.model import Code, Course, ExerciseRef, Grid, Heatmap, Lesson, Math, PlaygroundLink, Prose, Quiz, render_block

SETUP_CELL = "%load_ext attnpos\nfrom attnpos.tui.notebook.show import grid, heatmap"


def _figure_call(function: str, block: Grid | Heatmap, **switches: bool) -> str:
    """The notebook cell's call that draws a figure block: ``grid('shuffle.weights', titles=(…,))``."""
    arguments = [repr(block.figure)]
    if block.compare:
        arguments.append(f"compare={block.compare!r}")
    if block.titles:
        arguments.append(f"titles={tuple(block.titles)!r}")
    arguments += [f"{name}=True" for name, on in switches.items() if on]
    if block.caption:
        arguments.append(f"caption={block.caption!r}")
    return f"{function}({', '.join(arguments)})"


def _quiz_markdown(quiz: Quiz) -> str:
    letters = [chr(97 + index) for index in range(len(quiz.choices))]
    choices = "\n".join(f"- **{letter})** {choice}" for letter, choice in zip(letters, quiz.choices, strict=True))
    explained = "\n".join(
        f"- {'✓' if index == quiz.answer else '✗'} **{letters[index]})** {explanation}" for index, explanation in enumerate(quiz.explanations)
    )
    return (
        f"**Question.** {quiz.question}\n\n{choices}\n\n"
        f"<details><summary>Answer and every choice explained</summary>\n\n"
        f"The answer is **{letters[quiz.answer]})**.\n\n{explained}\n\n</details>"
    )


class NotebookCells:
    """Each kind of block as notebook cells (a ``BlockRenderer``: mypy fails here on a kind left out)."""

    def __init__(self, course: Course) -> None:
        self.course = course

    def prose(self, block: Prose) -> list:
        return [new_markdown_cell(block.tex or block.markdown)]

    def math(self, block: Math) -> list:
        return [new_markdown_cell(f"$$\n{block.latex}\n$$")]

    def code(self, block: Code) -> list:
        if block.runnable:
            return [new_code_cell(block.source)]
        return [new_markdown_cell(f"```{block.language}\n{block.source.rstrip()}\n```")]

    def grid(self, block: Grid) -> list:
        return [new_code_cell(_figure_call("grid", block, mark_changed=block.mark_changed))]

    def heatmap(self, block: Heatmap) -> list:
        return [new_code_cell(_figure_call("heatmap", block, own_scales=block.own_scales))]

    def quiz(self, block: Quiz) -> list:
        return [new_markdown_cell(_quiz_markdown(block))]

    def exercise(self, block: ExerciseRef) -> list:
        exercise = self.course.exercises[block.id]
        brief = new_markdown_cell(
            f"### Exercise `{exercise.id}`: {exercise.title}\n\n{exercise.instructions}\n\n"
            f"Fill in the TODO lines and run the cell: its first line checks it. "
            f"Stuck? `%attnpos hint {exercise.id} 1` gives a nudge."
        )
        return [brief, new_code_cell(f"%%attnpos check {exercise.id}\n{exercise.starter}")]

    def playground(self, block: PlaygroundLink) -> list:
        text = f"**Playground:** {block.description}. Open it in the terminal app: `attnpos play`."
        return [new_markdown_cell(text + (f"\n\n{block.caption}" if block.caption else ""))]


def lesson_notebook(lesson: Lesson, course: Course) -> nbformat.NotebookNode:
    """One lesson as a notebook (nbformat 4), in the lesson's order."""
    cells = [
        new_markdown_cell(f"# Lesson {lesson.number}: {lesson.title}\n\n*{lesson.summary}*"),
        new_code_cell(SETUP_CELL),
    ]
    renderer = NotebookCells(course)
    for section in lesson.sections:
        cells.append(new_markdown_cell(f"## {section.title}"))
        for block in section.blocks:
            cells.extend(render_block(block, renderer))
    notebook = new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    return notebook


def notebook_name(lesson: Lesson) -> str:
    return f"{lesson.number:02d}-{lesson.slug}.ipynb"


def export_notebooks(course: Course, lessons: list[Lesson], folder: Path) -> list[Path]:
    """Write each lesson's notebook into ``folder`` (made if missing); returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in lessons:
        notebook = lesson_notebook(lesson, course)
        nbformat.validate(notebook)
        path = folder / notebook_name(lesson)
        nbformat.write(notebook, str(path))
        written.append(path)
    return written
