"""The first screen: the course's lessons, sections and exercises, with the learner's progress."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Offset
from textual.widgets import Header, Static, Tree

from attnpos.lessons.course.outline import OutlineLesson, find_outline_exercise
from attnpos.lessons.course.progress import exercise_status, lesson_status
from attnpos.tui.app.keys import bound_key
from attnpos.tui.app.leaks import Footer
from attnpos.tui.app.screens.course_screen import CourseScreen

if TYPE_CHECKING:
    from textual.widgets.tree import TreeNode

MARKS = {"not started": "○", "in progress": "◐", "done": "●"}
PROGRESS_POLL = 1.0  # seconds between looks at the progress file while the outline shows (one stat each)


def _label(text: str, status: str, detail: str = "", room: int | None = None) -> Text:
    """A row with its mark and status; a title too long for ``room`` cells ends in … so the status still shows."""
    mark, tail = f"{MARKS[status]} ", f"  {status}{detail}"
    if room is not None and cell_len(mark + text + tail) > room:
        text = set_cell_size(text, max(room - cell_len(mark + tail) - 1, 8)).rstrip() + "…"
    label = Text.assemble(mark, text, (tail, "dim"))
    return label if room is None else _fit(label, room)  # at 60 columns the status's end goes too


def _fit(label: Text, room: int) -> Text:
    """``label`` ending in … when wider than ``room`` cells."""
    label.truncate(room, overflow="ellipsis")
    return label


def _questions(lesson, progress) -> str:
    """How many of the lesson's questions the learner got right at the first answer, once they answered one."""
    right_first, answered = progress.first_answers(lesson.quizzes)
    return f" · quiz {right_first}/{len(lesson.quizzes)} first try" if answered else ""


