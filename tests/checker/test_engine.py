"""The one checking engine: every route builds its sandbox through it, learner source is parsed only in the
learner's own process, checks beyond ``jobs`` wait their turn, and a fault of the checker's reading is its own."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from msgspec.structs import replace

from attnpos.lessons.checker import CONTRACTS, Limits, open_checker
from attnpos.lessons.checker.contracts import Question
from attnpos.lessons.course.loader import load_course

ROOT = Path(__file__).parents[2]
COURSE = load_course()
LIMITS = Limits(timeout_s=10.0)


def test_sandboxes_are_built_only_by_the_engine():
    built = []
    for path in [*(ROOT / "lessons").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(("lessons/sandbox/", "lessons/content/")) or relative == "lessons/checker/engine.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("Sandbox", "SandboxPool"):
                built.append(f"{relative}:{node.lineno}")
    assert built == []


def test_nothing_is_parsed_in_the_app_during_a_check(checker, monkeypatch):
    """The reruns' rewriting and the judge's questions of the source happen in the learner's process, and
    results come back as raw bytes, not .npy files (whose headers NumPy parses with ast): CPython 3.11
    builds syntax trees thread-unsafely, and checks read results in several threads at once."""

    parsed, parse = [], ast.parse
    monkeypatch.setattr(ast, "parse", lambda source, *rest, **options: (parsed.append(source), parse(source, *rest, **options))[1])
    exercise = COURSE.exercises["constant-offset"]
    names = ("solution", "moved-with-tokens__offset-shuffled-along.py", "mismatch__never-added.py")  # the last two told by the source
    sources = [exercise.solution, *(exercise.mistakes[name] for name in names[1:])]
    verdicts = [checker.check(exercise, source, limits=LIMITS) for source in sources]
    monkeypatch.undo()
    assert [v.diagnosis for v in verdicts] == ["passed", "moved-with-tokens", "mismatch"], verdicts
    assert parsed == []


def test_a_fault_in_reading_the_source_is_a_checker_error_never_the_learners(checker, monkeypatch):
    exercise = COURSE.exercises["constant-offset"]
    contract = CONTRACTS[exercise.contract]
    monkeypatch.setitem(CONTRACTS, exercise.contract, replace(contract, questions=(Question("no_such_question", ()),)))
    verdict = checker.check(exercise, exercise.solution, limits=LIMITS)
    assert verdict.diagnosis == "checker-error" and "KeyError" in verdict.details["error"], verdict


def test_checks_beyond_jobs_wait_their_turn_in_order():
    exercise = COURSE.exercises["constant-offset"]
    slower = exercise.solution + "\nimport time\ntime.sleep(0.3)\n"  # any duration: the second cannot start before
    ended = []
    with open_checker(jobs=1, limits=LIMITS) as checker:
        checks = [checker.submit(exercise, source) for source in (slower, exercise.solution)]
        for name, check in zip(("first", "second"), checks, strict=True):
            check.add_done_callback(lambda _, name=name: ended.append(name))
        checker.wait(checks)
    assert ended == ["first", "second"] and all(check.result().passed for check in checks)


def test_closing_stops_the_check_going_on_and_drops_those_waiting():
    exercise = COURSE.exercises["constant-offset"]
    endless = "while True:\n    pass\n"
    checker = open_checker(jobs=1, limits=Limits(timeout_s=120.0))
    checks = [checker.submit(exercise, endless) for _ in range(3)]
    checker.close()  # far sooner than the 120 s each run may take: the one going on is cancelled
    going = checks[0].result()
    assert going.diagnosis == "crash" and going.details["detail"].startswith("the run was cancelled"), going
    assert checks[1].cancelled() and checks[2].cancelled()


def _cold_check(file: Path, runtime: Path, data: Path) -> dict:
    """`attnpos check --json` in a process of its own (a cold check), its run folders and kept plans under ``runtime``."""
    environment = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "ATTNPOS_DATA_DIR": str(data)}
    command = [sys.executable, "-m", "attnpos", "check", "--json", "constant-offset", str(file)]
    result = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def test_a_cold_check_keeps_its_plan_and_a_kept_plan_changes_no_verdict(tmp_path):
    """A cold check starts its runs by the plan kept from the last one, and makes the plan meanwhile: a kept plan
    that differs (forged here: the rerun left out, so the typed-in figure would go unseen) is dropped, and the
    check is made again by the plan it made, which is kept in its place."""
    from attnpos.lessons.checker.judging import plan
    from attnpos.lessons.checker.plans import PLANS_FILE

    exercise = COURSE.exercises["constant-offset"]
    mistake = ROOT / "lessons/content/exercises/constant-offset/mistakes/mismatch__typed-noise.py"
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    plans = runtime / f"attnpos-runs-{os.getuid()}" / PLANS_FILE
    true_plan = plan(exercise).as_json()

    assert _cold_check(mistake, runtime, tmp_path / "data")["diagnosis"] == "mismatch"
    kept = json.loads(plans.read_text())
    assert [entry["constant-offset"] for entry in kept.values()] == [true_plan]

    installation = next(iter(kept))
    names, readings = true_plan
    kept[installation]["constant-offset"] = [names, readings[:1]]
    plans.write_text(json.dumps(kept))
    assert _cold_check(mistake, runtime, tmp_path / "data")["diagnosis"] == "mismatch"
    assert json.loads(plans.read_text())[installation]["constant-offset"] == true_plan
