"""The rules of the house held by tools: import-linter's contracts (pyproject.toml), and what they cannot say."""

from __future__ import annotations

import ast
import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_import_contracts_hold():
    """pyproject.toml's [tool.importlinter] contracts, as CI checks them (.ci/lint-imports)."""
    ran = subprocess.run([str(ROOT / ".ci" / "lint-imports")], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]


CORE_IMPORTS = """
import json, grimp
graph = grimp.build_graph("attnpos", include_external_packages=True, cache_dir=None)
core = [m for m in graph.modules if m == "attnpos.core" or m.startswith("attnpos.core.")]
print(json.dumps(sorted({i for m in core for i in graph.find_modules_directly_imported_by(m) if not i.startswith("attnpos.core")})))
"""


def test_the_core_imports_the_standard_library_and_numpy_only(tmp_path):
    """What a forbidden contract cannot say (it lists what is out, not what is in): the core's imports are an allow-list."""
    subprocess.run([str(ROOT / ".ci" / "package-tree"), str(tmp_path)], check=True)
    # In a process of its own, where `attnpos` is the copy (here it is the editable install, which grimp cannot walk).
    ran = subprocess.run(
        [sys.executable, "-c", CORE_IMPORTS], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True, text=True, check=True
    )
    outside = set(json.loads(ran.stdout))
    assert "numpy" in outside, "the graph was not built from the core"
    assert {name for name in outside if name.split(".")[0] not in sys.stdlib_module_names} == {"numpy"}


def test_widgets_take_only_classes_from_one_another():
    """A widget may hold another (a pair of grids holds two grids); a helper they share lives in a module of its own."""
    widgets = ROOT / "tui" / "app" / "widgets"
    offenders = []
    paths = list(widgets.glob("*.py"))
    assert len(paths) > 3, widgets
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("attnpos.tui.app.widgets."):
                source = ast.parse((widgets / f"{node.module.rsplit('.', 1)[-1]}.py").read_text(encoding="utf-8"))
                classes = {n.name for n in source.body if isinstance(n, ast.ClassDef)}
                offenders += [f"{path.name} imports {alias.name}" for alias in node.names if alias.name not in classes]
    assert not offenders, offenders


KEY_IN_PROSE = re.compile(r"\b(ctrl\+\w|f[1-9]\b|esc\b)")


def test_prose_names_no_key_the_bindings_do_not_give():
    """Keys shown in sentences come from the bindings (attnpos.tui.app.keys.bound_key), never typed beside them."""
    offenders = []
    app = ROOT / "tui" / "app"
    paths = [*(app / "screens").glob("*.py"), *(app / "widgets").glob("*.py"), ROOT / "lessons" / "course" / "playground_state.py"]
    assert all(path.is_file() for path in paths) and len(paths) > 10, paths
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = {id(node) for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Binding" for node in ast.walk(node)}
        skipped |= {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and ast.get_docstring(node) is not None
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped and KEY_IN_PROSE.search(node.value):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not offenders, offenders


def test_no_module_name_is_shared_across_rooms():
    """A name says its room: lessons/course/outline.py is the table of contents, tui/app/screens/outline_screen.py draws it."""
    rooms: dict[str, set[str]] = {}
    for room in ("core", "lessons", "tui"):
        for path in (ROOT / room).rglob("*.py"):
            if path.stem != "__init__" and "content" not in path.relative_to(ROOT).parts:
                rooms.setdefault(path.stem, set()).add(room)
    assert not {name: where for name, where in rooms.items() if len(where) > 1}
