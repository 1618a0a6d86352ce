"""The lesson reader: one section at a time, with its code cells, figures and questions."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Static

from attnpos.lessons.course.cells import CellResult
from attnpos.lessons.course.model import Block, Code, Course, ExerciseRef, Grid, Heatmap, Lesson, Math, PlaygroundLink, Prose, Quiz, render_block
from attnpos.lessons.course.progress import Progress, cell_key, exercise_status
from attnpos.tui.app.leaks import Footer, release_removed_widgets
from attnpos.tui.app.screens.course_screen import CourseScreen
from attnpos.tui.app.screens.dialogs import ChoiceScreen, HelpersScreen
from attnpos.tui.app.widgets.lesson_blocks import (
    STYLESHEET,
    CodeCell,
    ExerciseCard,
    GridFigure,
    HeatmapFigure,
    MathBlock,
    PlaygroundCard,
    ProseBlock,
    QuizCard,
)

CELL_SAVE_DELAY = 0.5  # seconds of quiet typing in a cell before its edit is written


class _BlockWidgets:
    """Each kind of block as the reader's widget (attnpos.lessons.course.model.BlockRenderer)."""

    def __init__(self, course: Course, progress: Progress, lesson: int, run_edited) -> None:
        self.course, self.progress, self.lesson, self.run_edited = course, progress, lesson, run_edited

    def prose(self, block: Prose) -> Widget:
        return ProseBlock(block.markdown)

    def math(self, block: Math) -> Widget:
        return MathBlock(block)

    def code(self, block: Code) -> Widget:
        """The cell with the learner's version of it, when they kept one."""
        return CodeCell(block, self.progress.cell_edit(cell_key(self.lesson, block.source)), self.run_edited)

    def grid(self, block: Grid) -> Widget:
        return GridFigure(block)

    def heatmap(self, block: Heatmap) -> Widget:
        return HeatmapFigure(block)

    def quiz(self, block: Quiz) -> Widget:
        previous = self.progress.quiz_answer(block.id)
        return QuizCard(block, previous.choice if previous else None)

    def exercise(self, block: ExerciseRef) -> Widget:
        return ExerciseCard(self.course.exercises[block.id], exercise_status(block.id, self.progress))

    def playground(self, block: PlaygroundLink) -> Widget:
        return PlaygroundCard(block)


