"""The wheel a learner installs (`pip install .`, the README's start command) carries every file the course reads."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE_DIRS = {"core": "attnpos/core", "lessons": "attnpos/lessons", "tui": "attnpos/tui"}  # pyproject's package-dir


def test_the_wheel_holds_every_lesson_exercise_table_and_stylesheet(tmp_path):
    tracked = subprocess.run(["git", "ls-files", "core", "lessons", "tui"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    wanted = {
        PACKAGE_DIRS[name.split("/", 1)[0]] + "/" + name.split("/", 1)[1]
        for name in tracked
        if not name.startswith("tui/entry/") and name.endswith((".md", ".toml", ".tcss", ".py"))
    }
    # Built from a copy: a build writes build/ and *.egg-info beside the sources.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", ".hypothesis"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "wheel"), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "wheel").glob("attnpos-*.whl")
    held = set(zipfile.ZipFile(wheel).namelist())
    assert sorted(wanted - held) == []
