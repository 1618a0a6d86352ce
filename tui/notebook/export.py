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

from attnpos.lessons.model import Code, Course, ExerciseRef, Grid, Lesson, Math, PlaygroundLink, Prose, Quiz
from attnpos.tui.cli.lesson_print import playground_link_text

SETUP_CELL = "%load_ext attnpos\nfrom attnpos.tui.notebook.show import grid"


def _grid_call(block: Grid) -> str:
    arguments = [repr(block.figure)]
    if block.compare:
        arguments.append(f"compare={block.compare!r}")
    if block.titles:
        arguments.append(f"titles={tuple(block.titles)!r}")
    if block.mark_changed:
        arguments.append("mark_changed=True")
    if block.caption:
        arguments.append(f"caption={block.caption!r}")
    return f"grid({', '.join(arguments)})"


def _quiz_markdown(quiz: Quiz) -> str:
    letters = [chr(97 + index) for index in range(len(quiz.choices))]
    choices = "\n".join(f"- **{letter})** {choice}" for letter, choice in zip(letters, quiz.choices, strict=True))
    explained = "\n".join(
        f"- {'✓' if index == quiz.answer else '✗'} **{letters[index]})** {explanation}"
        for index, explanation in enumerate(quiz.explanations)
    )
    return (
        f"**Question.** {quiz.question}\n\n{choices}\n\n"
        f"<details><summary>Answer and every choice explained</summary>\n\n"
        f"The answer is **{letters[quiz.answer]})**.\n\n{explained}\n\n</details>"
    )


def _cells(block, course: Course) -> list:
    match block:
        case Prose():
            return [new_markdown_cell(block.tex or block.markdown)]
        case Math():
            return [new_markdown_cell(f"$$\n{block.latex}\n$$")]
        case Code(runnable=True):
            return [new_code_cell(block.source)]
        case Code():
            return [new_markdown_cell(f"```{block.language}\n{block.source.rstrip()}\n```")]
        case Grid():
            return [new_code_cell(_grid_call(block))]
        case Quiz():
            return [new_markdown_cell(_quiz_markdown(block))]
        case ExerciseRef():
            exercise = course.exercises[block.id]
            brief = new_markdown_cell(
                f"### Exercise `{exercise.id}`: {exercise.title}\n\n{exercise.instructions}\n\n"
                f"Fill in the TODO lines and run the cell: the first line checks it. "
                f"Stuck? `%attnpos hint {exercise.id} 1` gives a nudge."
            )
            return [brief, new_code_cell(f"%%attnpos check {exercise.id}\n{exercise.starter}")]
        case PlaygroundLink():
            text = f"**Playground:** {playground_link_text(block)}. Open it in the terminal app: `attnpos play`."
            return [new_markdown_cell(text + (f"\n\n{block.caption}" if block.caption else ""))]
    raise TypeError(f"no notebook cell for a {type(block).__name__}")


def lesson_notebook(lesson: Lesson, course: Course) -> nbformat.NotebookNode:
    """One lesson as a notebook (nbformat 4), in the lesson's order."""
    cells = [
        new_markdown_cell(f"# Lesson {lesson.number}: {lesson.title}\n\n*{lesson.summary}*"),
        new_code_cell(SETUP_CELL),
    ]
    for section in lesson.sections:
        cells.append(new_markdown_cell(f"## {section.title}"))
        for block in section.blocks:
            cells.extend(_cells(block, course))
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
