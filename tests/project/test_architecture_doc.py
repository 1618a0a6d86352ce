"""docs/ARCHITECTURE.md names only paths that exist, and its recipes name the modules that do the work."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PLACEHOLDERS = ("<", "NN", "DIAGNOSIS", "*", "…")  # `tui/app/screens/<name>_screen.py`: a pattern, not a path


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
    # lessons/content/ is the course: a lesson folder's figures.py and an exercise's scripts are content, named by pattern
    modules = [
        p.relative_to(ROOT).as_posix()
        for folder in folders
        for p in (ROOT / folder).rglob("*.py")
        if p.name != "__init__.py" and not {"content", "sandbox", "contracts", "entry"} & set(p.parts)
    ]
    unnamed = [m for m in modules if m not in named]
    assert not unnamed, unnamed


def pictured_folders() -> set[str]:
    """The folders drawn in the picture: the leading `name/` entries of each line (two spaces apart), indented under their parent."""
    text = DOC.read_text(encoding="utf-8")
    picture = text.split("## The picture", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    folders: set[str] = set()
    parent = ""
    for line in picture.splitlines():
        entries = []
        for token in re.split(r"\s{2,}", line.strip()):
            if not re.fullmatch(r"[a-z_0-9]+/", token):
                break
            entries.append(token.rstrip("/"))
        if not line.startswith(" "):
            parent = entries[0]
            folders.add(parent)
        else:
            folders.update(f"{parent}/{name}" for name in entries)
    return folders


def test_the_picture_is_the_tree():
    """Every folder of the code and the tests, two levels down, is in the picture, and nothing else is."""
    real = set()
    for top in ("core", "lessons", "tui", "tests"):
        real.add(top)
        real.update(f"{top}/{p.name}" for p in (ROOT / top).iterdir() if p.is_dir() and not p.name.startswith(("_", ".")) and p.name not in ("exercises",))
    assert pictured_folders() == real
