"""The generated Gradescope and GitHub Classroom set-ups install the attnpos of this checkout and give the grade
grade-class gives with the same table (issue 34's items 7 and 8).

`gradescope-setup` builds a wheel of this checkout; its `setup.sh` is run (paths moved under a temporary folder,
apt-get a stub: this machine installs no packages) and installs that wheel in a fresh virtual environment; its
`run_autograder` grades a student there. `classroom-setup` writes its own wheel, the workflow's install line puts it
in the same environment, and the workflow's grading step runs in the student's repository. Each score is compared
with `grade-class --single --grading TABLE` run by the attnpos under test. Both set-ups run in this process, and pip
builds the wheel once: classroom-setup's `pip wheel` gets a copy of gradescope-setup's (the same checkout, the same
files), and everything after pip in `build_wheel` runs for both. It installs a fresh environment's dependencies (about
two minutes on two loaded cores), so its ceiling is its own; it is the only test of what the platforms install, so it
runs by default.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest
import yaml

from attnpos.lessons.course.loader import load_course
from attnpos.tui.cli import grading_commands

SCHEMAS = Path(__file__).parent / "schemas"
COURSE = load_course()
TABLE = """[weights]
constant-offset = 3
rope = 2
[parts]
code = 0.6
why = 0.4
[partial]
wrong-comparison = 0.5
"""


def mistake(exercise_id: str, diagnosis: str) -> str:
    return next(source for name, source in sorted(COURSE.exercises[exercise_id].mistakes.items()) if name.startswith(diagnosis + "__"))


def student(folder: Path) -> Path:
    """A right rope, a constant-offset earning partial credit, a wrong why answer: points that differ under every table."""
    folder.mkdir(parents=True)
    (folder / "rope.py").write_text(COURSE.exercises["rope"].solution)
    (folder / "constant-offset.py").write_text(mistake("constant-offset", "wrong-comparison"))
    return folder


def run(command: list[str] | str, **options) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, **options)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done


def grade_class_points(folder: Path, table: Path) -> float:
    report = run([sys.executable, "-m", "attnpos", "grade-class", str(folder), "--single", "--grading", str(table), "--json"])
    return json.loads(report.stdout)["students"][0]["points"]


@pytest.fixture
def one_wheel_build(monkeypatch, tmp_path_factory):
    """pip builds this checkout's wheel once; a later `pip wheel` by build_wheel gets a copy of that wheel."""
    kept = tmp_path_factory.mktemp("built")
    real_run = subprocess.run

    def run_once(command, **options):
        if command[1:4] != ["-m", "pip", "wheel"]:
            return real_run(command, **options)
        wheel_dir = Path(command[command.index("--wheel-dir") + 1])
        if not list(kept.iterdir()):
            done = real_run(command, **options)
            for wheel in wheel_dir.glob("attnpos-*.whl"):
                shutil.copy(wheel, kept)
            return done
        for wheel in kept.iterdir():
            shutil.copy(wheel, wheel_dir)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(grading_commands, "subprocess", SimpleNamespace(run=run_once))


@pytest.mark.timeout(900)
def test_gradescope_and_classroom_install_this_checkout_and_give_grade_class_s_points(tmp_path, attnpos, one_wheel_build):
    table = tmp_path / "table.toml"
    table.write_text(TABLE)
    expected = grade_class_points(student(tmp_path / "ada"), table)
    assert 0 < expected < 5  # partial credit and the code share only: a table of its own

    # Gradescope: the autograder folder as the instructor zips it, unpacked where Gradescope unpacks it.
    root = tmp_path / "autograder"
    source = root / "source"
    assert attnpos("gradescope-setup", str(source), "--grading", str(table)).returncode == 0
    wheels = list(source.glob("attnpos-*.whl"))
    assert len(wheels) == 1 and (source / "grading.toml").read_text() == TABLE
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    (stubs / "apt-get").write_text("#!/bin/sh\nexit 0\n")
    (stubs / "apt-get").chmod(0o755)
    # PIP_NO_COMPILE: pip installs the same files without compiling them to bytecode first, which took three
    # quarters of each install's time here; Python compiles what it imports when it first imports it.
    environment = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}", "PIP_NO_COMPILE": "1"}
    environment.pop("VIRTUAL_ENV", None)
    for name in ("setup.sh", "run_autograder"):
        (root / name).write_text((source / name).read_text().replace("/autograder", str(root)))
    run(["bash", str(root / "setup.sh")], env=environment)
    venv_bin = root / "attnpos-venv" / "bin"
    shown = run([str(venv_bin / "python"), "-c", "import attnpos, pathlib; print(pathlib.Path(attnpos.__file__).resolve())"])
    assert str(root / "attnpos-venv") in shown.stdout  # the wheel's copy, not this checkout's editable one
    shutil.copytree(tmp_path / "ada", root / "submission")
    run(["bash", str(root / "run_autograder")], env=environment)
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, json.loads((SCHEMAS / "gradescope-results.schema.json").read_text()))
    assert results["score"] == pytest.approx(expected)

    # GitHub Classroom: the template repository's files, the install line and the grading step as the workflow runs them.
    repository = tmp_path / "repository"
    assert attnpos("classroom-setup", str(repository), "--grading", str(table)).returncode == 0
    steps = yaml.safe_load((repository / ".github/workflows/classroom.yml").read_text())["jobs"]["run-autograding-tests"]["steps"]
    install = next(line for s in steps for line in s.get("run", "").splitlines() if line.startswith("pip install "))
    shutil.copytree(tmp_path / "ada", repository, dirs_exist_ok=True)
    classroom_env = {**environment, "PATH": f"{venv_bin}:{environment['PATH']}", "GITHUB_OUTPUT": str(tmp_path / "github-output")}
    run(["bash", "-c", install], cwd=repository, env=classroom_env)
    grader = next(s for s in steps if s.get("id") == "attnpos")
    run(["bash", "-e", "-c", grader["run"]], cwd=repository, env=classroom_env)
    output = (tmp_path / "github-output").read_text().strip()
    assert output.startswith("result=")
    reported = json.loads(base64.b64decode(output.removeprefix("result=")))
    jsonschema.validate(reported, json.loads((SCHEMAS / "classroom-results.schema.json").read_text()))
    # The reporter's total: the sum of the tests' scores, out of the runners' max_score.
    assert sum(test["score"] for test in reported["tests"]) == pytest.approx(expected)
    assert reported["max_score"] == pytest.approx(sum(3 if e == "constant-offset" else 2 if e == "rope" else 1 for e in COURSE.exercises))
