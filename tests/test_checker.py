"""The checker: right answers in several styles pass; every diagnosis is reachable by a wrong one."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from attnpos.lessons.checking import CONTRACTS, check_source
from attnpos.lessons.loader import load_course
from attnpos.lessons.sandbox import Limits, Sandbox

SEED42 = """
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
"""

TWINS = """
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
X[0, 4] = X[0, 0]
"""

LOOP_ATTENTION = """
def attend_by_hand(X):
    T = X.shape[1]
    out = np.zeros_like(X)
    for i in range(T):
        q = X[0, i] @ Wq
        scores = np.array([q @ (X[0, j] @ Wk) for j in range(T)]) / np.sqrt(8)
        w = np.exp(scores - scores.max())
        w /= w.sum()
        out[0, i] = sum(w[j] * (X[0, j] @ Wv) for j in range(T))
    return out
"""

ORDER = """
import numpy as np
from attnpos.core import attention_output, slot_ramp, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head
X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(out_b.sum(0) - out_a.sum(0)).max()
"""
ORDER_POS = """
pos = slot_ramp(6, 8)
pooled_gap_pos = np.abs(attention_output(X_a[perm] + pos, Wq, Wk, Wv).sum(0) - attention_output(X_a + pos, Wq, Wk, Wv).sum(0)).max()
"""

RIGHT = {
    "forget-reorder": [
        SEED42 + "out = attention_output(X, Wq, Wk, Wv)\nout_perm = attention_output(X[:, perm], Wq, Wk, Wv)\nnaive_diff = np.abs(out_perm - out).max()\n",
        SEED42 + LOOP_ATTENTION + "out = attend_by_hand(X)\nout_perm = attend_by_hand(X[:, perm])\nnaive_diff = float(abs(out_perm - out).max())\n",
        SEED42.replace("RandomState(42)", "RandomState(3)").replace("[3, 0, 5, 1, 4, 2]", "[5, 4, 3, 2, 1, 0]")
        + "out = attention_output(X, Wq, Wk, Wv)\nout_perm = attention_output(X[:, perm], Wq, Wk, Wv)\nnaive_diff = round(float(np.abs(out_perm - out).max()), 9)\n",
    ],
    "constant-offset": [
        SEED42 + "pos = 0.6\nmax_diff = np.abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max()\n",
        SEED42 + "pos = np.linspace(-1, 1, 8)\nmax_diff = np.abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max()\n",
        SEED42 + "pos = np.full((1, 6, 8), 2.5)\na = attention_output(X + pos, Wq, Wk, Wv)\nb = attention_output(X[:, perm] + pos, Wq, Wk, Wv)\nmax_diff = 0.0\nfor k, p in enumerate(perm):\n    max_diff = max(max_diff, np.abs(b[0, k] - a[0, p]).max())\n",
    ],
    "identical-tokens": [
        TWINS + "pos = slot_ramp(6, 8)\nout = attention_output(X + pos, Wq, Wk, Wv)\nidentical = bool(np.allclose(out[0, 0], out[0, 4]))\n",
        TWINS + "pos = sinusoidal(6, 8)[None]\nout = attention_output(X + pos, Wq, Wk, Wv)\nidentical = np.array_equal(out[0, 0], out[0, 4])\n",
    ],
    "order-checks": [ORDER + ORDER_POS, ORDER + ORDER_POS.replace("slot_ramp(6, 8)", "np.arange(6.0)[:, None] * np.ones(8)")],
}


def replace(source: str, old: str, new: str) -> str:
    assert old in source, old
    return source.replace(old, new)


CO = RIGHT["constant-offset"][0]
FR = RIGHT["forget-reorder"][0]
IT = RIGHT["identical-tokens"][0]
OC = RIGHT["order-checks"][0]

WRONG = [
    ("constant-offset", SEED42, "missing-name", {"name": "pos"}),
    ("constant-offset", replace(CO, "max_diff = np", "max_diff = 'tiny'\nunused = np"), "bad-type", {"name": "max_diff"}),
    ("constant-offset", replace(CO, "pos = 0.6", "pos = 0.6 + 1j"), "bad-type", {"name": "pos"}),
    ("constant-offset", replace(CO, "pos = 0.6\nmax_diff", "pos = 0.6\nmax_diff = np.nan\nignored"), "bad-type", {"name": "max_diff"}),
    ("constant-offset", replace(CO, "max_diff = np", "pos = np.ones(5)\nmax_diff = np"), "error", {}),
    ("constant-offset", CO + "pos = np.ones((6, 7))\n", "bad-shape", {"name": "pos"}),
    ("constant-offset", CO + "X = np.zeros((1, 6, 0))\n", "bad-shape", {"name": "X"}),
    ("constant-offset", CO + "raise RuntimeError('boom')\n", "error", {"line": CO.count("\n") + 1}),
    ("constant-offset", replace(CO, "pos = 0.6\n", "pos = np.zeros((6, 8)\n"), "syntax-error", {}),
    ("forget-reorder", FR + "if True\n    pass\n", "syntax-error", {"line": FR.count("\n") + 1}),
    ("identical-tokens", IT + "  x = 1\n", "syntax-error", {}),
    ("order-checks", OC + "print('unclosed)\n", "syntax-error", {}),
    ("constant-offset", CO + "import os\nos._exit(3)\n", "crash", {}),
    ("constant-offset", CO + "import ctypes\nctypes.string_at(0)\n", "crash", {}),
    ("constant-offset", CO + "while True:\n    pass\n", "timeout", {}),
    ("constant-offset", CO + "hog = bytearray(4 * 1024 ** 3)\n", "memory", {}),
    ("constant-offset", replace(CO, "pos = 0.6\n", "pos = slot_ramp(6, 8)\n"), "offset-varies", {}),
    ("constant-offset", replace(CO, "pos = 0.6\n", "pos = np.zeros(8)\n"), "zero-offset", {}),
    ("constant-offset", replace(CO, "Wv)[:, perm]).max()", "Wv)).max()"), "wrong-comparison", {}),
    ("constant-offset", CO + "max_diff = 0.5\n", "mismatch", {"name": "max_diff"}),
    ("forget-reorder", replace(FR, "naive_diff = np.abs(out_perm - out).max()", "naive_diff = np.abs(out_perm - out[:, perm]).max()"), "wrong-comparison", {}),
    ("forget-reorder", replace(FR, "out = attention_output(X, Wq, Wk, Wv)\n", "out = attention_output(X, Wq, Wk, Wv)[:, perm]\n"), "wrong-comparison", {"name": "out"}),
    ("forget-reorder", FR + "out_perm = out_perm * 2\n", "mismatch", {"name": "out_perm"}),
    ("forget-reorder", FR + "perm = np.array([0, 0, 1, 2, 3, 4])\n", "bad-shape", {"name": "perm"}),
    ("forget-reorder", FR + "X = np.array(['a'], dtype=object)\n", "bad-type", {"name": "X"}),
    ("identical-tokens", IT + "X[0, 4] += 1.0\n", "tokens-differ", {}),
    ("identical-tokens", replace(IT, "pos = slot_ramp(6, 8)", "pos = 0.6"), "same-offset", {}),
    ("identical-tokens", replace(IT, "pos = slot_ramp(6, 8)", "pos = np.zeros((6, 8))"), "zero-offset", {}),
    ("identical-tokens", replace(IT, "out = attention_output(X + pos, Wq, Wk, Wv)", "out = attention_output(X, Wq, Wk, Wv) + pos"), "added-after-attention", {}),
    ("identical-tokens", replace(IT, "out = attention_output(X + pos, Wq, Wk, Wv)", "out = attention_output(X, Wq, Wk, Wv)"), "mismatch", {"name": "out"}),
    ("identical-tokens", IT + "identical = True\n", "wrong-verdict", {"got": "True"}),
    ("identical-tokens", IT + "identical = 'no'\n", "bad-type", {"name": "identical"}),
    ("identical-tokens", IT + "identical = 0\n", "bad-type", {"name": "identical"}),
    ("order-checks", replace(OC, "relist_gap = np.abs(out_b - out_a[perm]).max()", "relist_gap = np.abs(out_b - out_a).max()"), "wrong-comparison", {}),
    ("order-checks", OC + "pooled_gap = 1.0\n", "mismatch", {"name": "pooled_gap"}),
    ("order-checks", replace(OC, "pos = slot_ramp(6, 8)", "pos = np.full((6, 8), 0.6)"), "same-offset", {}),
    ("order-checks", replace(OC, "pos = slot_ramp(6, 8)", "pos = 0.0"), "zero-offset", {}),
    ("order-checks", OC + "pooled_gap_pos = np.abs((attention_output(X_a[perm], Wq, Wk, Wv) + pos).sum(0) - (out_a + pos).sum(0)).max()\n", "added-after-attention", {}),
    ("order-checks", OC + "out_b = out_a\n", "mismatch", {"name": "out_b"}),
]


@pytest.fixture(scope="module")
def course():
    return load_course()


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(max_workers=2) as box:
        yield box


LIMITS = Limits(timeout_s=2.0, memory_mb=768)


@pytest.mark.parametrize("exercise_id, source", [(e, s) for e, sources in RIGHT.items() for s in sources])
def test_right_answers_pass(course, sandbox, exercise_id, source):
    verdict = check_source(course.exercises[exercise_id], source, sandbox, LIMITS)
    assert verdict.diagnosis == "passed", (verdict.message, verdict.details)
    assert verdict.passed


@pytest.mark.parametrize("exercise_id, source, diagnosis, details", WRONG, ids=[f"{w[0]}-{w[2]}-{i}" for i, w in enumerate(WRONG)])
def test_wrong_answers_get_their_diagnosis(course, sandbox, exercise_id, source, diagnosis, details):
    exercise = course.exercises[exercise_id]
    verdict = check_source(exercise, source, sandbox, LIMITS)
    assert verdict.diagnosis == diagnosis, (verdict.message, verdict.details)
    assert not verdict.passed
    assert verdict.message and "{" not in verdict.message, verdict.message
    for key, value in details.items():
        assert (verdict.line if key == "line" else verdict.details.get(key)) == value


def test_every_diagnosis_is_reached_and_has_a_message(course):
    reached = {(e, d) for e, _, d, _ in WRONG} | {(e, "passed") for e in RIGHT}
    for exercise_id, contract in CONTRACTS.items():
        for diagnosis in contract.diagnoses:
            assert diagnosis in course.exercises[exercise_id].messages, (exercise_id, diagnosis)
    all_reached = {d for _, d in reached}
    all_declared = {d for c in CONTRACTS.values() for d in c.diagnoses}
    assert all_declared <= all_reached, all_declared - all_reached


def test_printing_passed_does_not_pass(course, sandbox):
    verdict = check_source(course.exercises["constant-offset"], SEED42 + "print('passed')\n", sandbox, LIMITS)
    assert verdict.diagnosis == "missing-name" and "passed" in verdict.output


def test_the_error_line_is_the_learners(course, sandbox):
    source = SEED42 + "pos = 0.6\nmax_diff = undefined_name\n"
    verdict = check_source(course.exercises["constant-offset"], source, sandbox, LIMITS)
    assert verdict.diagnosis == "error" and verdict.line == source.count("\n")
    assert "NameError" in verdict.details["error"]


# --- the command line -----------------------------------------------------------


def attnpos(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "attnpos", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_check_exit_codes_and_json(tmp_path):
    right = tmp_path / "right.py"
    right.write_text(CO)
    wrong = tmp_path / "wrong.py"
    wrong.write_text(CO + "max_diff = 0.5\n")
    result = attnpos("check", "constant-offset", str(right), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "exercise": "constant-offset", "file": str(right), "passed": True, "diagnosis": "passed",
        "message": json.loads(result.stdout)["message"], "details": {},
    }
    result = attnpos("check", "constant-offset", str(wrong))
    assert result.returncode == 1 and "mismatch" in result.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["check", "no-such-exercise", "x.py"], "unknown exercise"),
        (["check", "constant-offset", "missing.py"], "no such file"),
        (["grade", "constant-offset", "EMPTY"], "no .py files"),
        (["check", "constant-offset", "--timeout", "0", "x.py"], "positive"),
        (["check", "x.py"], "the exercise id comes first"),
        (["check", "x.py", "constant-offset"], "the exercise id comes first"),
    ],
)
def test_usage_errors_are_one_line(tmp_path, args, words):
    (tmp_path / "EMPTY").mkdir()
    (tmp_path / "x.py").write_text("x = 1\n")
    result = attnpos(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_grade_a_folder(tmp_path):
    for i in range(3):
        (tmp_path / f"right{i}.py").write_text(CO)
    (tmp_path / "wrong.py").write_text(replace(CO, "pos = 0.6\n", "pos = slot_ramp(6, 8)\n"))
    (tmp_path / "notes.txt").write_text("not an answer")
    result = attnpos("grade", "constant-offset", str(tmp_path), "--json", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["total"] == 4 and report["passed"] == 3
    assert {r["diagnosis"] for r in report["results"]} == {"passed", "offset-varies"}
    result = attnpos("grade", "constant-offset", str(tmp_path), "--csv")
    assert result.stdout.splitlines()[0] == "file,passed,diagnosis,message"


def test_exercise_writes_the_starter_and_never_overwrites(tmp_path):
    result = attnpos("exercise", "identical-tokens", "--dir", str(tmp_path))
    assert result.returncode == 0
    starter = tmp_path / "identical-tokens.py"
    assert "# TODO" in starter.read_text()
    starter.write_text("my work")
    result = attnpos("exercise", "identical-tokens", "--dir", str(tmp_path))
    assert result.returncode == 2 and starter.read_text() == "my work"


def test_watch_rechecks_on_save(tmp_path):
    answer = tmp_path / "a.py"
    answer.write_text(SEED42)
    process = subprocess.Popen(
        [sys.executable, "-m", "attnpos", "watch", "constant-offset", str(answer), "--interval", "0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        import time

        deadline = time.time() + 30
        seen = ""
        while "missing name" not in seen and time.time() < deadline:
            seen += process.stdout.readline()
        answer.write_text(CO)
        while "passed" not in seen and time.time() < deadline:
            seen += process.stdout.readline()
        assert "not yet: missing name" in seen and "✓ passed" in seen
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_exercises_lists_all_four():
    result = attnpos("exercises")
    for exercise_id in ("forget-reorder", "constant-offset", "identical-tokens", "order-checks"):
        assert exercise_id in result.stdout


def test_hints_come_one_at_a_time():
    result = attnpos("hint", "constant-offset", "2")
    assert result.returncode == 0 and "Hint 2 of" in result.stdout and "hint constant-offset 3" in result.stdout
    assert attnpos("hint", "constant-offset", "99").returncode == 2


def test_course_check_catches_a_broken_exercise(course, sandbox):
    from dataclasses import replace as changed

    from attnpos.lessons.checking import exercise_problems

    good = course.exercises["constant-offset"]
    broken = changed(good, solution=good.starter, messages={k: v for k, v in good.messages.items() if k != "zero-offset"})
    problems = exercise_problems({"constant-offset": broken}, sandbox)
    assert any("no message for the diagnosis 'zero-offset'" in p for p in problems)
    assert any("solution.py does not pass" in p for p in problems)
    assert exercise_problems({"constant-offset": good}, sandbox) == []
