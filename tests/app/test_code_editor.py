"""The exercise editor on its own: a new line stays in view, and Enter keeps (or deepens) the indent."""

from __future__ import annotations

from textual.app import App, ComposeResult

from attnpos.tui.app.widgets.code_editor import CodeEditor

LINES = "\n".join(f"x{row} = {row}" for row in range(30))


class EditorApp(App):
    """An editor eight rows high, wrapped as the exercise screen's is."""

    CSS = "CodeEditor { height: 8; }"

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield CodeEditor.code_editor(self.text, language="python", soft_wrap=True)


def cursor_shown(editor: CodeEditor) -> bool:
    """Whether the cursor's row is inside the editor's visible rows."""
    return editor.scrollable_content_region.contains_point(editor.cursor_screen_offset)


async def test_a_new_line_made_at_the_bottom_is_scrolled_into_view():
    """Enter at the end of the last line left the new line below the editor until something was typed on it."""
    app = EditorApp(LINES)
    async with app.run_test(size=(60, 20)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.focus()
        editor.move_cursor(editor.document.end)
        await pilot.pause()
        assert cursor_shown(editor)
        for _ in range(3):
            await pilot.press("enter")
            await pilot.pause()
            assert cursor_shown(editor), (editor.cursor_location, editor.scroll_offset, editor.virtual_size)


async def test_enter_keeps_the_indent_and_adds_a_level_after_a_colon():
    app = EditorApp("")
    async with app.run_test(size=(60, 20)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.focus()
        for line in ("def f(x):", "y = x", "for i in y:  "):  # typed as one insert each, then enter
            editor.insert(line)
            await pilot.press("enter")
        editor.insert("pass")
        assert editor.text == "def f(x):\n    y = x\n    for i in y:  \n        pass"
        editor.move_cursor((1, 6))
        await pilot.press("enter")  # inside a line: the rest moves down, at the same indent
        assert editor.text.startswith("def f(x):\n    y \n    = x\n")
        editor.move_cursor((0, 0))
        await pilot.press("enter")  # at the start of a line: nothing before the cursor to indent by
        assert editor.text.startswith("\ndef f(x):\n")
