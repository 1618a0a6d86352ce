"""The README holds both set-up commands and the course's table of lessons, and CI runs the README's test command, read from the README."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_command(name: str) -> str:
    result = subprocess.run([sys.executable, str(ROOT / ".ci" / "readme-command"), name], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_readme_holds_the_command_that_installs_and_starts_the_course():
    command = readme_command("start")
    assert command.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install .") and command.endswith("&& attnpos")


def test_the_readme_holds_the_command_that_installs_and_runs_the_tests():
    command = readme_command("test")
    assert "pip install -e '.[test," in command and command.endswith("&& pytest")


def test_ci_runs_the_readmes_test_command():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '.ci/readme-command test' in run and 'eval "$test_command"' in run


def test_the_readmes_table_of_lessons_is_the_courses(attnpos):
    """`attnpos lessons --markdown` makes it; `attnpos new` writes it into the README again, so a new lesson leaves it true."""
    from attnpos.lessons.authoring.lesson_table import readme_table

    printed = attnpos("lessons", "--markdown")
    assert printed.returncode == 0, printed.stderr
    assert readme_table((ROOT / "README.md").read_text(encoding="utf-8")) == printed.stdout