class LessonScreen(CourseScreen):
    """Reads a lesson section by section; the learner's place is saved on every move."""

    CSS_PATH = [STYLESHEET, "lesson_screen.tcss"]

    # Sections change only on n and p: arrows move inside a grid or a question, and an arrow
    # that turned the page whenever neither had focus jumped learners out of a section by surprise.
    BINDINGS: ClassVar[list[BindingType]] = [
        # The app's quit and help, bound here first so that the footer lists them first: at 60 columns
        # beside a grid and a question the page's own keys ran past the edge and cut "q Quit" to "q Q".
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark", "app.help", "Help"),
        Binding("n", "next_section", "Next"),
        Binding("p", "previous_section", "Prev"),
        Binding("r", "run_cells", "Run"),
        Binding("g", "focus_next('AttentionGrid, HeatMap')", "Grid"),
        Binding("a", "focus_next('.quiz OptionList')", "Question"),
        Binding("e", "open_exercise", "Exercise"),
        Binding("escape,o", "outline", "Outline"),
    ]

    def __init__(self, course: Course, lesson: Lesson, section: int = 0):
        super().__init__()
        self.course = course
        self.lesson = lesson
        self.section = max(0, min(section, len(lesson.sections) - 1))
        self._footer_keys: tuple[bool, ...] | None = None  # which of e, g and a the footer shows
        self._save_timer: Timer | None = None  # cell edits waiting to be written
        self._cell_edits: dict[str, str | None] = {}  # cell key -> the learner's version (None: the lesson's again)
        # One page change at a time: keys held down reach this screen through different widgets' queues, and
        # a second change must not remove or mount while the first is still doing so.
        self._paging = asyncio.Lock()
        self._page_number = 0  # raised by each page drawn, so the rest of an older page is never mounted on a newer one

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="lesson-bar")
        yield VerticalScroll(id="page")
        # Compact and without the palette's "^p Jump to…" (still ctrl+p; ? lists it): at 80 columns every key
        # and "q Quit" then fit even beside a grid's "v Values" and a question's "a Question".
        yield Footer(compact=True, show_command_palette=False)

    async def on_mount(self) -> None:
        await self.show_section(self.section)

    def on_screen_resume(self) -> None:
        """Back from an exercise (or a dialog): its card says where it stands now."""
        for card in self.query(ExerciseCard):
            card.set_status(exercise_status(card.exercise.id, self.app.progress))

    async def open(self, lesson: Lesson, section: int) -> None:
        """Show another lesson (or another section of this one) in this screen."""
        self.lesson = lesson
        await self.show_section(max(0, min(section, len(lesson.sections) - 1)))

    async def show_section(self, index: int) -> None:
        async with self._paging:
            if self._closing or self._pruning or not self.is_attached:
                return  # keys still queued when the screen is leaving (a quit, a hang-up): it has no page to draw on
            await self._draw_section(index)

    async def _draw_section(self, index: int) -> None:
        self.save_draft()  # cell edits first: the page about to be drawn reads them
        self.section = index
        section = self.lesson.sections[index]
        self.app.progress.visit(self.lesson.number, index)
        self.sub_title = f"Lesson {self.lesson.number}: {self.lesson.title}"
        self.query_one("#lesson-bar", Static).update(
            Text.assemble((f"Section {index + 1}/{len(self.lesson.sections)}", "bold"), " · ", (section.title, "italic"))
        )
        page = self.query_one("#page", VerticalScroll)
        await page.remove_children()
        release_removed_widgets(self.app)
        widgets: list[Widget] = [Static(Text(section.title, style="bold underline"), classes="section-title")]
        widgets += [self._widget(block) for block in section.blocks]
        widgets.append(Static(self._footer_hint(index), classes="section-end"))
        # What fits on the first screen is laid out now; the rest right after that frame is drawn,
        # so a key press shows the new page without waiting for its far end.
        first = self._first_screenful(section.blocks) + 1
        self._page_number += 1
        await page.mount_all(widgets[:first])
        if first < len(widgets):
            self.call_after_refresh(self._mount_rest, self._page_number, widgets[first:])
        page.scroll_home(animate=False)
        page.focus()
        footer_keys = tuple(any(isinstance(b, kind) for b in section.blocks) for kind in (ExerciseRef, Grid, Quiz))
        if footer_keys != self._footer_keys:  # the footer is rebuilt only when its keys change
            self._footer_keys = footer_keys
            self.refresh_bindings()

    async def _mount_rest(self, page_number: int, widgets: list[Widget]) -> None:
        """The rest of page ``page_number``, unless another page has been drawn since."""
        async with self._paging:
            if page_number == self._page_number and self.is_attached and not self._closing:
                await self.query_one("#page", VerticalScroll).mount_all(widgets)

    def _first_screenful(self, blocks) -> int:
        """How many blocks roughly fill the visible page (a generous estimate of their heights)."""
        width = max(self.size.width - 6, 20)
        lines, count = 0, 0
        for block in blocks:
            if lines >= self.size.height:
                break
            if isinstance(block, Prose):
                lines += block.markdown.count("\n") + len(block.markdown) // width + 2
            elif isinstance(block, Code):
                lines += block.source.count("\n") + 4
            else:
                lines += 12
            count += 1
        return count

    def _next_lesson(self):
        later = [lesson for lesson in self.course.lessons if lesson.number > self.lesson.number]
        return later[0] if later else None

    def _footer_hint(self, index: int) -> Text:
        if index + 1 < len(self.lesson.sections):
            return Text(f"{self.key('next_section')}: next, “{self.lesson.sections[index + 1].title}”", style="dim")
        following = self._next_lesson()
        if following is not None:
            return Text(f"End of lesson {self.lesson.number}. {self.key('next_section')}: lesson {following.number}, “{following.title}”", style="dim")
        return Text(f"That is the end of the course. {self.key('outline')}: the outline, with your progress.", style="bold")

    def _widget(self, block: Block) -> Widget:
        return render_block(block, _BlockWidgets(self.course, self.app.progress, self.lesson.number, self._run_in_sandbox))

    def _run_in_sandbox(self, source: str) -> CellResult:
        """A learner's version of a cell, run as learner code (called from the cell's worker thread)."""
        from attnpos.lessons.checker import ConfinementUnavailable

        try:
            result = self.app.checker.run(source, filename="cell.py")
        except ConfinementUnavailable as reason:
            return CellResult("", str(reason))
        if result.error is not None:
            return CellResult(result.stdout, f"{result.error.type}: {result.error.message} (line {result.error.line})")
        if result.status != "ok":
            return CellResult(result.stdout, result.detail or result.status)
        return CellResult(result.stdout)

    @on(CodeCell.HelpersAsked)
    def _helpers_asked(self, event: CodeCell.HelpersAsked) -> None:
        self.app.push_screen(HelpersScreen(event.helpers))

    @on(CodeCell.Edited)
    def _cell_edited(self, event: CodeCell.Edited) -> None:
        """Keep the learner's version of a cell, written after a pause in typing (and on leaving or hang-up)."""
        self._cell_edits[cell_key(self.lesson.number, event.cell.block.source)] = event.source
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(CELL_SAVE_DELAY, self.save_draft)

    def save_draft(self) -> None:
        """Write the cell edits kept since the last write (the app calls this on quitting and on a hang-up)."""
        if self._save_timer is not None:
            self._save_timer.stop()
            self._save_timer = None
        edits, self._cell_edits = self._cell_edits, {}
        for key, source in edits.items():
            self.app.progress.set_cell_edit(key, source)  # saved as it is made

    def on_unmount(self) -> None:
        self.save_draft()

    @on(QuizCard.Answered)
    def _quiz_answered(self, event: QuizCard.Answered) -> None:
        self.app.progress.answer_quiz(event.quiz.id, event.choice, event.correct)

    async def action_next_section(self) -> None:
        if self.section + 1 < len(self.lesson.sections):
            await self.show_section(self.section + 1)
        elif (following := self._next_lesson()) is not None:
            self.app.open_lesson(following.number, 0)
        else:
            self.notify("You have reached the end of the course.", timeout=4)

    async def action_previous_section(self) -> None:
        if self.section > 0:
            await self.show_section(self.section - 1)

    def action_run_cells(self) -> None:
        """Run the focused cell, or every runnable cell on the page when none has focus."""
        focused = self.focused
        cell = next((node for node in (focused.ancestors_with_self if focused else []) if isinstance(node, CodeCell)), None)
        cells = [cell] if cell else [c for c in self.query(CodeCell) if c.block.runnable]
        if not cells:
            self.notify("No runnable code in this section.", timeout=3)
        for target in cells:
            target.run()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The Exercise, Grid and Question keys only show on sections that hold one."""
        blocks = self.lesson.sections[self.section].blocks
        if action == "open_exercise":
            return any(isinstance(b, ExerciseRef) for b in blocks)
        if action == "focus_next":
            kinds = (Grid, Heatmap) if parameters == ("AttentionGrid, HeatMap",) else (Quiz,)
            return any(isinstance(b, kinds) for b in blocks)
        return True

    def action_focus_next(self, selector: str) -> None:
        """Focus the next grid (g) or question (a) on the page after the focused widget, round to the first."""
        targets = [w for w in self.query(selector) if w.focusable]
        if not targets:
            return
        order = self.focus_chain
        here = order.index(self.focused) if self.focused in order else -1
        later = [w for w in targets if w in order and order.index(w) > here]
        (later or targets)[0].focus()

    def action_open_exercise(self) -> None:
        """Open the focused exercise, the only one, or ask which of the section's exercises."""
        focused = self.focused
        card = next((n for n in (focused.ancestors_with_self if focused else []) if isinstance(n, ExerciseCard)), None)
        cards = list(self.query(ExerciseCard))
        if card is not None or len(cards) == 1:
            self.app.open_exercise((card or cards[0]).exercise.id)
            return
        choices = [f"{c.exercise.title}  ({c.status})" for c in cards]

        def chosen(index: int | None) -> None:
            if index is not None:
                self.app.open_exercise(cards[index].exercise.id)

        self.app.push_screen(ChoiceScreen("Which exercise?", choices), chosen)

    @on(ExerciseCard.Opened)
    def _exercise_opened(self, event: ExerciseCard.Opened) -> None:
        self.app.open_exercise(event.exercise.id)

    @on(PlaygroundCard.Opened)
    def _playground_opened(self, event: PlaygroundCard.Opened) -> None:
        link = event.link
        self.app.open_playground(link.sentence, list(link.order), link.signal)

    def action_outline(self) -> None:
        self.app.pop_to_outline()