class OutlineScreen(CourseScreen):
    """The course at a glance; Enter opens, `c` continues where the learner left off."""

    CSS_PATH = "outline_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "continue", "Continue"),
        Binding("y", "playground", "Playground"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="outline-intro")
        # The root (never shown) labelled with Text, not a string: a string is Rich markup, whose parser loads
        # Rich's emoji table (2 to 3 ms) before the first frame.
        tree: Tree = Tree(Text("course"), id="outline")
        tree.show_root = False
        tree.auto_expand = False  # enter opens a lesson rather than folding it
        yield tree
        yield Footer()

    _drawn_room: int | None = None  # the width the rows were last fitted to

    def on_mount(self) -> None:
        self.query_one(Tree).focus()
        self.set_interval(PROGRESS_POLL, self._take_in_saved_progress)

    def on_resize(self) -> None:
        # The rows fit the new width. Start-up alone resizes the screen several times, mostly to the same
        # width, and each rebuild costs a node per lesson, section and exercise: only a new width rebuilds.
        if self._room() != self._drawn_room:
            self.refresh_outline()

    def on_screen_resume(self) -> None:
        """Drawn on every return to the outline (the first push included), so progress marks are current,
        those of a pass made from the shell (attnpos check in another terminal) too."""
        self.app.progress.reload()
        self.refresh_outline()

    def _take_in_saved_progress(self) -> None:
        """While the outline shows, progress another process saves appears without a key pressed."""
        if self.is_current and self.app.progress.reload():
            self.refresh_outline()

    def _room(self) -> int:
        """The cells a row may take: the tree's width, less the vertical scrollbar's columns (unfolding a lesson
        brings it), before the first layout the terminal's width less the tree's margins."""
        tree = self.query_one(Tree)
        scrollbar = 0 if tree.show_vertical_scrollbar else tree.styles.scrollbar_size_vertical
        return tree.scrollable_content_region.width - scrollbar if tree.size.width else self.app.size.width - 4

    def refresh_outline(self) -> None:
        app, progress = self.app, self.app.progress
        position = progress.position
        where = f"Lesson {position[0]}, section {position[1] + 1}" if position else "the first lesson"
        tree_key = partial(bound_key, self.query_one(Tree))
        exercise = find_outline_exercise(app.outline, progress.open_exercise)
        if exercise is not None:
            where = f"the exercise “{exercise.title}”"
        self.query_one("#outline-intro", Static).update(
            Text.assemble(
                (app.course_text.opening(len(app.outline)) + "\n", ""),
                (app.course_text.prerequisites + "\n", "dim"),
                (tree_key("select_cursor"), "bold"),
                " opens · ",
                (tree_key("toggle_node"), "bold"),
                " shows sections · ",
                (self.key("continue"), "bold"),
                f" continues at {where} · ",
                (self.key("command_palette"), "bold"),
                " jumps anywhere, the glossary too · ",
                (self.key("playground"), "bold"),
                " opens the playground · ",
                (self.key("help"), "bold"),
                " lists every key",
            )
        )
        tree = self.query_one(Tree)
        cursor = tree.cursor_line
        unfolded = {node.data[1] for node in tree.root.children if node.is_expanded and node.data}  # kept unfolded when redrawn
        tree.clear()
        # Rows fit the tree's width: a longer one made the whole outline scroll sideways at 80 columns.
        room = self._drawn_room = self._room()
        lesson_room, leaf_room = room - 2, room - tree.guide_depth  # a lesson's fold mark; a leaf's guide
        for lesson in app.outline:
            node = tree.root.add(
                _label(f"Lesson {lesson.number} · {lesson.title}", lesson_status(lesson, progress), _questions(lesson, progress), lesson_room),
                data=("lesson", lesson.number, None),
                # Folded, so every lesson fits the first screen; space unfolds one.
                expand=lesson.number in unfolded,
            )
            if lesson.number in unfolded:
                self._add_sections(node, lesson, leaf_room)
        # At once, not after the next refresh: the outline is drawn in the app's first frame, and a key pressed
        # as it appears must find the cursor on a row (the rows are laid out on demand, here).
        tree.cursor_line = max(cursor, 0)

    def _add_sections(self, node: TreeNode, lesson: OutlineLesson, room: int) -> None:
        """The rows of a lesson's sections and exercises, under its row.

        Made when the lesson is unfolded, not with the outline: a row costs Textual a relayout of the tree,
        and the first frame would pay for every section of every lesson (about 300 rows at 30 lessons).
        """
        progress = self.app.progress
        visited = progress.visited(lesson.number)
        for index, title in enumerate(lesson.sections):
            # Sections carry only the mark: a word on every line would drown the titles.
            section = node.add_leaf(
                _fit(Text(f"{MARKS['done' if index in visited else 'not started']} {title}"), room),
                data=("section", lesson.number, index),
            )
            for exercise in (e for e in lesson.exercises if e.section == index):
                section.allow_expand = False
                node.add_leaf(
                    _label(f"  Exercise · {exercise.title}", exercise_status(exercise.id, progress), room=room),
                    data=("exercise", lesson.number, exercise.id),
                )

    @on(Tree.NodeExpanded)
    def _unfolded(self, event: Tree.NodeExpanded) -> None:
        node = event.node
        if node.data is not None and node.data[0] == "lesson" and not node.children and node.tree.root is node.parent:
            lesson = next(lesson for lesson in self.app.outline if lesson.number == node.data[1])
            self._add_sections(node, lesson, self._room() - node.tree.guide_depth)

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted) -> None:
        self.call_after_refresh(self._place_terminal_cursor)  # once the tree has scrolled to the row

    def _place_terminal_cursor(self) -> None:
        """The terminal's cursor on the highlighted row, so a screen reader follows the outline."""
        tree = self.query_one(Tree)
        node = tree.cursor_node
        if node is None or not tree.has_focus:
            return
        depth, parent = 0, node.parent  # lessons 0, their sections and exercises 1
        while parent is not None and parent is not tree.root:
            depth, parent = depth + 1, parent.parent
        region = tree.content_region
        self.app.cursor_position = Offset(region.x + depth * tree.guide_depth, region.y + tree.cursor_line - int(tree.scroll_offset.y))

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        self._open(event.node.data)

    def _open(self, data) -> None:
        if data is None:
            return
        kind, lesson, detail = data
        if kind == "exercise":
            self.app.open_exercise(detail)
        else:
            self.app.open_lesson(lesson, detail)

    def action_playground(self) -> None:
        self.app.open_playground()

    def action_continue(self) -> None:
        self.app.action_continue()
