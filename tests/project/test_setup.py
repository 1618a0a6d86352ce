"""The README holds both set-up commands and the course's table of lessons, and CI runs the README's test command, read from the README."""

from __future__ import annotations

import pathlib
import subprocess
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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
    assert ".ci/readme-command test" in run and 'eval "$waiting_command"' in run
    # The README's command as it is, with only a wait for Debian's packages (installed meanwhile) before its pytest.
    assert 'waiting_command="${test_command/"&& pytest"/"&& debian_packages_ready && pytest"}"' in run


def test_the_readmes_table_of_lessons_is_the_courses(attnpos):
    """`attnpos lessons --markdown` makes it; `attnpos new` writes it into the README again, so a new lesson leaves it true."""
    from attnpos.lessons.authoring.lesson_table import readme_table

    printed = attnpos("lessons", "--markdown")
    assert printed.returncode == 0, printed.stderr
    assert readme_table((ROOT / "README.md").read_text(encoding="utf-8")) == printed.stdout


def test_an_installed_copy_holds_every_package_and_the_whole_course():
    """`pip install .` (the README's start command) installs what pyproject lists, not what an editable install finds."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {name: ROOT / path for name, path in setuptools["package-dir"].items()}
    packages = {
        ".".join(("attnpos", top, *init.parent.relative_to(ROOT / top).parts)).rstrip(".")
        for top in ("core", "lessons", "tui")
        for init in (ROOT / top).rglob("__init__.py")
        if "entry" not in init.parts
    } | {"attnpos"}
    assert set(setuptools["packages"]) == packages
    shipped = {path for pattern in setuptools["package-data"]["attnpos.lessons"] for path in folders["attnpos.lessons"].glob(pattern)}
    course = {path for path in (ROOT / "lessons" / "content").rglob("*") if path.is_file() and "__pycache__" not in path.parts}
    assert not course - shipped, sorted(str(p.relative_to(ROOT)) for p in course - shipped)
