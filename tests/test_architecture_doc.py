"""docs/ARCHITECTURE.md names only paths that exist, and its recipes name the modules that do the work."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PLACEHOLDERS = ("<", "NN", "DIAGNOSIS", "*", "…")  # `tui/screens/<name>_screen.py`: a pattern, not a path


def named_paths() -> list[str]:
    spans = re.findall(r"`([^`\s]+)`", DOC.read_text(encoding="utf-8"))
    return sorted({s for s in spans if "/" in s and "://" not in s and not any(p in s for p in PLACEHOLDERS)})


def test_every_path_the_architecture_names_exists():
    paths = named_paths()
    assert len(paths) > 40  # the document names the modules it describes
    missing = [p for p in paths if not (ROOT / p.rstrip("/")).exists()]
    assert not missing, missing


def test_every_module_of_the_package_is_named():
    """A new module gets a line in the document, so the map stays whole."""
    named = set(named_paths())
    folders = ("core", "lessons", "tui")
    modules = [
        p.relative_to(ROOT).as_posix() for folder in folders for p in (ROOT / folder).rglob("*.py")
        if p.name != "__init__.py" and not {"exercises", "sandbox", "contracts", "entry"} & set(p.parts)
    ]
    unnamed = [m for m in modules if m not in named]
    assert not unnamed, unnamed
