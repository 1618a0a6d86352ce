"""Every screen follows one pattern (docs/ARCHITECTURE.md, "A screen"), checked without running the app.

- a full screen: one per file `tui/app/screens/<name>_screen.py`, a CourseScreen with `CSS_PATH = "<name>_screen.tcss"` beside it;
- a dialog: a ModalScreen in `tui/app/screens/dialogs.py`, styled by `dialogs.tcss`;
- a screen that shows lesson blocks lists their stylesheet (`tui/app/widgets/lesson_blocks.tcss`) before its own;
- no inline CSS; every binding's action is an `action_*` of the screen or the app;
- the Footer comes from `tui/app/leaks.py` (Textual's own leaks its keys), nowhere else.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib

import pytest
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from attnpos.tui.app.course_app import AttnposApp
from attnpos.tui.app.screens.course_screen import CourseScreen
from attnpos.tui.app.widgets.lesson_blocks import STYLESHEET as BLOCKS_STYLESHEET

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENS = ROOT / "tui" / "app" / "screens"
SCREEN_FILES = sorted(p.stem for p in SCREENS.glob("*_screen.py") if p.stem != "course_screen")


def screens_defined_in(module_name: str) -> list[type[Screen]]:
    module = importlib.import_module(f"attnpos.tui.app.screens.{module_name}")
    return [c for _, c in inspect.getmembers(module, inspect.isclass) if issubclass(c, Screen) and c.__module__ == module.__name__]


def test_the_screens_folder_holds_screens_dialogs_and_their_base_only():
    assert {p.stem for p in SCREENS.glob("*.py")} == {"__init__", "course_screen", "dialogs", *SCREEN_FILES}


@pytest.mark.parametrize("name", SCREEN_FILES)
def test_a_full_screen_is_one_course_screen_with_its_stylesheet_beside_it(name):
    (screen,) = screens_defined_in(name)
    assert issubclass(screen, CourseScreen) and not issubclass(screen, ModalScreen), screen
    assert screen.__dict__.get("CSS_PATH") in (f"{name}.tcss", [BLOCKS_STYLESHEET, f"{name}.tcss"]) and (SCREENS / f"{name}.tcss").is_file()
    assert "DEFAULT_CSS" not in screen.__dict__, "styles go in the .tcss file"


def test_dialogs_are_modal_screens_in_dialogs_py():
    dialogs = screens_defined_in("dialogs")
    assert dialogs
    for dialog in dialogs:
        assert issubclass(dialog, ModalScreen) and dialog.__dict__.get("CSS_PATH") in ("dialogs.tcss", [BLOCKS_STYLESHEET, "dialogs.tcss"]), dialog
        assert "DEFAULT_CSS" not in dialog.__dict__


@pytest.mark.parametrize("name", [*SCREEN_FILES, "dialogs"])
def test_every_binding_has_its_action(name):
    for screen in screens_defined_in(name):
        for binding in Binding.make_bindings(screen.__dict__.get("BINDINGS", ())):
            action = binding.action.split("(")[0]
            owner: type = AttnposApp if action.startswith("app.") else screen
            assert hasattr(owner, f"action_{action.removeprefix('app.')}"), f"{screen.__name__}: {binding.key} → {binding.action}"


@pytest.mark.parametrize("name", [*SCREEN_FILES, "dialogs"])
def test_a_screen_showing_lesson_blocks_lists_their_stylesheet(name):
    """The blocks' styles are read with the first screen that shows blocks, not at start-up: each such screen lists them."""
    source = (SCREENS / f"{name}.py").read_text(encoding="utf-8")
    for screen in screens_defined_in(name):
        shows_blocks = "lesson_blocks import" in source and any(
            block in inspect.getsource(screen)
            for block in (
                "ProseBlock(",
                "QuizCard(",
                "CodeCell(",
                "MathBlock(",
                "GridFigure(",
                "HeatmapFigure(",
                "ExerciseCard(",
                "PlaygroundCard(",
                "_BlockWidgets(",
            )
        )
        listed = isinstance(screen.__dict__.get("CSS_PATH"), list) and BLOCKS_STYLESHEET in screen.__dict__["CSS_PATH"]
        assert listed == shows_blocks, screen


def test_the_footer_comes_from_leaks_only():
    offenders = []
    for path in (ROOT / "tui").rglob("*.py"):
        if path.name == "leaks.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual.widgets"):
                offenders += [f"{path.relative_to(ROOT)}" for alias in node.names if alias.name == "Footer"]
    assert not offenders, offenders
