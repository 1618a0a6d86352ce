"""The checker: right answers in several styles pass; every diagnosis is reachable by a wrong one."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attnpos.lessons.checker import CONTRACTS, Limits
from attnpos.lessons.course.loader import load_course

SEED42 = """
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
"""

COURSE = load_course()


def right_answer(exercise_id: str, style: str) -> str:
    """One of the exercise's right answers, kept as content in lessons/content/exercises/<id>/right/."""
    return COURSE.exercises[exercise_id].right[f"{style}.py"]


def replace(source: str, old: str, new: str) -> str:
    assert old in source, old
    return source.replace(old, new)


CO = right_answer("constant-offset", "scalar-offset")
FR = right_answer("forget-reorder", "attention-output")
IT = right_answer("identical-tokens", "ramp-allclose")
OC = right_answer("order-checks", "slot-ramp")

# What a verdict says beside its diagnosis (the name, the line, the value it got), on the
# checker's general paths. Each exercise's own wrong answers are content: its mistakes/.
DETAILS = [
    ("constant-offset", SEED42, "missing-name", {"name": "pos"}),
    ("constant-offset", replace(CO, "max_diff = np", "max_diff = 'tiny'\nunused = np"), "bad-type", {"name": "max_diff"}),
    ("constant-offset", replace(CO, "pos = 0.6", "pos = 0.6 + 1j"), "bad-type", {"name": "pos"}),
    ("constant-offset", replace(CO, "pos = 0.6\nmax_diff", "pos = 0.6\nmax_diff = np.nan\nignored"), "bad-type", {"name": "max_diff"}),
    ("constant-offset", CO + "pos = np.ones((6, 7))\n", "bad-shape", {"name": "pos"}),
    ("constant-offset", CO + "X = np.zeros((1, 6, 0))\n", "bad-shape", {"name": "X"}),
    ("constant-offset", CO + "raise RuntimeError('boom')\n", "error", {"line": CO.count("\n") + 1}),
    ("forget-reorder", FR + "if True\n    pass\n", "syntax-error", {"line": FR.count("\n") + 1}),
    ("constant-offset", CO + "max_diff = 0.5\n", "mismatch", {"name": "max_diff"}),
    (
        "forget-reorder",
        replace(FR, "out = attention_output(X, Wq, Wk, Wv)\n", "out = attention_output(X, Wq, Wk, Wv)[:, perm]\n"),
        "wrong-comparison",
        {"name": "out"},
    ),
    ("forget-reorder", FR + "out_perm = out_perm * 2\n", "mismatch", {"name": "out_perm"}),
    ("forget-reorder", FR + "perm = np.array([0, 0, 1, 2, 3, 4])\n", "bad-shape", {"name": "perm"}),
    ("forget-reorder", FR + "X = np.array(['a'], dtype=object)\n", "bad-type", {"name": "X"}),
    ("identical-tokens", replace(IT, "out = attention_output(X + pos, Wq, Wk, Wv)", "out = attention_output(X, Wq, Wk, Wv)"), "mismatch", {"name": "out"}),
    ("identical-tokens", IT + "identical = True\n", "wrong-verdict", {"got": "True"}),
    ("identical-tokens", IT + "identical = 'no'\n", "bad-type", {"name": "identical"}),
    ("identical-tokens", IT + "identical = 0\n", "bad-type", {"name": "identical"}),
    ("order-checks", OC + "pooled_gap = 1.0\n", "mismatch", {"name": "pooled_gap"}),
    ("order-checks", OC + "out_b = out_a\n", "mismatch", {"name": "out_b"}),
]


@pytest.fixture(scope="module")
def course():
    return COURSE


# The checker's own time limit, as every learner gets it: alibi's rerun of one head and 600 tokens takes a loop answer
# 0.25 s of CPU on a quiet core, and a check's runs share CI's two cores with two other workers.
LIMITS = Limits(memory_mb=768)
# An endless loop named timeout__ is timed out whatever the limit, and spins a core until it is: half a second.
ENDLESS_LIMITS = Limits(timeout_s=0.5, memory_mb=768)


def limits_for(file_name: str) -> Limits:
    return ENDLESS_LIMITS if file_name.startswith("timeout__") else LIMITS


RIGHT = [(e.id, name, source) for e in COURSE.exercises.values() for name, source in [("solution.py", e.solution), *sorted(e.right.items())]]


def test_the_exercises_files_have_no_problem_lessons_check_would_name(course):
    """What `attnpos lessons --check` asks of the files before it runs them; the runs are the tests below and beside."""
    from attnpos.lessons.authoring.exercise_scripts import exercise_file_problems

    assert exercise_file_problems(course.exercises) == []


@pytest.mark.parametrize("exercise_id", list(COURSE.exercises))
def test_no_starter_passes(course, checker, exercise_id):
    verdict = checker.check(course.exercises[exercise_id], course.exercises[exercise_id].starter, limits=LIMITS)
    from attnpos.lessons.checker.verdicts import CHECKER_ERROR

    assert not verdict.passed and verdict.diagnosis != CHECKER_ERROR, verdict.message


@pytest.mark.parametrize("exercise_id, file_name, source", RIGHT, ids=[f"{e}/{n}" for e, n, _ in RIGHT])
def test_right_answers_pass(course, checker, exercise_id, file_name, source):
    verdict = checker.check(course.exercises[exercise_id], source, limits=LIMITS)
    assert verdict.diagnosis == "passed", (verdict.message, verdict.details)
    assert verdict.passed


@pytest.mark.parametrize("exercise_id, source, diagnosis, details", DETAILS, ids=[f"{w[0]}-{w[2]}-{i}" for i, w in enumerate(DETAILS)])
def test_wrong_answers_get_their_diagnosis_and_details(course, checker, exercise_id, source, diagnosis, details):
    exercise = course.exercises[exercise_id]
    verdict = checker.check(exercise, source, limits=LIMITS)
    assert verdict.diagnosis == diagnosis, (verdict.message, verdict.details)
    assert not verdict.passed
    assert verdict.message and "{" not in verdict.message, verdict.message
    for key, value in details.items():
        assert (verdict.line if key == "line" else verdict.details.get(key)) == value


MISTAKES = [(e.id, name, source) for e in COURSE.exercises.values() for name, source in sorted(e.mistakes.items())]


@pytest.mark.parametrize("exercise_id, file_name, source", MISTAKES, ids=[f"{e}/{n}" for e, n, _ in MISTAKES])
def test_every_mistake_gets_the_diagnosis_it_is_named_by(course, checker, exercise_id, file_name, source):
    verdict = checker.check(course.exercises[exercise_id], source, limits=limits_for(file_name))
    assert verdict.diagnosis == file_name.split("__")[0], (verdict.message, verdict.details)
    assert verdict.message and "{" not in verdict.message and "  " not in verdict.message, verdict.message
    assert not any(gap in verdict.message for gap in (" ,", " .", "with ,", "()")), verdict.message  # no field left empty


def test_every_diagnosis_is_reached_by_a_mistake_and_has_a_message(course):
    assert course.exercises
    for exercise_id, exercise in course.exercises.items():
        contract = CONTRACTS[exercise.contract]
        reached = {name.split("__")[0] for name in exercise.mistakes} | {"passed"}
        assert set(contract.every_diagnosis) == reached, (exercise_id, set(contract.every_diagnosis) ^ reached)
        assert all(d in exercise.messages for d in contract.every_diagnosis), exercise_id


@pytest.mark.parametrize(
    "exercise_id, source, words",
    [
        ("constant-offset", SEED42 + "X = X[:, :1]\npos = 0.6\nmax_diff = 0.0\n", "`X` has shape (1, 1, 8), but at least 2 tokens are needed."),
        ("constant-offset", replace(CO, "perm = np.array([3, 0, 5, 1, 4, 2])", "perm = np.array([3, 0, 3, 1, 4, 2])"), "`perm` lists 3 twice and never 5."),
        ("constant-offset", replace(CO, "perm = np.array([3, 0, 5, 1, 4, 2])", "perm = np.arange(6)"), "`perm` leaves every token where it is"),
        ("constant-offset", CO + "perm = np.array([3, 0, 5, 1, 4, 9])\n", "`perm` holds 9, but the tokens are numbered 0 … 5."),
        ("constant-offset", CO + "print(X[0, 9])\n", "indexes past the end"),
        ("forget-reorder", FR + "out_perm = out_perm * 2\n", "out_perm is the attention output of the shuffled tokens"),
    ],
)
def test_messages_read_right(course, checker, exercise_id, source, words):
    verdict = checker.check(course.exercises[exercise_id], source, limits=LIMITS)
    assert words in verdict.message, verdict.message
    assert "shape shape" not in verdict.message and "offset" not in verdict.message.split(words)[-1] or exercise_id != "constant-offset"


def test_a_rounded_figure_is_shown_with_the_digits_that_differ(course, checker):
    source = OC + "pooled_gap_pos = float(f'{pooled_gap_pos:.3g}')  # copied from a print\n"
    verdict = checker.check(course.exercises["order-checks"], source, limits=LIMITS)
    expected, got = verdict.details["expected"], verdict.details["got"]
    assert verdict.diagnosis == "mismatch" and expected != got and len(expected) > len(got), verdict.details
    assert f"{float(expected):.3g}" == got  # the same figure to three digits: the rounding is what is wrong


def test_the_identity_shuffle_gets_no_advice_about_offsets(course, checker):
    verdict = checker.check(course.exercises["constant-offset"], replace(CO, "perm = np.array([3, 0, 5, 1, 4, 2])", "perm = np.arange(6)"), limits=LIMITS)
    assert verdict.diagnosis == "bad-shape" and "offset" not in verdict.message, verdict.message


def test_a_saturating_offset_is_indistinct_never_a_pass(course, checker):
    """Rows 0 and 4 come out equal although the offsets differ: a typed True would give the same figures, so it cannot pass."""
    source = replace(IT, "pos = slot_ramp(6, 8)", "pos = 1000 * slot_ramp(6, 8)")
    verdict = checker.check(course.exercises["identical-tokens"], source, limits=LIMITS)
    assert verdict.diagnosis == "indistinct" and verdict.details.get("cause") == "typed-identical", verdict
    assert "softmax puts nearly all weight on one slot" in verdict.message and "0.6·(t + 1)" in verdict.message


def test_a_bug_in_a_judge_is_a_checker_error_never_the_learners(course, checker, monkeypatch):

    def broken(runs):
        return 1 / 0

    from msgspec.structs import replace as changed

    from attnpos.lessons.authoring.exercise_scripts import exercise_problems

    exercise = course.exercises["constant-offset"]
    monkeypatch.setitem(CONTRACTS, exercise.contract, changed(CONTRACTS[exercise.contract], judge=broken))
    verdict = checker.check(exercise, CO, limits=LIMITS)
    assert verdict.diagnosis == "checker-error" and not verdict.passed
    assert "ZeroDivisionError" in verdict.message and "bug in attnpos" in verdict.message

    # The solution and the starter are enough to see it: each of the exercise's 35 other scripts would fail the same way.
    scripts = changed(exercise, mistakes={}, right={})
    assert any("the checker failed" in p for p in exercise_problems({"constant-offset": scripts}, checker))


def test_printing_passed_does_not_pass(course, checker):
    verdict = checker.check(course.exercises["constant-offset"], SEED42 + "print('passed')\n", limits=LIMITS)
    assert verdict.diagnosis == "missing-name" and "passed" in verdict.output


def test_the_error_line_is_the_learners(course, checker):
    source = SEED42 + "pos = 0.6\nmax_diff = undefined_name\n"
    verdict = checker.check(course.exercises["constant-offset"], source, limits=LIMITS)
    assert verdict.diagnosis == "error" and verdict.line == source.count("\n")
    assert "NameError" in verdict.details["error"]


# --- the command line -----------------------------------------------------------


def test_check_exit_codes_and_json(tmp_path, attnpos, course):
    right = tmp_path / "right.py"
    right.write_text(CO)
    wrong = tmp_path / "wrong.py"
    wrong.write_text(CO + "max_diff = 0.5\n")
    result = attnpos("check", "constant-offset", str(right), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "exercise": "constant-offset",
        "file": str(right),
        "passed": True,
        "diagnosis": "passed",
        "message": course.exercises["constant-offset"].messages["passed"],
        "details": {},
        "confinement": json.loads(result.stdout)["confinement"],
    }
    assert set(json.loads(result.stdout)["confinement"]) == {"landlock", "seccomp", "bwrap"}
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
def test_usage_errors_are_one_line(tmp_path, monkeypatch, attnpos, args, words):
    (tmp_path / "EMPTY").mkdir()
    (tmp_path / "x.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    result = attnpos(*args)
    assert result.returncode == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_grade_a_folder(tmp_path, attnpos):
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
    assert result.stdout.splitlines()[0] == "file,passed,diagnosis,message,confinement"


def test_exercise_writes_the_starter_and_never_overwrites(tmp_path, attnpos):
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
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
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


def test_exercises_lists_every_exercise(attnpos, course):
    result = attnpos("exercises")
    for exercise_id in course.exercises:
        assert exercise_id in result.stdout


def test_hints_come_one_at_a_time(attnpos):
    result = attnpos("hint", "constant-offset", "2")
    assert result.returncode == 0 and "Hint 2 of" in result.stdout and "a stronger one: attnpos hint constant-offset" in result.stdout
    assert "Hint 1 of" in result.stdout  # the nudge first: it was not shown before
    assert attnpos("hint", "constant-offset", "99").returncode == 2


def test_course_check_catches_a_broken_exercise(course, checker):
    from msgspec.structs import replace as changed

    from attnpos.lessons.authoring.exercise_scripts import exercise_problems

    good = course.exercises["constant-offset"]
    # Without its mistakes and right answers (lessons --check then also says no script gets each diagnosis): the
    # solution is the one script this needs, and the good exercise below runs all of them.
    broken = changed(good, solution=good.starter, messages={k: v for k, v in good.messages.items() if k != "zero-offset"}, mistakes={}, right={})
    problems = exercise_problems({"constant-offset": broken}, checker)
    assert any("no message for the diagnosis 'zero-offset'" in p for p in problems)
    assert any("solution.py does not pass" in p for p in problems)
    assert exercise_problems({"constant-offset": good}, checker) == []


# --- properties: over seeds, shapes, dtypes and shuffles -------------------------------

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def setup_lines(B, T, C, hs, dtype, seed, perm):
    """The setup lines of an answer: X (B, T, C), a head of size hs, a shuffle that moves a token."""
    return f"""
import numpy as np
from attnpos.core import attention_output
rng = np.random.default_rng({seed})
X = rng.standard_normal(({B}, {T}, {C})).astype(np.{dtype})
Wq, Wk = (0.5 * rng.standard_normal(({C}, {hs})).astype(np.{dtype}) for _ in range(2))
Wv = 0.5 * rng.standard_normal(({C}, {C})).astype(np.{dtype})
perm = {list(perm)}
"""


@st.composite
def setups(draw, min_tokens=2):
    """The setup lines of a random answer (see setup_lines), with T and C."""
    T = draw(st.integers(min_tokens, 7))
    perm = draw(st.permutations(range(T)).filter(lambda p: list(p) != list(range(T))))
    B, C, hs = draw(st.integers(1, 3)), draw(st.integers(2, 9)), draw(st.integers(1, 9))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    seed = draw(st.integers(0, 2**31))
    return setup_lines(B, T, C, hs, dtype, seed, perm), T, C


OFFSET_MUTATIONS = {
    "right": ("X[:, perm] + pos", "attention_output(X + pos, Wq, Wk, Wv)[:, perm]", "passed"),
    "never-added": ("X[:, perm]", "attention_output(X, Wq, Wk, Wv)[:, perm]", "mismatch"),
    "moved": ("(X + pos)[:, perm]", "attention_output(X + pos, Wq, Wk, Wv)[:, perm]", "moved-with-tokens"),
    "unreordered": ("X[:, perm] + pos", "attention_output(X + pos, Wq, Wk, Wv)", "wrong-comparison"),
}


def _mistakes_left_unseparated(source: str, exercise: str) -> list[str]:
    """The anticipated mistakes that the script's own arrays, on its run and its rerun (both run here), cannot tell from the right answer."""
    from attnpos.lessons.checker.contracts import CONTRACTS
    from attnpos.lessons.checker.rerun import rewrite
    from attnpos.lessons.checker.separation import RIGHT, every_reading, unseparated

    contract = CONTRACTS[exercise]
    runs = []
    for script in (source, *(rewrite(source, planned.replacements) for planned in contract.reruns)):
        namespace: dict = {}
        exec(script, namespace)
        runs.append({name: np.asarray(namespace[name]) for name in contract.names})
    readings = every_reading(contract.hypotheses, contract.typed, [planned.changed_names for planned in contract.reruns], runs[0], runs[1:])
    pairs = unseparated(readings, contract.told_by_source, only=RIGHT)
    return [name for pair in pairs for name in pair if name != RIGHT and name not in contract.seen_only]


@settings(max_examples=12, deadline=None)
@given(setup=setups(), value=st.floats(-3, 3).filter(lambda v: abs(v) > 0.01), mutation=st.sampled_from(list(OFFSET_MUTATIONS)))
# Found by Hypothesis: under the rerun's varying offset, the gap with a stale copy of perm ([0, 3, 1, 2]) came within
# float32's tolerance of the right gap (4.1105 and 4.1109), and the right answer got `indistinct`. A stale perm is the
# right gap of the learner's own shuffle, no mistake; the right answer passes.
@example(setup=(setup_lines(3, 4, 8, 3, "float32", 134685713, [0, 3, 1, 2]), 4, 8), value=1.0, mutation="right")
# A real mistake the float32 arrays cannot tell: pos added after attention gives 2.467 on the rerun, the right gap 2.478,
# within the float32 bound of 0.026 (about 1 float32 setup in 250): `indistinct`, never `passed`.
@example(setup=(setup_lines(1, 7, 9, 4, "float32", 982623627, [5, 0, 4, 2, 3, 6, 1]), 7, 9), value=1.9674262954868746, mutation="right")
# A mistake whose float32 arrays cannot tell it from the right answer: the gap left unreordered and the right gap lie
# within float32's bound of each other (two tokens, one wide head). `indistinct` is as true as `wrong-comparison`.
@example(setup=(setup_lines(1, 2, 9, 9, "float32", 1183, [1, 0]), 2, 9), value=1.0, mutation="unreordered")
def test_constant_offset_property(course, checker, setup, value, mutation):
    lines, T, C = setup
    shuffled, reference, diagnosis = OFFSET_MUTATIONS[mutation]
    source = lines + f"pos = {value!r}\nmax_diff = np.abs(attention_output({shuffled}, Wq, Wk, Wv) - {reference}).max()\n"
    verdict = checker.check(course.exercises["constant-offset"], source, limits=LIMITS)
    expected = {diagnosis}
    if _mistakes_left_unseparated(source, "constant-offset"):
        assert "float32" in lines  # float64's bound is far tighter than any two hypotheses' distance
        # The right answer is never passed on arrays that cannot tell it from a mistake; a mistake may still be named.
        expected = {"indistinct"} if mutation == "right" else {diagnosis, "indistinct"}
    assert verdict.diagnosis in expected, (verdict.message, verdict.details)


@settings(max_examples=12, deadline=None)
@given(setup=setups(), typed=st.booleans())
# Found by Hypothesis: a float32 sentence with a shuffle that is its own inverse ([0, 1, 3, 2]) gives the right gap and
# the gap reordered by the inverse within float32's bound: the right answer is `indistinct` there, never `passed`.
@example(setup=(setup_lines(2, 4, 9, 5, "float32", 2198517, [0, 1, 3, 2]), 4, 9), typed=False)
def test_forget_reorder_property(course, checker, setup, typed):
    lines, T, C = setup
    figure = "2.5" if typed else "np.abs(out_perm - out).max()"
    source = lines + f"out = attention_output(X, Wq, Wk, Wv)\nout_perm = attention_output(X[:, perm], Wq, Wk, Wv)\nnaive_diff = {figure}\n"
    verdict = checker.check(course.exercises["forget-reorder"], source, limits=LIMITS)
    expected = "mismatch" if typed else "passed"
    if not typed and _mistakes_left_unseparated(source, "forget-reorder"):
        assert "float32" in lines  # float64's bound is far tighter than any two hypotheses' distance
        expected = "indistinct"
    assert verdict.diagnosis == expected, (verdict.message, verdict.details)


TWIN_MUTATIONS = {
    "right": ("attention_output(X + pos, Wq, Wk, Wv)", "passed"),
    "after": ("attention_output(X, Wq, Wk, Wv) + pos", "added-after-attention"),
    "never-added": ("attention_output(X, Wq, Wk, Wv)", "mismatch"),
}


def _twin_readings(namespace: dict, rows: tuple[int, int]) -> list[bool]:
    """Whether the right out's rows ``rows`` are equal to rounding on each run the checker makes: as written, slot 4 given
    slot 0's offset, Wq of zeros (the contract's rule, recomputed here from the script's own arrays)."""
    from attnpos.lessons.checker.values import Head, dtype_roundoff, head_precision

    names = ("X", "Wq", "Wk", "Wv", "pos", "out")
    roundoff = dtype_roundoff({n: np.asarray(namespace[n]) for n in names}, names)  # the checker's: the least precise dtype
    X, Wq, Wk, Wv, pos = (np.asarray(namespace[n], dtype=np.float64) for n in names[:5])
    twin_pos = pos.copy()
    twin_pos[..., 4, :] = pos[..., 0, :]
    readings = []
    for q, p in ((Wq, pos), (Wq, twin_pos), (np.zeros_like(Wq), pos)):
        head = Head(X, q, Wk, Wv)
        out = head.attend(X + p)
        readings.append(float(np.max(np.abs(out[..., rows[0], :] - out[..., rows[1], :]))) <= head_precision(head, p, roundoff).gap)
    return readings


@settings(max_examples=12, deadline=None)
@given(setup=setups(min_tokens=5), step=st.floats(0.1, 2), mutation=st.sampled_from(list(TWIN_MUTATIONS)))
# Found by Hypothesis: rows 0 and 4 differ by 1.17e-05 (rounding: 7e-09) and np.allclose says True; the checker said wrong-verdict.
@example(setup=(setup_lines(3, 7, 7, 9, "float64", 1530803739, [1, 0, 2, 3, 4, 5, 6]), 7, 7), step=1.6239652387830352, mutation="right")
# Found by Hypothesis: rows 1 and 5 come out equal to rounding on both reruns and differ on the first run, like rows 0 and 4.
@example(setup=(setup_lines(3, 6, 9, 7, "float64", 1150935983, [1, 0, 2, 3, 4, 5]), 6, 9), step=1.942230135900536, mutation="right")
def test_identical_tokens_property(course, checker, setup, step, mutation):
    lines, T, C = setup
    expression, diagnosis = TWIN_MUTATIONS[mutation]
    source = lines + (
        f"X[:, 4] = X[:, 0]\npos = {step!r} * (np.arange({T})[:, None] + 1.0) * np.ones({C})\n"
        f"out = {expression}\nidentical = bool(np.allclose(out[:, 0], out[:, 4]))\n"
    )
    verdict = checker.check(course.exercises["identical-tokens"], source, limits=LIMITS)
    namespace: dict = {}
    exec(source, namespace)  # the test's own script: which hypotheses do its arrays leave unseparated?
    if mutation == "right":
        twins = _twin_readings(namespace, (0, 4))  # the right identical on each run: False, True, True where they tell
        if twins[0] or namespace["identical"]:
            diagnosis = "indistinct"  # True on every run, as a typed True would be (rows equal to rounding, or np.allclose's rtol)
        elif T > 5 and _twin_readings(namespace, (1, 5)) == twins:
            diagnosis = "indistinct"  # comparing rows 1 and 5 gives the same identical on every run
    assert verdict.diagnosis == diagnosis, (verdict.message, verdict.details)


@settings(max_examples=200, deadline=None)
@given(setup=setups(), signal=st.floats(-2, 2))
def test_float32_heads_sit_inside_the_derived_bound(setup, signal):
    """An honest float32 head (own softmax) is within the bound the checker derives, and the bound is not vacuous."""
    from attnpos.lessons.checker.values import Head, head_precision

    lines, T, C = setup
    namespace: dict = {}
    exec(lines, namespace)
    X, Wq, Wk, Wv = (np.asarray(namespace[n], dtype=np.float32) for n in ("X", "Wq", "Wk", "Wv"))
    X = X + np.float32(signal)  # an offset added in float32 too
    q, k, v = X @ Wq, X @ Wk, X @ Wv
    s = q @ np.swapaxes(k, -1, -2) / np.float32(np.sqrt(Wq.shape[1]))
    w = np.exp(s - s.max(-1, keepdims=True))
    out32 = (w / w.sum(-1, keepdims=True)) @ v
    head = Head(*(a.astype(np.float64) for a in (X, Wq, Wk, Wv)))
    precision = head_precision(head, 0.0, np.finfo(np.float32).eps / 2)
    expected = head.attend(head.X)
    assert np.max(np.abs(out32 - expected)) <= precision.array
    # Not vacuous: a mistake moves outputs by a good part of their size; the bound stays a few percent of it.
    assert precision.array < 0.03 * np.max(np.abs(expected))


# --- learner scripts written by people who never saw the checker -----------------------

LEARNER_SCRIPTS = sorted((Path(__file__).parent / "learner_scripts").glob("*/*.py"))


@pytest.mark.parametrize("path", LEARNER_SCRIPTS, ids=[f"{p.parent.name}/{p.name}" for p in LEARNER_SCRIPTS])
def test_learner_scripts_get_the_verdict_a_teacher_expects(course, checker, path):
    """An adversarial walk-through's scripts, each named by the verdict its writer expected from the exercise text."""
    verdict = checker.check(course.exercises[path.parent.name], path.read_text(), limits=limits_for(path.name))
    assert verdict.diagnosis == path.name.split("__")[0], (verdict.message, verdict.details)


# --- what each message says: the figures it quotes and the cause it names ----------------------

MEANINGS = [
    # (exercise, mistake file, cause, words the message must hold, words it must not)
    # brief-only round 3 (briefonly3/FINDINGS.md): the signal the brief names, and what a message blames
    ("three-families", "mismatch__pos-random-table.py", "pos-not-sinusoidal", ["not the sinusoidal table", "sinusoidal(T, C)"], []),
    ("three-families", "mismatch__pos-from-slot-one.py", "pos-from-one", ["counted from slot 1", "slot 0"], []),
    ("three-families", "mismatch__slope-typed-in-bias.py", "slope-typed", ["slope typed in (0.5)", "a slope 4,096 times fainter"], []),
    ("three-families", "not-causal__zeros-and-a-causal-flag.py", "all-zero", ["is all zeros", "causal flag"], ["0/1 mask"]),
    ("t5-buckets", "sign-flipped__upper-half-on-keys-behind.py", "upper-half", ["upper half of the buckets (16 and up)", "Δ > 0"], ["query − key:"]),
    ("learned-positions", "length-check__bound-typed-as-8.py", "refuses-longer-table", ["exactly 11 tokens", "a length typed in (the starter's 8)"], []),
    ("alibi", "error__heads-on-the-last-axis.py", "axes-order", ["axes come in different orders", "slopes[None, None, :]` puts them last"], ["need two new"]),
    ("embedding-backward", "mismatch__out-and-gradient-written-out.py", "literal", ["typed in, an array of numbers written out"], ["2 and 5"]),
    ("embedding-backward", "changed-input__update-step-after-lookup.py", "", ["changed after using them", "`wte` no longer held what it was given"], []),
    ("permutation-matrix", "mismatch__borrowed-attention-output.py", "borrowed", ["from attnpos", "softmax the starter imports"], []),
    ("forget-reorder", "wrong-comparison__inverse-reorder.py", "inverse", ["inverse of perm", "ith the checker's rerun"], ["Well done"]),
    ("forget-reorder", "mismatch__own-head-without-scale.py", "unscaled", ["√d_k", "np.sqrt(8)"], ["off by up to"]),
    ("forget-reorder", "error__module-not-found.py", "import", ["could not be imported", "line 10"], []),
    ("forget-reorder", "indistinct__zero-head.py", "zero-head", ["Wv is all zeros"], []),
    ("identical-tokens", "mismatch__verdict-from-offsets.py", "from-pos", ["compares the offsets, not the outputs", "`Wq` set to zeros"], []),
    ("identical-tokens", "mismatch__own-head-without-scale.py", "unscaled", ["√d_k", "np.sqrt(8)"], ["is the attention output of X + pos"]),
    ("identical-tokens", "memory__single-huge-allocation.py", "allocation", ["Line 12", "358. GiB"], ["loop that keeps growing"]),
    ("identical-tokens", "indistinct__saturated.py", "typed-identical", ["softmax puts nearly all weight on one slot"], []),
    ("identical-tokens", "indistinct__zero-head.py", "zero-head", ["Wv is all zeros"], []),
    ("constant-offset", "wrong-comparison__inverse-permutation.py", "inverse", ["inverse of perm"], ["as it is"]),
    ("constant-offset", "wrong-comparison__not-reordered.py", "unreordered", ["as it is"], ["inverse"]),
    ("constant-offset", "zero-offset__integer-array.py", "integer", ["integer array (int64)", "0.6 became 0"], ["Pick any non-zero value"]),
    ("constant-offset", "offset-varies__only-at-fixed-slot.py", "unseen", ["slot 4", "does not show it"], ["the gap grows"]),
    ("constant-offset", "error__batch-axis-forgotten.py", "batch-axis", ["Line 12", "batch", "out[0, k]"], ["Token indices run from 0"]),
    ("constant-offset", "indistinct__zero-head.py", "zero-head", ["Wv is all zeros"], []),
    ("constant-offset", "indistinct__half-precision.py", "precision", ["float16"], []),
    ("order-checks", "mismatch__typed-zeros.py", "not-from-arrays", ["relist_gap (0)", "8.88e-16", "out_a and out_b"], []),
    ("order-checks", "syntax-error__python2-print.py", "print", ["line 14", "print(x)"], ["unclosed bracket"]),
    ("order-checks", "indistinct__zero-head.py", "zero-head", ["Wv is all zeros"], []),
    ("embedding-backward", "error__add-at-arguments.py", "index-type", ["not whole", "np.add.at(grad_wte, ids, grad_out)"], ["past the end"]),
    ("embedding-backward", "batch-not-summed__divided-by-batch.py", "mean", ["divides by the batch size", "sum over the batch"], ["off by up to"]),
    ("embedding-backward", "rerun-failed__asserts-on-ids.py", "assert", ["an assert of yours", "puts other ids in their place"], ["ids.shape"]),
    ("sinusoidal-table", "error__row-ranges-unequal.py", "row-ranges", ["two row ranges of different lengths", "pe[:T - k]"], ["column (T, 1)"]),
    ("sinusoidal-table", "rerun-failed__asserts-width.py", "assert", ["an assert of yours"], ["typing 12, 8 or 4"]),
    ("sinusoidal-table", "rerun-failed__rows-bounded-by-the-width.py", "sized", ["types none of the starter's", "(47,98) (48,98)"], ["types in"]),
    ("sinusoidal-table", "rerun-failed__length-typed-in-the-zeros.py", "typed-size", ["the starter's 12 for T", "into shape (12,"], ["8 for C"]),
    # brief-only round 19: a self-check assert on shift_error, an own raise after every name, a figure of float32 copies
    ("sinusoidal-table", "rerun-failed__asserts-the-shift-error.py", "assert-on-values", ["kept your own T, C and k", "shift does not hold"], ["sizes"]),
    ("sinusoidal-table", "rerun-failed__raises-after-the-names.py", "raised-after-names", ["RuntimeError: M does not shift", "right on every run"], ["typing"]),
    ("sinusoidal-table", "mismatch__error-on-float32-copies.py", "narrower-copy", ["float32 copies", "(5.96e-08)", "give 1.11e-16"], ["rerun"]),
    ("sinusoidal-table", "rerun-failed__table-typed-in.py", "typed-table", ["types the table in", "(size 12 is different from 8)"], ["types none"]),
    ("sinusoidal-table", "rerun-failed__frequencies-typed-in.py", "typed-per-pair", ["a list of 4 numbers", "(14,4) into shape (14,6)"], ["types none"]),
    (
        "sinusoidal-table",
        "mismatch__error-from-a-rebuilt-table.py",
        "shift-figure-unbent",
        ["did not see the bend", "from another array"],
        ["does not follow them"],
    ),
    ("learned-positions", "truncated__cut-to-the-table.py", "", ["instead of refusing", "returned 8 positions", "cutting"], ["table lookup", "wrap"]),
    ("learned-positions", "error__refuses-with-typeerror.py", "own-raise", ["TypeError: too long", "ValueError (or IndexError)"], ["print its type"]),
    ("learned-positions", "error__refuses-with-assert.py", "own-raise", ["AssertionError", "ValueError (or IndexError)"], []),
    ("learned-positions", "bad-type__too-long-returns-none.py", "none", ["is None", "there instead of returning"], ["NoneType"]),
    ("learned-positions", "rerun-failed__asserts-printed-value.py", "assert", ["an assert of yours", "puts others in their place"], ["typing 3 and 5"]),
    ("learned-positions", "mismatch__borrowed-lookup.py", "borrowed", ["from attnpos", "with NumPy"], []),
    # issue 25's writers: the fundamental mistake, in the learner's own terms
    ("alibi", "mismatch__typed-slopes-eight-digits.py", "typed", ["does not follow `n_heads`", "numbers typed into your script"], ["largest difference"]),
    ("alibi", "after-softmax__masked-then-renormalised.py", "renormalised", ["after the softmax", "divide each row by its sum"], ["along the last axis"]),
    ("alibi", "after-softmax__softmax-twice.py", "twice", ["after a first softmax", "softmax again"], ["along the last axis"]),
    ("alibi", "mismatch__mask-on-earlier-keys.py", "wrong-triangle", ["wrong triangle", "earlier keys (j < i)"], ["largest difference"]),
    (
        "alibi",
        "mismatch__diagonal-masked.py",
        "hides-diagonal",
        ["hides each query's own key, the diagonal j = i"],
        ["largest difference", "at or before its query"],
    ),
    ("alibi", "mask-forgotten__mask-only-in-weights.py", "in-weights", ["`weights` are right", "in `bias` itself"], ["the higher its score"]),
    ("context-extension", "indistinct__half-precision.py", "precision", ["float16's precision, not your method"], ["typed in"]),
    ("rope", "changed-input__wv-zeroed.py", "before-use", ["changes `Wv`", "not the one the exercise gives"], []),
    # issue 35's writers, who saw only the briefs: what the learner did, with figures said to be theirs or the rerun's
    ("embedding-backward", "bad-shape__bincount-without-minlength.py", "bincount-short", ["shape (12, 8)", "checker's rerun", "minlength"], []),
    (
        "embedding-backward",
        "changed-input__ids-replaced-before-use.py",
        "before-use",
        ["changes `ids`", "`ids[0, 0]` was 3 as given, and 0"],
        ["typing 2 and 5"],
    ),
    ("embedding-backward", "buffered-add__repeats-only-across-sentences.py", "per-sequence", ["appears 4 times in the ids of the checker's rerun"], []),
    ("embedding-backward", "buffered-add__fancy-index-plus-equals.py", "", ["appears 3 times in your ids"], ["rerun"]),
    (
        "learned-positions",
        "by-token-id__gradient-only.py",
        "gradient",
        ["Your x looks up rows 0 … T − 1 of wpe, as it should", "grad_out.sum(axis=0)"],
        ["wpe[np.arange(T)]"],
    ),
    (
        "learned-positions",
        "length-check__numpy-refuses-instead.py",
        "missing-broadcast",
        ["refused by NumPy, not by you", "a slice such as wpe[:T]"],
        ["Well done"],
    ),
    (
        "learned-positions",
        "length-check__refuses-max-len.py",
        "refuses-max-len",
        ["exactly 11 tokens", "T > wpe.shape[0], the length of the table"],
        ["T > max_len"],
    ),
    (
        "sinusoidal-table",
        "sign-flipped__no-minus.py",
        "",
        ["C = 8", "1,000 radians", "1/1,000", "lost its minus sign, or your positions are divided"],
        ["10000 radians", "nearly 10000"],
    ),
    # brief-only round 15: the same table from t / w_i, the minus sign kept: the source shows the division
    (
        "sinusoidal-table",
        "sign-flipped__divides-by-frequency.py",
        "divided",
        ["keep their minus sign", "divides by them (`t / w`)"],
        ["has lost its minus sign"],
    ),
    ("rope", "mismatch__typed-positions.py", "positions-ignored", ["stayed as it was", "typed in"], ["not by a range you build yourself"]),
    ("rope", "mismatch__sign-inside-rotate-half.py", "reversed", ["inside rotate_half", "[−x2, x1]"], []),
    # brief-only round 16 (rope): positions negated at the call, hs set again, the rows taken from the stack's axis
    (
        "rope",
        "mismatch__both-turned-back.py",
        "reversed-call",
        ["turn an x of the checker's own the right way", "`apply_rope(X @ Wq, -positions)`"],
        ["inside rotate_half"],
    ),
    (
        "rope",
        "changed-input__hs-set-again.py",
        "hs-set",
        ["sets `hs` itself", "`hs` was 8 when that run stopped", "`Wq` is 12 wide"],
        ["Something in your script"],
    ),
    (
        "rope",
        "mismatch__apply-rope-rows-from-the-stack-axis.py",
        "apply-rope-raised-batched",
        ["turns a (T, hs) x right", "`x.shape[-2]` (3 here)"],
        ["never from the script's own X"],
    ),
    ("rope", "mismatch__borrowed-rotation.py", "borrowed", ["from attnpos", "softmax the starter imports"], []),
    ("alibi", "after-softmax__bias-after-softmax-mask-dropped.py", "", ["after the softmax"], ["along the last axis"]),
    ("alibi", "mismatch__extra-slopes-from-the-front.py", "every-other", ["every other one", "get_slopes(16)[0::2][:4]"], ["largest difference", "get get_"]),
    ("alibi", "mismatch__borrowed-slopes-and-bias.py", "borrowed", ["from attnpos"], []),
    ("context-extension", "pi-on-base__base-times-factor.py", "", ["slowest pair (63) by 3.91", "never by the full 4"], ["barely moves"]),
    ("context-extension", "wrong-way__interpolation-speeds-up.py", "pi", ["divided by the factor (4 here)", "The base stays as it is"], ["and the base up"]),
    ("context-extension", "mismatch__borrowed-pi-and-ntk.py", "borrowed", ["from attnpos"], []),
    # issue 35, third round: the course's functions reached by a name built at run time, or through the allowed softmax
    ("embedding-backward", "mismatch__importlib-fetches-backward.py", "imports-by-name", ["importlib", "NumPy only"], ["off by"]),
    ("sinusoidal-table", "mismatch__importlib-fetches-table.py", "imports-by-name", ["importlib", "NumPy only"], ["off by"]),
    ("context-extension", "mismatch__importlib-fetches-ntk.py", "imports-by-name", ["importlib", "NumPy only"], ["off by"]),
    ("alibi", "mismatch__slopes-through-softmax-module.py", "borrowed", ["from attnpos"], []),
    ("t5-buckets", "mismatch__importlib-fetches-buckets.py", "imports-by-name", ["importlib", "NumPy only"], ["off by"]),
    ("rope", "mismatch__rotation-through-softmax-globals.py", "borrowed", ["from attnpos", "softmax the starter imports"], []),
    ("learned-positions", "length-check__check-tests-the-batch-axis.py", "not-own", ["a raise of its own", "error did (ValueError: operands"], ["no length"]),
    ("learned-positions", "length-check__error-says-nothing.py", "unsaid", ["does not say that the sequence is too long (ValueError)", "only 8 rows"], []),
    # a figure says whose arrays it comes from, and the entry where the learner's array is furthest off
    (
        "alibi",
        "mismatch__softmax-over-heads.py",
        "weights",
        ["`weights[2, 6, 6]` is 1; from your own arrays it should be 0.02868"],
        ["largest difference", "they give"],
    ),
    (
        "context-extension",
        "mismatch__exponents-over-all-channels.py",
        "array",
        ["`inv_freq` pair 63 is 0.0107; from your hs = 128 and rope_theta = 10000 it should be 0.000115"],
        ["they give"],
    ),
    ("embedding-backward", "mismatch__lookup-plus-one.py", "", ["`out[0, 0, 1]` is -1.163; from your own arrays it should be 1.6"], ["off by up to"]),
    ("forget-reorder", "mismatch__wrong-out-perm.py", "array", ["`out_perm[0, 4, 4]` is -5.66; from your own arrays it should be"], ["off by up to"]),
    ("learned-positions", "mismatch__tokens-only.py", "", ["`x[1, 0, 2]` is -0.02925; from your own arrays it should be -0.07959"], []),
    ("order-checks", "mismatch__out-b-is-out-a.py", "array", ["`out_b[1, 2]` is -1.082; from your own arrays it should be"], []),
    ("sinusoidal-table", "mismatch__degrees.py", "", ["`pe[3, 1]` is 0.9986; from your own arrays it should be -0.99"], []),
    (
        "sinusoidal-table",
        "mismatch__shift-typed-in-rotation.py",
        "unrelated",
        ["right for your own T, C and k", "`M[0, 0]` is -0.99; from that run's T, C and k", "the starter's 3 for k)"],
        ["your own arrays", "8 for C", "12 for T"],
    ),
    # brief-only findings F9, F10, F19 (alibi)
    ("alibi", "mismatch__power-of-two-strictly-below.py", "power-split", ["own 12 heads", "32-head slopes followed by every other 64-head slope"], []),
    ("alibi", "rerun-failed__slopes-built-for-8-and-16-heads.py", "", ["shapes (64,9,9) (16,9,9)", "built for 8 and 16 heads"], []),
    ("alibi", "mismatch__mask-by-multiplying-gives-nan.py", "nan-bias", ["NaN at 336 of its 588 entries", "np.where"], ["largest difference"]),
    # brief-only findings F7, F21, F22: sizes typed in, seen now that the rerun's ids are one token longer
    ("learned-positions", "rerun-failed__t-typed-in-lookup.py", "typed-size", ["shapes (4,6,8) (5,8)", "the starter's 5 for T:"], ["`>=`", "3 and 5"]),
    ("learned-positions", "mismatch__table-cut-one-row-short.py", "full-length-failed", ["NumPy's own error stopped it (IndexError", "stops short"], ["`>=`"]),
    ("learned-positions", "mismatch__t-typed-in-gradient.py", "typed-size", ["checker reran it", "`grad_wpe[5, 6]` is 0; from that run's arrays"], []),
    (
        "embedding-backward",
        "mismatch__sizes-typed-in-loops.py",
        "typed-size",
        ["2 for B and 5 for T", "still had shape (2, 5, 8) where that run needs (3, 6, 8)"],
        [],
    ),
    (
        "sinusoidal-table",
        "mismatch__length-typed-in.py",
        "unrelated-shape",
        ["still had shape (12, 12) where those sizes need (14, 12)", "starter's 12 for T)"],
        ["8 for C"],
    ),
    ("alibi", "rerun-failed__length-typed-in-bias.py", "", ["two more tokens", "or 7 tokens"], []),
    ("context-extension", "mismatch__head-width-typed-in.py", "unrelated-shape", ["still had shape (64,) where that head needs (16,)"], []),
    # brief-only round 7 (issue 35): wrong answers that passed, and messages that named another mistake
    ("three-families", "mismatch__tells-against-gap-none.py", "tells-against-none", ["compares each gap with `gap_none`", "says False"], ["typed"]),
    ("three-families", "mismatch__no-signal-verdict-typed.py", "verdict-typed", ["`tells[0]` is typed in", "whose gap there is"], ["gap_none`"]),
    ("three-families", "wrong-comparison__relisted-into-first-order.py", "into-first-order", ["B's outputs back into A's order", "perm` made no shuffle"], []),
    ("rope", "mismatch__rotate-half-sign-made-up-for.py", "rotate-half", ["(x2, −x1)", "makes up for it"], ["never calls"]),
    ("rope", "mismatch__rotate-half-never-called.py", "rotate-half", ["x unchanged", "never calls it"], ["makes up"]),
    ("sinusoidal-table", "mismatch__error-skips-the-first-row.py", "some-rows", ["over t = 1 … 8 only", "leaves out t = 0", "bent most at its first row"], []),
    ("sinusoidal-table", "mismatch__error-at-the-last-row.py", "some-rows", ["over t = 8 only", "leaves out t = 0"], []),
    # brief-only round 9 (issue 35): a T − k typed in, and a shift_error over part of the rows or channel pairs, told by a third rerun
    (
        "sinusoidal-table",
        "mismatch__rows-typed-as-nine.py",
        "rows-typed",
        ["over t = 0 … 8 only, the starter's 9 for T − k typed in", "T − k is 17 − 5 = 12 rows", "three rows more for T − k"],
        ["leaves out"],
    ),
    ("sinusoidal-table", "mismatch__shift-typed-in-the-slices.py", "shift-typed", ["each row t + 3 with M @ pe[t]", "that run's k = 5"], ["leaves out"]),
    (
        "sinusoidal-table",
        "mismatch__error-over-every-other-row.py",
        "every-other-row",
        ["every other t only (t = 0, 2, 4, … 10)", "leaves out t = 1, 3, 5, … 11, among them t = 9", "all 12 rows"],
        ["typed"],
    ),
    (
        "sinusoidal-table",
        "mismatch__error-at-the-two-ends.py",
        "row-ends",
        ["the two ends of t only (t = 0 and t = 11)", "leaves out every row between them, t = 1 … 10, among them t = 9"],
        ["typed"],
    ),
    (
        "sinusoidal-table",
        "mismatch__error-over-the-last-pair.py",
        "last-pair",
        ["the last channel pair only (pair 5, channels 10 and 11)", "leaves out the others, pairs 0 … 4", "in pair 1 (channels 2 and 3), at t = 9"],
        ["typed"],
    ),
    (
        "sinusoidal-table",
        "mismatch__error-skips-the-first-pair.py",
        "first-pair-left",
        ["leaves out channel pair 0 (channels 0 and 1)", "keeps pairs 1 … 48 only", "t = 23, channel 0"],
        ["typed"],
    ),
    ("sinusoidal-table", "mismatch__error-pairs-from-one.py", "first-pair-left", ["leaves out channel pair 0", "is 0.0625", "is 0.25"], ["typed"]),
    ("sinusoidal-table", "mismatch__error-over-the-cosines.py", "cosines-only", ["the cosine channels only", "the sines (channels 0, 2, … 96)"], ["typed"]),
    ("sinusoidal-table", "mismatch__error-cosines-in-a-loop.py", "cosines-only", ["the cosine channels only", "channel 0 (pair 0's sine)"], ["typed"]),
    (
        "sinusoidal-table",
        "mismatch__error-over-the-sines.py",
        "sines-only",
        ["the sine channels only", "leaves out the cosines (channels 1, 3, … 11)", "channel 11, at t = 8"],
        ["t = 0 … 6"],
    ),
    ("sinusoidal-table", "mismatch__error-in-two-chunks.py", "seam-row", ["leaves out the row t = 23 (of t = 0 … 46)", "chunks"], ["typed"]),
    # which unused rows np.empty_like leaves non-zero is up to the allocator: test_unset_rows_named_are_the_unused_ones
    ("embedding-backward", "mismatch__empty-buffer-used-rows-cleared.py", "unset-rows", ["never use", "np.empty_like"], []),
    ("embedding-backward", "mismatch__gradient-started-from-the-table.py", "unused-from-wte", ["hold wte's own rows", "copy of the table"], ["np.empty"]),
    (
        "embedding-backward",
        "mismatch__out-from-a-table-redrawn-from-the-seed.py",
        "own-table",
        ["comes from a table of your own, not from `wte`", "drawn from a seed of the checker's own", "`out = wte[ids]`"],
        ["typed in"],
    ),
    ("learned-positions", "length-check__message-quotes-the-width-as-rows.py", "wrong-number", ["its “4 rows” is not the table's 6 rows"], []),
    ("learned-positions", "length-check__message-quotes-the-batch-as-tokens.py", "wrong-number", ["its “1 tokens” is not the sequence's 10 tokens"], []),
    ("learned-positions", "length-check__message-rows-as-t-minus-two.py", "wrong-number", ["its “5 rows” is not the table's 6 rows", "two rows shorter"], []),
    (
        "learned-positions",
        "length-check__message-quotes-the-global-long-ids.py",
        "wrong-number",
        ["its “10 tokens” is not the sequence's 12 tokens", "length of your global `long_ids`", "a call of the checker's own"],
        [],
    ),
    (
        "t5-buckets",
        "mismatch__decoder-mask-of-minus-ten.py",
        "weak-mask",
        ["too small to hide the keys ahead", "is -9.671 where the mask must be −inf"],
        ["belongs"],
    ),
    (
        "learned-positions",
        "length-check__bound-one-past-the-table.py",
        "table-plus-number",
        ["adds a number to it", "refuse exactly when T > wpe.shape[0]"],
        ["global"],
    ),
    ("permutation-matrix", "mismatch__scale-typed-as-two.py", "scaled-by-typed-width-rerun", ["types in the scale (it writes 2)"], ["X's width"]),
    ("permutation-matrix", "mismatch__scaled-by-width-of-x.py", "scaled-by-other-width-rerun", ["X's width gave the same number"], ["types in"]),
    ("permutation-matrix", "mismatch__pooled-perm-from-p-out.py", "pooled-from-P-out", ["`P @ out` summed over the tokens"], ["typed"]),
    # brief-only findings F1-F3 (embedding-backward)
    ("embedding-backward", "buffered-add__per-position-plus-equals.py", "per-position", ["one position at a time", "at position 0 in 3 sentences"], []),
    ("embedding-backward", "bad-shape__rows-up-to-largest-id.py", "bincount-short", ["Sized from the ids", "np.zeros_like(wte)"], ["That is what np.bincount"]),
    (
        "embedding-backward",
        "mismatch__ids-copied-as-literal.py",
        "typed-copy",
        ["a copy of the starter's `ids` instead of using `ids`", "there `grad_wte[", "from that run's arrays"],
        ["more than rounding", "for B"],
    ),
    (
        "sinusoidal-table",
        "mismatch__width-typed-in-exponent.py",
        "unrelated",
        ["checker reran your script", "`pe[12, 3]` is 0.3582; from that run's T, C and k", "the starter's 8 for C)"],
        ["your own arrays", "3 for k"],
    ),
    # brief-only round 2 (issue 35): sizes typed in, caught by reruns that change them, and named as the script typed them
    (
        "three-families",
        "mismatch__sizes-typed-in.py",
        "typed-size",
        ["the starter's 6 for T and 8 for C", "shapes (8,12) (6,8)", "before the line that sets `gap_added`"],
        ["was never set"],
    ),
    ("three-families", "mismatch__pos-sized-by-the-lesson-sentence.py", "sized", ["does not follow the sentence's size", "(8,12) (6,12)"], ["types in"]),
    ("rope", "rerun-failed__head-width-typed-in.py", "typed-size", ["the starter's 8 for hs and 4 for hs / 2:", "a head four channels wider"], []),
    ("rope", "mismatch__half-typed-in-rotate-half.py", "typed-size", ["the starter's 4 for hs / 2:", "from that run's arrays it should be"], ["8 for hs"]),
    ("rope", "mismatch__positions-assumed-contiguous.py", "contiguous", ["positions[0] + t", "gaps opened between the positions"], []),
    ("rope", "mismatch__out-typed-in.py", "typed", ["a head four channels wider", "`out` stayed the same"], ["width"]),
    (
        "sinusoidal-table",
        "mismatch__shift-error-typed-zero.py",
        "shift-figure-unbent",
        ["your shift_error is 0,", "did not see the bend", "typed in"],
        ["your own pe"],
    ),
    ("context-extension", "unfinished__ratios-never-printed.py", "", ["prints neither ratio", "`inv_freq_pi / inv_freq`"], ["Well done"]),
    (
        "learned-positions",
        "rerun-failed__sizes-typed-in-gradient.py",
        "typed-size",
        ["5 for T, 8 for max_len and 4 for C", "before the line that sets `long_ids`"],
        ["3 and 5", "was never set"],
    ),
    (
        "learned-positions",
        "length-check__numpy-index-past-the-end.py",
        "missing-index",
        ["(IndexError: index 8 is out of bounds", "an index past its end"],
        ["wpe[:T]", "fail to add"],
    ),
    ("t5-buckets", "sign-flipped__bias-transposed.py", "bias", ["transposed to [head, key, query]", "bucket(i − j)"], []),
    # brief-only round 4 (issue 35): what each rerun changes now includes rope_theta, the table's size, and what is printed
    ("rope", "mismatch__base-typed-in.py", "typed-theta", ["does not follow `rope_theta`", "rope_theta = 10000, not the rerun's 500000"], []),
    ("context-extension", "mismatch__base-typed-in.py", "typed-theta", ["Your `inv_freq` does not follow `rope_theta`", "the rerun's 1e+06"], []),
    ("context-extension", "mismatch__ntk-base-typed-in.py", "typed-theta", ["Your `base_ntk` does not follow `rope_theta`"], []),
    (
        "alibi",
        "mismatch__distance-off-by-one.py",
        "row-offset",
        ["−slopes[h]·(i − j + 1)", "`bias[0, 0, 0]` is -0.5 where it should be 0"],
        ["is the +m·j shortcut with the mask"],
    ),
    ("alibi", "mismatch__five-added-to-visible-keys.py", "row-offset", ["−slopes[h]·(i − j) + 5 on every key", "is 5 where it should be 0"], ["Well done"]),
    ("alibi", "mismatch__mask-of-minus-ten.py", "weak-mask", ["`bias[0, 0, 1]` is -10 where it should be −inf"], ["should be 0"]),
    (
        "embedding-backward",
        "mismatch__table-size-typed-in.py",
        "typed-size",
        ["the starter's 10 for V and 4 for C", "shape (10, 4) where that run needs (13, 8)"],
        [],
    ),
    ("learned-positions", "mismatch__reads-the-scripts-own-tables.py", "global-tables", ["reads the script's own `wte` and `wpe`", "other tables"], []),
    ("learned-positions", "mismatch__positions-from-the-scripts-own-table.py", "global-tables", ["reads the script's own `wpe` rather than"], []),
    ("three-families", "mismatch__line-at-a-tenth.py", "line-too-high", ["the gap of the head with the bias is 0.000717", "says False", "1e-6"], []),
    ("context-extension", "mismatch__factor-typed-in-interpolation.py", "typed-factor", ["does not follow `factor`", "factor = 4, not the rerun's 1.5"], []),
    ("context-extension", "mismatch__ntk-width-typed-in-exponent.py", "array", ["from the rerun's hs = 32"], ["(64,)", "that is shape"]),
    ("context-extension", "mismatch__ntk-exponent-typed-for-128.py", "figure", ["`base_ntk` is", "from the rerun's hs = 32"], []),
    ("context-extension", "unfinished__frequencies-printed.py", "not-ratios", ["shows neither ratio", "the frequencies `inv_freq_pi` themselves"], []),
    ("context-extension", "unfinished__ratios-printed-upside-down.py", "not-ratios", ["the PI ratio upside down (trained over new)", "0.25 at every pair"], []),
    (
        "context-extension",
        "unfinished__ntk-ratio-printed-from-placeholder.py",
        "ntk-all-ones",
        ["shows 1 at every pair", "before `inv_freq_ntk` held", "0.25 at the last pair"],
        ["Well done"],
    ),
    (
        "context-extension",
        "unfinished__ntk-ratio-pair-0-only.py",
        "ntk-pair-0",
        ["at pair 0 only", "`pair 0, NTK ratio: 1.0`", "the first and the last pair"],
        ["Well done"],
    ),
    # brief-only round 16: the ratios at pairs 0 to 4 only, never the last pair, where NTK divides by exactly the factor
    ("context-extension", "unfinished__ntk-ratio-first-five-pairs.py", "ntk-before-last", ["stops before the last pair", "pair 4", "pair 63"], ["Well done"]),
    ("context-extension", "unfinished__ntk-over-pi-printed.py", "not-ratios", ["no NTK ratio", "`inv_freq_ntk / inv_freq_pi`", "1 at pair 0 down to 0.25"], []),
    # brief-only round 10 (issue 35): a factor cut to a whole number or a power of two, shown by the rerun's 2.5
    ("context-extension", "mismatch__factor-truncated-to-int.py", "cut-factor", ["built on factor = 1, where the rerun's factor is 1.5", "a whole number"], []),
    ("context-extension", "mismatch__factor-rounded-to-power-of-two.py", "cut-factor", ["factor = 1", "a power of two"], ["typed in"]),
    # brief-only round 11: a second rerun (hs no power of two; a factor with three decimals) and the starter's values kept
    ("context-extension", "bad-shape__float-step-exponents.py", "float-step", ["shape (197,)", "the second rerun's hs = 392 has 196", "float step"], []),
    (
        "context-extension",
        "mismatch__factor-rounded-to-one-decimal.py",
        "rounded-factor",
        ["factor = 40.6, where the second rerun's factor is 40.625", "one decimal"],
        [],
    ),
    # brief-only round 12: the second rerun goes the other way from the first (hs 196, factor 4.375, rope_theta 1000),
    # and each rerun's print is judged as the first run's is
    (
        "context-extension",
        "mismatch__factor-capped-at-4.py",
        "capped-factor",
        ["factor = 4, where the second rerun's factor is 40.625", "`min(factor, 4)`"],
        ["a whole number"],
    ),
    (
        "context-extension",
        "mismatch__base-held-to-10000.py",
        "floored-theta",
        ["rope_theta = 10000, where the second rerun's rope_theta is 1000", "`max(rope_theta, 10000)`"],
        [],
    ),
    (
        "context-extension",
        "mismatch__buffer-sized-for-128.py",
        "capped-pairs",
        ["shape (64,) on the second rerun", "needs (196,)", "stops at your first run's 64 pairs"],
        [],
    ),
    (
        "context-extension",
        "unfinished__pi-ratio-typed-into-print.py",
        "print-not-following",
        ["but not on the checker's rerun", "`PI / trained: [0.25", "PI ratio is 0.6667"],
        [],
    ),
    (
        "context-extension",
        "unfinished__ntk-ratio-typed-into-print.py",
        "print-not-following",
        ["but not on the checker's rerun", "`NTK / trained: [1."],
        ["Well done"],
    ),
    ("context-extension", "mismatch__ntk-right-for-known-runs-only.py", "array", ["`inv_freq_ntk` pair", "from the rerun's hs = 32"], ["Well done"]),
    (
        "sinusoidal-table",
        "mismatch__table-built-again-after-the-figure.py",
        "rebuilt",
        ["it is the table without the checker's bend", "your script builds pe again after that"],
        ["A size or a shift typed in"],
    ),
    (
        "context-extension",
        "mismatch__factor-typed-behind-a-width-test.py",
        "typed-factor",
        [
            "`factor` 4778/2048 (4782/2048 where yours is that) alone, `hs` and `rope_theta` the starter's",
            "`inv_freq_pi` was still built on factor = 4, not the rerun's 2.33301",
        ],
        ["a head a quarter as wide (`hs`) and"],
    ),
    (
        "context-extension",
        "mismatch__base-typed-behind-a-theta-test.py",
        "typed-factor",
        ["`factor` 4778/2048", "`base_ntk` was still built on factor = 4"],
        ["a head a quarter as wide (`hs`) and"],
    ),
    (
        "context-extension",
        "unfinished__ratios-printed-from-placeholders.py",
        "all-ones",
        ["your print shows 1 at every pair (`PI ratio: [1. 1.", "before the frequencies held the rules' values"],
        ["no number with a decimal point"],
    ),
    (
        "context-extension",
        "rerun-failed__ntk-typed-behind-a-factor-test.py",
        "",
        ["`hs` 100 (76 where yours is 100) alone, `factor` and `rope_theta` the starter's", "shapes (50,) (64,)"],
        ["Well done"],
    ),
    (
        "context-extension",
        "indistinct__exponents-in-float16.py",
        "precision",
        ["float64 computed in float16", "every step that makes one"],
        ["Some of your arrays are float16"],
    ),
    ("context-extension", "bad-value__starter-values-changed.py", "changed-starter", ["sets hs = 64", "factor = 8 where the starter sets", "factor = 4"], []),
    (
        "context-extension",
        "unfinished__ratios-at-last-pair-only.py",
        "last-pair-only",
        ["shows 0.25 only", "NTK keeps pair 0"],
        ["no number with a decimal point"],
    ),
    ("context-extension", "unfinished__print-in-function-never-called.py", "", ["prints nothing", "never ran"], ["no number with a decimal point"]),
    # brief-only round 19: a print run on the starter's width only; the base divided, by what; a value off says no shape
    (
        "context-extension",
        "unfinished__print-only-for-starter-width.py",
        "print-not-on-rerun",
        ["printed the ratios on its own run (hs = 128", "but nothing on the checker's rerun with hs = 32", "guarded by the starter's numbers"],
        ["Well done"],
    ),
    ("context-extension", "wrong-way__ntk-base-divided.py", "", ["divides the base by factor^(hs/(hs−2)) = 4.089", "multiplies it"], []),
    ("context-extension", "mismatch__exponents-over-all-channels.py", "array", ["`inv_freq` pair"], ["that is shape"]),
    (
        "context-extension",
        "rerun-failed__ntk-ratios-pasted-in.py",
        "",
        ["an array or a size typed in", "set again after the starter's lines"],
        ["Set `factor` once"],
    ),
    # a ratio printed whole is compared with the final ratio pair by pair, PI's as NTK's
    (
        "context-extension",
        "unfinished__pi-ratio-printed-before-divide.py",
        "ratio-off",
        ["print of the PI ratio", "part at every pair", "shows 1, your final ratio 0.25", "before `inv_freq_pi` held"],
        ["Well done"],
    ),
    ("context-extension", "unfinished__pi-ratio-upside-down.py", "ratio-off", ["print of the PI ratio", "shows 4", "the PI ratio upside down"], []),
    ("context-extension", "unfinished__ntk-ratio-last-pair-only.py", "ratio-off", ["print of the NTK ratio", "part at pairs 1–62", "final ratio 0.9782"], []),
    ("context-extension", "unfinished__ntk-ratio-half-loop.py", "ratio-off", ["print of the NTK ratio", "part at pairs 1–31"], ["pairs 1–62"]),
    # brief-only round 6 (briefonly6/FINDINGS.md section 3): what the script did, not what it did not
    ("context-extension", "unfinished__typed-numbers-printed.py", "typed-print", ["not the ratios", "typed rather than", "not the NTK ratio: at pair 1"], []),
    # brief-only round 14: bounds past the reruns' old values (factor 1.5 and 40.625, hs 32 and 392, rope_theta 1e6),
    # the ratios under each other's names, a ratio said to be a divisor, a rule's mistake on a rerun alone
    ("context-extension", "mismatch__factor-held-to-at-most-16.py", "held", ["built on factor = 16", "at most 16 (`min(factor, 16)`"], []),
    ("context-extension", "mismatch__base-held-to-at-most-600000.py", "held", ["rope_theta = 600000", "rerun's rope_theta is 1000000"], []),
    ("context-extension", "mismatch__width-held-to-at-most-256.py", "held-width", ["shape (128,), that of a head of 256", "`min(hs, 256)`"], []),
    ("context-extension", "mismatch__width-held-to-at-least-64.py", "held-width", ["needs (16,)", "at least 64 (`max(hs, 64)`"], ["still had"]),
    ("context-extension", "unfinished__ratios-under-swapped-labels.py", "mislabelled", ["names NTK", "the PI ratio"], ["Well done"]),
    ("context-extension", "unfinished__says-divides-by-the-ratio.py", "divides-by-ratio", ["divides by 0.250", "divided by 4"], []),
    ("context-extension", "unfinished__typed-summary-line.py", "typed-line", ["`summary: PI divides all 64 pairs", "its 64, your number of pairs"], []),
    # brief-only round 15: every input set again (no rerun as left), ratios rounded away, float16 past its range
    (
        "context-extension",
        "changed-input__every-input-set-again.py",
        "before-use",
        ["changes `hs`", "was 32 as given, and 128 when the run ended", "changes `rope_theta` and `factor` there too"],
        ["does not follow your names"],
    ),
    (
        "context-extension",
        "unfinished__ratios-rounded-to-whole-numbers.py",
        "rounded-away",
        ["the PI ratio rounded to 0 decimals: it shows 0, where the ratio is 0.25", "shows 0 at pair 32", "Keep 1 decimal at least"],
        ["neither ratio"],
    ),
    (
        "context-extension",
        "mismatch__float16-base-past-its-range.py",
        "float16-overflow",
        ["float16, whose largest number is 65504", "rope_theta = 1e+06 is past it"],
        [],
    ),
    (
        "context-extension",
        "wrong-exponent__exponent-dropped-above-4.py",
        "1",
        ["On the checker's second rerun (hs = 392, rope_theta = 1000, factor = 40.625)", "Your own run (hs = 128"],
        [],
    ),
    ("three-families", "not-causal__bias-table-as-mask.py", "bias-as-mask", ["is your `bias` table", "hides none"], ["0/1"]),
    ("three-families", "not-causal__mask-of-minus-ten.py", "nothing-hidden", ["finite numbers from -10 to 0"], ["0/1"]),
    ("three-families", "not-causal__zero-one-mask.py", "zero-one", ["a 0/1 mask"], []),
    ("three-families", "mismatch__mean-gap.py", "mean-gap", ["the mean |difference|", "not the largest"], []),
    (
        "permutation-matrix",
        "unfinished__checks-printed-before-the-arrays.py",
        "printed-before-final",
        ["made before the arrays it reports on were final", "lhs against rhs by 0.425", "0 of its verdicts changed"],
        ["Well done"],
    ),
    ("permutation-matrix", "mismatch__identity-p.py", "identity-P", ["is the identity", "ignores `perm`"], []),
    ("rope", "mismatch__cos-and-sin-swapped.py", "cos-sin-swapped", ["cos and sin swapped"], ["should be"]),
    ("alibi", "mismatch__mask-of-minus-a-hundred.py", "weak-mask", ["is -100 where it should be −inf"], []),
    ("alibi", "mismatch__slopes-sorted.py", "array", ["from the official rule for 12 heads"], ["your own arrays"]),
    ("embedding-backward", "indistinct__float16.py", "precision", ["Your arrays are float16,", "too few for the checker"], ["are float64", "agree"]),
    (
        "learned-positions",
        "indistinct__float16.py",
        "precision",
        ["float16 (`wpe`, `grad_out` and `grad_wpe`)", "nothing says it made that mistake"],
        ["are float64"],
    ),
    ("learned-positions", "truncated__cut-to-the-table.py", "", ["cutting the sequence down"], ["wrap"]),
    ("three-families", "mismatch__tells-in-another-order.py", "tells-order", ["in another order", "(none, added, bias, mask)"], ["rounding"]),
    ("sinusoidal-table", "mismatch__m-read-off-the-table.py", "read-off-table", ["off the table's row pe[k]", "bent along"], ["typed"]),
    ("t5-buckets", "mismatch__encoder-bias-masked.py", "bias", ["a causal mask, but the encoder is bidirectional"], ["which is allowed"]),
    ("alibi", "after-softmax__weights-times-exp-bias.py", "multiplied", ["softmax(scores) times exp(bias)"], ["last axis"]),
    # brief-only round 11 (w5/alibi): a rerun of other scores, 40 heads and 130 tokens; weights and masks named as done
    ("alibi", "mismatch__scores-drawn-again.py", "scores-unused", ["do not follow `scores`", "came out exactly as on your own run"], ["Well done"]),
    ("alibi", "mismatch__softmax-input-divided-by-root-t.py", "weights-scaled", ["divided by 2.646"], ["last axis"]),
    ("alibi", "mismatch__mask-lost-before-own-softmax.py", "weights-see-future", ["give them weight all the same", "np.nan_to_num"], ["last axis"]),
    ("alibi", "mismatch__head-0-bias-for-every-head.py", "weights-one-head-bias", ["head 0's bias to every head", "`bias[0]`"], ["last axis"]),
    ("alibi", "mismatch__last-query-row-skipped.py", "weights-where", ["on query row 6 only", "other rows are right"], ["last axis"]),
    ("alibi", "mismatch__mask-one-key-late.py", "mask-late", ["72 of its 252 later keys", "(j = i + 1)", "`bias[0, 0, 1]` is 0.5"], ["off by 0)", "is -0"]),
    ("alibi", "mismatch__distance-clipped-at-8.py", "distance-capped", ["stops growing at a distance of 8", "checker's rerun"], ["Well done"]),
    ("alibi", "mismatch__int8-positions.py", "positions-wrap", ["right on the first 128 tokens", "int8 wraps"], ["Well done"]),
    ("alibi", "naive-slopes__official-slopes-typed-for-12-only.py", "rerun", ["own 12 heads", "2^(−8h/6)", "4 heads below"], ["list of a fixed size"]),
    (
        "alibi",
        "mismatch__power-below-capped-at-16.py",
        "uneven-power-below",
        ["begin with the 16-head slopes", "just below 3584 is 2048"],
        ["Well done", "3584 heads (3584"],
    ),
    ("alibi", "mismatch__extra-slopes-times-root-two.py", "uneven-extra", ["not for 6", "first 4 slopes are right"], ["list of a fixed size"]),
    ("alibi", "mismatch__softmax-over-heads.py", "weights", ["softmax over the queries", "last axis"], []),
    ("alibi", "rerun-failed__power-of-two-test-typed.py", "", ["RecursionError", "a power-of-two test written out for some counts"], []),
    # brief-only round 13 (u4/alibi): reruns of 100 heads and 5 tokens, of one head and 600 tokens; masks and windows named as done
    ("alibi", "mismatch__window-of-256-keys.py", "window", ["256 or more back", "a single head and 600 tokens", "`bias[0, 256, 0]` is -inf"], ["int8"]),
    ("alibi", "mismatch__window-of-128-keys.py", "window", ["128 or more back", "`bias[0, 128, 0]` is -inf"], ["int8", "integer type"]),
    ("alibi", "mismatch__distance-clipped-at-512.py", "distance-capped", ["a distance of 512", "`bias[0, 599, 0]` is -2;", "600 tokens"], ["Well done"]),
    ("alibi", "mismatch__uint8-positions.py", "positions-wrap", ["first 256 tokens", "uint8 wraps"], ["an int8", "is -0"]),
    ("alibi", "mismatch__positions-modulo-128.py", "past-position", ["first 128 tokens", "past position 128"], ["int8", "integer type"]),
    (
        "alibi",
        "mismatch__extra-slopes-from-the-first-half.py",
        "extra-count",
        ["not for 3584", "has 3072 entries", "get_slopes(4096)[0:2048:2]"],
        ["Well done"],
    ),
    ("alibi", "rerun-failed__slopes-table-for-1-to-64-heads.py", "", ["3584 heads", "KeyError: 3584", "a table of slopes"], []),
    # brief-only round 14 (v4/alibi): the uneven rerun of 6 heads, 3584 heads, scores near 1000; masks and weights named as done
    ("alibi", "naive-slopes__power-of-two-formula-under-8-heads.py", "rerun", ["own 12 heads", "(6 heads (", "2^(−8h/6)"], ["Well done"]),
    ("alibi", "naive-slopes__power-of-two-formula-past-200-heads.py", "rerun", ["(3584 heads (more than 1024", "2^(−8h/3584)"], ["3584 heads: 3584"]),
    ("alibi", "rerun-failed__powers-table-to-1024.py", "", ["3584 heads", "RecursionError"], []),
    ("alibi", "naive-slopes__power-of-two-test-n-mod-8.py", "rerun", ["(3584 heads (more than 1024", "2^(−8h/3584)"], ["Well done"]),
    ("alibi", "mismatch__own-softmax-without-row-max.py", "softmax-overflow", ["from 1000 up", "NaN or inf", "Subtract each row's largest"], ["Well done"]),
    (
        "alibi",
        "mismatch__own-softmax-minus-whole-array-max.py",
        "softmax-one-max",
        ["one number from every score, the largest of the whole array", "2402 below the 3401 subtracted", "0 / 0 = NaN"],
        ["as they are", "row's mean"],
    ),
    ("alibi", "mismatch__own-softmax-minus-head-max-float32.py", "softmax-one-max", ["that head's largest", "is 0 in float32"], ["whole array"]),
    (
        "alibi",
        "mismatch__own-softmax-minus-row-mean.py",
        "softmax-row-overflow",
        ["other than each row's largest", "the row's mean (1212)", "e^1289", "inf / inf is NaN"],
        ["as they are", "whole array"],
    ),
    ("alibi", "mismatch__own-softmax-minus-mean-of-all-scores.py", "softmax-unstable", ["the first in `weights[0, 0]`"], ["as they are", "row's mean"]),
    ("alibi", "mismatch__scores-transposed.py", "scores-transposed", ["`scores` transposed", "`scores[h, j, i]`"], ["only", "other rows are right"]),
    (
        "alibi",
        "mismatch__later-keys-zeroed-after-softmax.py",
        "zeroed-after-softmax",
        ["set to 0 afterwards, never renormalised", "`weights[8, 0]` sums to 0.003819"],
        ["only", "other rows are right"],
    ),
    ("alibi", "mismatch__weights-clipped-at-a-floor.py", "weights-floor", ["floor under every weight", "is 1e-09", "np.clip(weights, 1e-09"], ["lost"]),
    ("alibi", "mismatch__weights-smoothed-after-the-softmax.py", "weights-floor", ["floor under every weight", "is 1e-08", "renormalised"], ["−inf was lost"]),
    ("alibi", "mismatch__weights-rounded-for-printing.py", "weights-rounded", ["rounded to 3 decimals", "is 0.024"], ["only", "other rows are right"]),
    (
        "alibi",
        "mismatch__small-weights-pruned-through-an-alias.py",
        "small-weights-zeroed",
        ["its smallest weight (0.0008612) set to 0", "`w = weights` makes no copy"],
        ["only", "other heads"],
    ),
    (
        "alibi",
        "mismatch__bias-multiplying-the-scores.py",
        "weights-differ",
        ["72 of your 84 query rows differ", "row 0 sees one key"],
        ["only", "other rows are right", "all at once"],
    ),
    ("alibi", "changed-input__scores-divided-again.py", "before-use", ["changes `scores`", "Your `weights` fits that changed `scores`"], ["arrays fit"]),
    (
        "alibi",
        "mismatch__mask-one-key-too-narrow.py",
        "mask-narrow",
        ["the key right after each query (j = i + 1) unmasked", "`bias[0, 0, 1]` is -0.5", "j = i + 2"],
        ["too small"],
    ),
    ("alibi", "mismatch__weights-before-the-mask.py", "weights-before-mask", ["without its mask", "before −inf was put into `bias`"], ["nan_to_num"]),
    ("alibi", "mismatch__mask-weaker-past-key-512.py", "weak-mask", ["`bias[0, 0, 512]` is -100 where it should be −inf"], ["first 256 tokens", "-1e+04"]),
    ("alibi", "mask-forgotten__mask-applied-after-softmax.py", "weights-masked", ["`weights` are right", "`bias[0, 0, 1]` is 0,"], ["too small", "-0"]),
    ("alibi", "mask-forgotten__mask-cleared-after-use.py", "weights-masked", ["`weights` are right", "changed once the weights were computed"], ["too small"]),
    ("alibi", "indistinct__half-precision-long.py", "precision", ["three significant digits", "Use float64"], ["second softmax", "held, like every other"]),
    # brief-only round 16 (v4/alibi): a later key scoring far above its row; a mask missing from a row
    ("alibi", "mismatch__mask-of-minus-a-thousand.py", "weak-mask-outscored", ["`bias[0, 0, 6]` = -1000", "e^(-1000 + 9202)"], ["a little"]),
    ("alibi", "mismatch__mask-skips-query-row-0.py", "mask-missing-rows", ["but query row 0 of every head", "elsewhere is -inf"], ["too small"]),
    ("alibi", "mismatch__mask-on-head-0-only.py", "mask-missing-heads", ["of head 0 only", "heads 1 … 11 keep", "`bias[1, 0, 1]` is 0.25"], ["up to j = i"]),
    ("alibi", "mask-forgotten__mask-weakened-after-use.py", "weights-masked", ["`bias[0, 0, 1]` is -100", "changed once the weights"], ["see the future"]),
    ("context-extension", "rerun-failed__check-over-every-position.py", "memory", ["ran out of memory", "MemoryError"], ["kept the first run"]),
    ("alibi", "mismatch__own-softmax-minus-max-of-scores-alone.py", "softmax-one-max", ["largest taken without the mask, a later key's score"], ["row's mean"]),
    # brief-only round 19: the mask after the starter's softmax, renormalised; whose bias hides an earlier key; q and k
    # cast to float16 after float64 angles; only the sizes that stayed in a rerun's shape named
    (
        "alibi",
        "mismatch__masked-after-the-softmax-and-renormalised.py",
        "masked-after-softmax",
        ["starter's `softmax` the scores with the later keys not yet masked", "`scores[0, 0, 6]` = 1.02e+04"],
        ["Before np.exp"],
    ),
    # brief-only round 25: inv_freq_pi a second name for inv_freq, divided in place
    ("context-extension", "mismatch__pi-divided-in-place-through-an-alias.py", "aliased", ["the two names are one array", "divided by 4"], ["pair 2"]),
    # white-box round 24: pairs counted by a float step, one too many at the far rerun's 98 channels
    ("sinusoidal-table", "rerun-failed__pairs-counted-by-a-float-step.py", "sized", ["(48,50) into shape (48,49)", "a float step"], ["typing"]),
    # white-box round 24: a factor changed on the way, shown by the rerun of the factor alone at 4778/2048
    ("context-extension", "mismatch__factor-snapped-to-eighths.py", "other-factor", ["built on factor = 2.375", "rounds it to eighths"], ["typed in"]),
    # white-box round 24: token ids past the position table's last row (a vocabulary larger than max_len)
    ("learned-positions", "mismatch__ids-taken-modulo-the-table.py", "other-run", ["ids past wpe's last row", "`x["], ["typing"]),
    ("learned-positions", "rerun-failed__refuses-ids-past-the-table.py", "legal-batch-refused", ["ids count symbols", "token id 16 has no row"], ["typing"]),
    # brief-only round 23: a penalty divided by the slope is not a mask, though its far keys get no weight
    ("alibi", "mismatch__distance-divided-by-the-slope.py", "divided", ["divides the distance by the slope", "`bias[7, 6, 0]` is -1536"], ["hides keys"]),
    (
        "alibi",
        "mismatch__window-of-log-100-over-the-slope.py",
        "hides-earlier",
        ["in the arrays of the checker's rerun (another number of heads", "is -inf, so that key"],
        [],
    ),
    (
        "rope",
        "indistinct__float16-result-of-apply-rope.py",
        "precision",
        ["Your arrays are float16 (`q` and `k`)", "the result's included"],
        ["computed in float16,"],
    ),
    (
        "embedding-backward",
        "mismatch__out-reshaped-to-typed-batch-and-length.py",
        "typed-size",
        ["the starter's 2 for B and 5 for T:", "(2, 5, 8)"],
        ["10 for V", "4 for C"],
    ),
    ("sinusoidal-table", "mismatch__mean-error.py", "mean-error", ["the mean |pe[t + k] − M @ pe[t]|"], ["measuring one row", "typing"]),
    ("sinusoidal-table", "mismatch__last-row-missed.py", "last-row-missed", ["one row short", "t = T − k − 1"], ["typing"]),
    # brief-only round 8 (issue 35): sizes typed in, helpers never used, a relative line, and messages that named another cause
    ("learned-positions", "mismatch__batch-size-typed-in-gradient.py", "typed-size", ["the starter's 3 for B:", "one sequence more", "`grad_wpe["], []),
    (
        "learned-positions",
        "rerun-failed__width-typed-in-gradient.py",
        "typed-size",
        ["the starter's 4 for C:", "four channels more", "into shape (6,4)"],
        [],
    ),
    ("rope", "mismatch__token-count-typed-in-loop.py", "typed-size", ["the starter's 6 for T:", "three more tokens", "`q[8, "], ["8 for hs"]),
    ("t5-buckets", "mismatch__heads-typed-in.py", "heads-rerun", ["does not follow n_heads", "n_heads = 6", "shape (4, 15, 15)", "range(4)"], ["typing 12"]),
    ("rope", "mismatch__inv-freq-exponent-i-unused.py", "inv-freq", ["your `inv_freq` is not what step 1", "(the exponent −i/hs", "[1, 0.1, 0.01, 0.001]"], []),
    ("rope", "mismatch__apply-rope-without-the-sine-unused.py", "apply-rope", ["(x · cos alone, with no rotate_half(x) · sin)", "never calls it"], []),
    # brief-only round 12: rope's wrong answers that passed, and messages that named another mistake
    ("rope", "mismatch__inv-freq-typed-in.py", "inv-freq", ["when the checker reran your script", "the same numbers as in your script's own run"], []),
    ("rope", "mismatch__rotate-half-splits-rows-of-a-square-x.py", "rotate-half", ["the halves of axis 0 turned", "q and k come out right"], ["makes up"]),
    ("rope", "mismatch__rotate-half-at-the-heads-half.py", "rotate-half", ["split at your head's hs / 2 = 4 rather than at 6"], ["makes up", "axis 1"]),
    ("rope", "mismatch__rotate-half-in-place.py", "in-place", ["your `rotate_half` changes the x it is given"], ["positions it is given"]),
    ("rope", "mismatch__apply-rope-in-place.py", "in-place", ["your `apply_rope` changes the x it is given", "of shape (3, 12)"], []),
    # brief-only round 14 (rope): a helper that raises on the checker's own x, a width read off axis 1, far positions,
    # a batch, a default base, arrays drawn again, and a scale that is sqrt(hs) at the starter's sizes only
    (
        "rope",
        "mismatch__apply-rope-reshapes-by-the-scripts-X.py",
        "apply-rope-raised",
        ["your `apply_rope` raised an error", "3 rows of width 12, at positions 0, 5, 1", "cannot reshape array of size 3", "never from the script's own X"],
        ["Well done"],
    ),
    (
        "rope",
        "mismatch__rotate-half-unpacks-two-axes.py",
        "rotate-half-raised",
        ["your `rotate_half` raised an error", "of shape (2, 15, 12): ValueError: too many values to unpack", "whatever axes come before it"],
        ["the error:"],
    ),
    ("rope", "mismatch__rotate-half-width-from-the-first-row.py", "rotate-half", ["the last axis split at 7, half the length of axis 1 (15)"], ["makes up"]),
    (
        "rope",
        "mismatch__apply-rope-caps-positions.py",
        "apply-rope",
        ["at positions 10000, 5000, 7001 (rope_theta 500000)", "It turns x right at positions 0, 5, 1", "large positions"],
        ["never calls"],
    ),
    ("rope", "mismatch__apply-rope-two-axes-only.py", "apply-rope", ["shape (2, 3, 12)", "(x itself, not turned at all)", "an x with an axis more"], []),
    (
        "rope",
        "mismatch__apply-rope-default-base.py",
        "apply-rope",
        ["your own run's rope_theta = 10000 where the rerun's is 500000: a base typed in, as a default argument", "the way your script turns them"],
        ["turned another way"],
    ),
    ("rope", "mismatch__arrays-drawn-again.py", "redrawn", ["draws arrays of its own", "the starter's seed again", "`q["], ["width"]),
    ("rope", "mismatch__scale-from-the-token-count.py", "sized", ["three more tokens", "`out["], []),
    ("rope", "mismatch__apply-rope-sorts-positions.py", "apply-rope", ["turned by the positions sorted, 0, 1, 5, not as given"], []),
    ("rope", "mismatch__out-from-a-range-of-positions.py", "out-contiguous", ["your `out` comes from q and k turned by evenly spaced positions"], ["width"]),
    (
        "rope",
        "mismatch__apply-rope-reads-script-positions-unless-zero.py",
        "own-positions",
        ["with positions 1006, 1005, …, 1001", "just what it had returned for 1000, 1001, …, 1005"],
        ["every position 0"],
    ),
    ("rope", "rotated-v__values-turned-too.py", "", ["your out changed by up to 10.5"], ["counted from the first"]),
    (
        "rope",
        "rotated-v__values-turned-by-positions-from-the-first.py",
        "rebased",
        ["Your out stayed the same", "counted from the first one"],
        ["10.5", "changed by up to"],
    ),
    ("rope", "rotated-v__values-turned-too-positions-asserted.py", "unshifted", ["You rotate v as well", "Rotate only q and k"], ["1,000 slots", "changed by"]),
    (
        "rope",
        "mismatch__rotate-half-splits-axis-1.py",
        "rotate-half",
        ["of shape (2, 15, 12)", "axis 1 split at 6, the middle of the last axis, rather than the last axis itself", "q and k come out right"],
        ["makes up"],
    ),
    (
        "rope",
        "mismatch__rotate-half-head-channels-only.py",
        "rotate-half",
        ["its first 8 channels split at your head's hs / 2 = 4 and the rest left as they were"],
        ["makes up"],
    ),
    (
        "three-families",
        "mismatch__line-at-a-share-of-the-largest-gap.py",
        "line-relative",
        ["head with the bias is 0.000717", "(1.99)", "moves with the gaps"],
        [],
    ),
    (
        "permutation-matrix",
        "mismatch__rhs-by-the-pseudo-inverse.py",
        "pinv-for-transpose",
        ["np.linalg.pinv(P) where the identity has Pᵀ", "P.T"],
        ["no number typed in"],
    ),
    ("three-families", "mismatch__gap-of-the-first-slot.py", "first-row-gap", ["the first slot's outputs only", "every slot"], ["pos added to both"]),
    ("three-families", "mismatch__signed-gap.py", "signed-gap", ["largest signed difference", "no |·|"], ["pos added to both"]),
    ("context-extension", "wrong-exponent__base-wrong-and-unused.py", "1", ["inv_freq_ntk is right all the same", "not used"], ["3.914"]),
    ("embedding-backward", "indistinct__float16-out-only.py", "precision", ["float16 (`out`)", "judges no answer with a float16 array"], ["agree"]),
    ("embedding-backward", "mismatch__batch-size-typed-in.py", "typed-size", ["the starter's 2 for B:", "one sentence more", "`out[2, "], ["5 for T"]),
    ("embedding-backward", "rerun-failed__one-hot-of-ten-rows.py", "typed-size", ["the starter's 10 for V:", "index 11 is out of bounds"], []),
    # brief-only round 10 (issue 35): inputs changed in place after they were used; printed checks that say False of right arrays
    ("permutation-matrix", "unfinished__printed-check-of-other-arrays.py", "printed-apart", ["printed False 1 time(s)", "`P @ out`"], ["provisional copy"]),
    ("permutation-matrix", "mismatch__scaled-by-tokens-less-one.py", "scaled-by-other-size-rerun", ["√8, one less than the tokens", "6 wide"], ["typed"]),
    ("permutation-matrix", "mismatch__scaled-by-the-value-width.py", "scaled-by-other-size-rerun", ["the values' width, Wv.shape[1]"], ["typed"]),
    ("permutation-matrix", "mismatch__p-from-the-inverse-columns.py", "inverse-columns-P-rerun", ["np.argsort(perm)", "P = np.eye(T)[perm]"], ["typed"]),
    (
        "embedding-backward",
        "bad-shape__ids-flattened.py",
        "ids-flattened",
        ["`ids` has shape (10,), flattened", "(B, T) = (2, 5)"],
        ["Keep the starter's grad_out"],
    ),
    ("embedding-backward", "changed-input__ids-sorted-in-place.py", "before-use", ["changes `ids`", "when your script ran as written"], []),
    ("embedding-backward", "changed-input__table-stepped-before-the-lookup.py", "before-use", ["changes `wte`", "when your script ran as written"], []),
    ("learned-positions", "changed-input__gradient-aliases-the-table.py", "before-use", ["changes `wpe`", "of its 32 entries changed"], []),
    ("learned-positions", "changed-input__position-table-stepped-in-place.py", "before-use", ["changes `wpe`"], []),
    ("learned-positions", "changed-input__position-table-stepped-after-use.py", "", ["`wpe` no longer held what it was given"], []),
    ("alibi", "changed-input__head-count-set-again.py", "before-use", ["changes `n_heads`", "was 64 as given, and 12 when the run ended"], []),
    ("context-extension", "changed-input__factor-set-again.py", "before-use", ["changes `factor`", "was 1.5 as given, and 4 when the run ended"], []),
    ("sinusoidal-table", "changed-input__width-set-again.py", "before-use", ["changes `C`", "was 12 as given, and 8 when the run ended"], []),
    # brief-only round 11 (issue 35): learned-positions
    ("learned-positions", "length-check__message-numbers-in-words.py", "typed-numbers", ["which quotes eight and ten", "written out in words"], []),
    ("learned-positions", "length-check__message-says-too-short.py", "says-short", ["the opposite of why", "“tokens is too short”"], ["Well done"]),
    (
        "learned-positions",
        "length-check__numpy-error-raised-again.py",
        "broadcast-only",
        ["cut to its first row, and it answered", "only where NumPy fails"],
        [],
    ),
    (
        "learned-positions",
        "bad-shape__gradient-sized-by-the-global-max-len.py",
        "gradient-not-the-tables",
        ["has shape (8, 4), but the table it is the gradient of has shape (6, 4)", "np.zeros_like(wpe)"],
        [],
    ),
    (
        "learned-positions",
        "length-check__prints-and-returns-empty.py",
        "returned-empty",
        ["no error came out of it", "returned is empty"],
        ["refused by NumPy"],
    ),
    ("learned-positions", "mismatch__long-ids-cut-to-the-table.py", "long-ids-changed", ["Your long_ids has 8 tokens", "Put those lines back"], ["modulo"]),
    (
        "learned-positions",
        "length-check__checks-a-single-sequence-only.py",
        "check-skipped",
        ["in 3 sequences, nor 9 tokens", "whatever the batch"],
        ["global `max_len`"],
    ),
    ("learned-positions", "length-check__bound-of-the-token-table.py", "refuses-longer-table-other", ["the token table's wte.shape[0]"], ["the starter's 8"]),
    (
        "learned-positions",
        "mismatch__position-rows-clipped.py",
        "tables-not-added",
        ["does not add the rows of the tables it is given", "moves by 3"],
        ["script's own"],
    ),
    (
        "learned-positions",
        "changed-input__gradient-aliases-the-table-after-x.py",
        "before-use",
        [
            "changes `wpe`",
            "-1.608 when the run ended",
            "Your `x` fits `wpe` as given, but on the checker's rerun with `max_len` three larger",
            "your `too_long` fits that changed `wpe`",
        ],
        ["`x[0", "Your arrays fit"],
    ),
    (
        "learned-positions",
        "changed-input__table-negated-after-use.py",
        "before-use",
        ["changes `wpe`", "was 0.003135 as given, and -0.003135 when the run ended", "your `x` fits that changed `wpe`"],
        ["script's own"],
    ),
    # brief-only round 12: learned-positions, a refusal's numbers in their roles and its meaning, a wide table, an assert
    (
        "learned-positions",
        "length-check__message-numbers-swapped.py",
        "wrong-number",
        ["its “table has 10” is not the table's 8 rows", "in each other's places"],
        [],
    ),
    (
        "learned-positions",
        "length-check__message-sequence-of-the-batch.py",
        "wrong-number",
        ["its “sequence of 1” is not the sequence's 10 tokens", "len(ids)"],
        [],
    ),
    (
        "learned-positions",
        "length-check__message-at-most-one-too-few.py",
        "wrong-number",
        ["its “at most 7” is not the table's 8 rows", "at most 8 tokens fit"],
        [],
    ),
    (
        "learned-positions",
        "length-check__message-calls-the-table-long.py",
        "says-table-long",
        ["the opposite of why", "“table (8 rows) is too long”"],
        ["Well done"],
    ),
    ("learned-positions", "length-check__bound-of-the-tables-largest-side.py", "wide-table", ["5 tokens with a table of 3 rows", "max(wpe.shape)"], []),
    (
        "learned-positions",
        "length-check__assert-caught-by-an-edited-except.py",
        "assert",
        ["with an assert (AssertionError: cannot forward", "except line"],
        ["by NumPy"],
    ),
    (
        "learned-positions",
        "wraps-around__bound-of-the-global-max-len-clipped.py",
        "one-past-unread",
        ["does not compare T with the table", "global `max_len`"],
        ["T > max_len + 1"],
    ),
    # brief-only round 11 (issue 35): sinusoidal-table, a small shift error set to 0: exactly 0 where the differences round
    (
        "sinusoidal-table",
        "mismatch__small-error-set-to-zero.py",
        "shift-figure-zeroed",
        ["Your shift_error is exactly 0, where", "of your own pe and M is 1.11e-16", "set it to 0, or left out its rows, below some threshold"],
        ["typed", "before `pe` was set"],
    ),
    (
        "sinusoidal-table",
        "mismatch__signed-maximum-the-other-way.py",
        "no-abs-reversed",
        ["the largest signed difference M @ pe[t] − pe[t + k], with no |·|", "bent in five places"],
        ["typed in", "t = 0 … 8 only"],
    ),
    (
        "sinusoidal-table",
        "mismatch__error-drops-the-last-channel.py",
        "some-channels",
        ["the largest over channels 0 … 10 only", "leaves out channel 11", "t = 8, channel 11 (pair 5's cosine)"],
        ["typing", "one row"],
    ),
    # brief-only round 13 (issue 35): one row or one channel left out, caught by the covering reruns, named in the learner's numbers
    (
        "sinusoidal-table",
        "mismatch__error-skips-the-second-row.py",
        "left-out",
        ["9 times with your own sizes (T = 12, C = 8, k = 3)", "leaves out t = 1."],
        ["leaves out channel"],
    ),
    ("sinusoidal-table", "mismatch__error-skips-channel-one.py", "left-out", ["leaves out channel 1 (perhaps only the one entry"], ["leaves out t"]),
    ("sinusoidal-table", "mismatch__error-skips-every-third-row.py", "left-out", ["your maximum leaves out t = 2, 5 and 8"], ["one row short"]),
    (
        "sinusoidal-table",
        "mismatch__error-skips-channel-zero.py",
        "some-channels",
        ["channels 1 … 97 only", "leaves out channel 0;"],
        ["cosine channels only", "sines"],
    ),
    (
        "sinusoidal-table",
        "mismatch__frequencies-rounded.py",
        "frequencies-rounded",
        ["Your `pe` is built from frequencies rounded to 4 decimal places", "`pe[13, 8]` is 0.02821"],
        ["typed in"],
    ),
    (
        "sinusoidal-table",
        "indistinct__float16.py",
        "precision",
        ["and a typed figure in `shift_error` (a figure held, like every other, to the rounding of your coarsest array, `pe`, `M`) agree", "which of the two"],
        ["typed in in"],
    ),
    # brief-only round 14 (issue 35): a pair count typed as a sum, and the first half of the channels, named as such
    (
        "sinusoidal-table",
        "mismatch__pairs-typed-as-a-sum.py",
        "unrelated",
        ["the starter's 4 for the number of pairs, C/2)", "`M[10, 10]` is 0"],
        ["3 for k"],
    ),
    (
        "sinusoidal-table",
        "mismatch__error-over-the-first-half-of-the-channels.py",
        "some-channels",
        ["the largest over channels 0 … 5 only, and leaves out channels 6 … 11"],
        ["0 … 6", "7 … 11"],
    ),
    (
        "sinusoidal-table",
        "mismatch__measured-before-pe-is-set.py",
        "shift-figure-unbent",
        ["measured before `pe` was set (from another array, or a copy"],
        [],
    ),
    ("sinusoidal-table", "mismatch__error-rounded.py", "rounded", ["your shift_error is 0.00837", "rounded to 6 decimal places"], ["typing", "one row"]),
    # brief-only round 12 (embedding-backward): caps typed just above the starter's sizes meet the larger rerun
    (
        "embedding-backward",
        "mismatch__block-size-crop.py",
        "unrelated",
        ["`out[2, 9, 0]` is 0", "a larger batch (two sentences more and six tokens longer"],
        ["one token longer"],
    ),
    (
        "embedding-backward",
        "mismatch__repeats-in-four-passes.py",
        "uses-capped",
        ["counts each id at most 4 times", "id 5 appears 5 times in the ids of the checker's rerun", "ten rows and eight channels more"],
        ["three rows", "does not follow them"],
    ),
    ("embedding-backward", "mismatch__sentences-capped-at-three.py", "unrelated", ["`grad_wte[17, ", "two sentences more"], ["one sentence more"]),
    (
        "embedding-backward",
        "mismatch__channels-capped-at-eight.py",
        "channels-capped",
        ["every channel from 8 on", "wte has 12 channels, and channels 8 … 11 of your grad_wte are 0", "eight channels more"],
        ["four channels", "ids but does not follow"],
    ),
    (
        "embedding-backward",
        "mismatch__ids-clipped-to-fifteen.py",
        "other-rows",
        ["holds rows of `wte`", "id 18 got row 15", "a larger batch"],
        ["table of your own"],
    ),
    (
        "embedding-backward",
        "mismatch__last-row-copied.py",
        "unused-copied",
        ["rows 12, which the ids of the checker's rerun", "hold the gradient of rows 11"],
        ["never cleared", "np.empty"],
    ),
    ("embedding-backward", "overwritten__buffered-on-another-name.py", "", ["a buffered `g[ids] += grad_out`, whatever the array is called"], []),
    # brief-only round 14's fixes of round 13's messages: a copy of ids typed in, rows filled with one number, the full-length rerun
    (
        "embedding-backward",
        "mismatch__ids-copied-in-the-lookup.py",
        "typed-copy",
        ["a copy of the starter's `ids` instead of using `ids`", "`out` still had shape (2, 5, 8)"],
        ["2 for B"],
    ),
    (
        "embedding-backward",
        "rerun-failed__ids-copied-into-the-one-hot.py",
        "typed-copy",
        ["a copy of the starter's `ids`", "that run failed: ValueError"],
        ["for B", "for T"],
    ),
    (
        "learned-positions",
        "mismatch__ids-copied-as-literal.py",
        "typed-copy",
        ["a copy of the starter's `ids` instead of using `ids`", "`x` still had shape (3, 5, 8)"],
        ["4 for C", "3 for B"],
    ),
    (
        "learned-positions",
        "rerun-failed__ids-copied-into-the-gradient.py",
        "typed-copy",
        ["a copy of the starter's `ids`", "that run failed: ValueError"],
        ["5 for T"],
    ),
    (
        "embedding-backward",
        "mismatch__unused-rows-filled-with-1e-5.py",
        "filled-rows",
        ["rows 4, 5, 6, 8", "each hold 1e-05 in every entry"],
        ["never cleared", "np.empty"],
    ),
    ("embedding-backward", "mismatch__empty-buffer-used-rows-cleared.py", "unset-rows", ["your buffer was never cleared"], ["each hold"]),
    # brief-only round 14's findings (embedding-backward): what the rerun's figures show, named in its numbers
    (
        "embedding-backward",
        "bad-shape__one-row-per-token.py",
        "row-per-token",
        ["shape (18, 8): one row per token, ids.size = 18 (3 × 6) in the ids of the checker's rerun", "one row per row of the table, 13"],
        ["a size kept from your own run"],
    ),
    (
        "embedding-backward",
        "mismatch__tokens-looped-over-the-table-rows.py",
        "tokens-up-to-V",
        ["the first 13 tokens only", "of the 18 tokens (3 × 6) in the ids of the checker's rerun", "range(wte.shape[0])"],
        ["a size typed in"],
    ),
    (
        "embedding-backward",
        "mismatch__positions-with-a-shared-id-skipped.py",
        "shared-positions-skipped",
        ["every position where two sentences share an id", "id 5 sits at position 0 in 3 sentences", "positions 0 and 1"],
        ["a copy of the starter's ids"],
    ),
    (
        "embedding-backward",
        "mismatch__gradient-added-into-the-table.py",
        "started-from-wte",
        ["started from a copy of the table", "rows 4, 5, 6, 8, which your ids never use, equal wte's rows"],
        ["off by", "rerun"],
    ),
    ("embedding-backward", "mismatch__rows-looped-to-ten.py", "unrelated", ["does not follow them", "`grad_wte[10, "], ["first 13 tokens"]),
    # brief-only round 15 (embedding-backward, rope): what the script drew, typed or kept, named where it is
    (
        "embedding-backward",
        "rerun-failed__table-redrawn-at-typed-sizes.py",
        "own-table",
        ["a table your script draws itself, not from `wte`", "index 11 is out of bounds"],
        ["for T", "types in"],
    ),
    (
        "embedding-backward",
        "mismatch__gradient-redrawn-from-the-seed.py",
        "own-gradient",
        ["a gradient your script draws itself, not the `grad_out` given", "on that rerun `grad_wte[", "from that run's arrays"],
        ["Compute it from `ids`", "stopped at"],
    ),
    (
        "embedding-backward",
        "mismatch__gradient-redrawn-at-typed-sizes.py",
        "own-gradient",
        ["not the `grad_out` given", "on that rerun `grad_wte[3, 4]` is 0", "That run stopped at ValueError", "after every name was set"],
        ["Compute it from `ids`"],
    ),
    (
        "rope",
        "mismatch__apply-rope-base-typed-in.py",
        "typed-theta-apply-rope",
        ["rope_theta = 10000, not the rerun's 500000", "Your `apply_rope` types in 10000"],
        ["compute `inv_freq` from rope_theta"],
    ),
    ("rope", "mismatch__base-copied-into-a-name-of-its-own.py", "typed-theta-elsewhere", ["wherever the frequencies are worked out"], ["apply_rope"]),
    ("rope", "mismatch__k-set-again-after-out.py", "unrotated-after-use", ["your `out` is what a rotated k gives", "`k = X @ Wk`"], []),
    (
        "rope",
        "mismatch__apply-rope-caches-by-length.py",
        "cached-angles",
        ["x's first 5 rows at 5 positions all 0, it gave them back unturned", "a cache keyed on the length"],
        ["script's own `positions`"],
    ),
    (
        "learned-positions",
        "mismatch__add-positions-squeezes.py",
        "full-length-squeezed",
        ["with shape (11, 4)", "has shape (1, 11, 4)", "np.squeeze"],
        ["as you do for shorter"],
    ),
    (
        "learned-positions",
        "mismatch__add-positions-adds-no-positions.py",
        "full-length-no-positions",
        ["with wte[ids] alone", "your `x` has the positions added"],
        ["as you do for shorter"],
    ),
    # brief-only round 14: learned-positions, x and grad_wpe judged on every rerun; what a gradient's unused rows hold
    (
        "learned-positions",
        "mismatch__branches-on-the-starters-table.py",
        "other-run",
        ["right on your own arrays but not on the checker's rerun with `max_len` three larger", "from that run's arrays", "a branch on the table's length"],
        [],
    ),
    ("learned-positions", "mismatch__channels-capped-past-the-first-rerun.py", "other-run", ["`C` eight channels more", "`x[0, 1, 8]`"], []),
    ("learned-positions", "mismatch__gradient-drops-the-tables-last-row.py", "other-run", ["each exactly as long as the table", "`grad_wpe[10, 9]` is 0"], []),
    ("learned-positions", "every-row__started-from-wpe.py", "from-wpe", ["rows 5 … 7", "hold wpe's own rows", "a copy of the table"], ["puts gradient"]),
    ("learned-positions", "every-row__filled-with-a-small-number.py", "filled", ["rows 5 … 7", "each hold 1e-06"], ["puts gradient"]),
    ("learned-positions", "every-row__empty-like.py", "unset", ["rows 6 … 7", "nothing wrote there", "np.empty"], ["puts gradient", "a copy of the table"]),
    (
        "learned-positions",
        "changed-input__token-table-shifted-inside-the-function.py",
        "before-use",
        ["Your `x` fits `wte` as given", "your `too_long` fits neither it nor that changed `wte`"],
        ["Your arrays fit"],
    ),
    # brief-only round 15: learned-positions, a refusal that blames something else; what was done to the rows, the batch, the seed
    ("learned-positions", "length-check__message-blames-the-vocabulary.py", "blames-other", ["out of range of the vocabulary", "“vocabulary”"], ["Well done"]),
    ("learned-positions", "length-check__message-blames-the-ids-shape.py", "blames-other", ["“2-D” speaks of the ids' type"], ["quotes 2"]),
    ("learned-positions", "every-row__sum-in-the-last-rows.py", "at-the-end", ["last 5 rows, 3 … 7", "`grad_wpe[-T:]`"], ["np.empty", "nothing wrote"]),
    ("learned-positions", "every-row__weight-decay-added.py", "plus-table", ["adds 0.01 × wpe to every row", "weight-decay"], ["np.empty"]),
    (
        "learned-positions",
        "wraps-around__checks-a-batch-of-one-only.py",
        "one-past-batch",
        ["7 tokens in each of 3 sequences", "only for some batches"],
        ["global"],
    ),
    ("learned-positions", "mismatch__arrays-drawn-again-from-the-seed.py", "redrawn", ["the starter's seed again", "types in the starter's 3 for B"], []),
    # brief-only round 16: learned-positions, a check of the global table; embedding-backward, ids sorted between two uses
    ("learned-positions", "length-check__checks-the-global-table.py", "global-table", ["5 tokens with a table of 3 rows", "the script's global `wpe`"], []),
    # brief-only round 19: learned-positions, a bound fixed by a default argument, a check after the lookup, the global ids
    (
        "learned-positions",
        "length-check__bound-fixed-by-a-default-argument.py",
        "fixed-rows",
        ["once 8 channels wide and once 1 wide", "a default argument such as `n_rows=wpe.shape[0]`", "when the function is defined"],
        ["max(wpe.shape)"],
    ),
    (
        "learned-positions",
        "length-check__check-after-the-lookup.py",
        "check-after-lookup",
        ["comes after a lookup that fails first", "(IndexError: index 8 is out of bounds", "your check never ran"],
        ["Whatever your check tests"],
    ),
    (
        "learned-positions",
        "mismatch__add-positions-looks-up-the-global-ids.py",
        "full-length-global-ids",
        ["with shape (3, 5, 4)", "the script's global `ids`, not for the 11 tokens it was given"],
        ["Look the positions up as you do", "another shape"],
    ),
    ("learned-positions", "mismatch__gradient-redrawn-at-typed-sizes.py", "redrawn", ["the starter's seed again", "3 for B, 5 for T", "that run failed"], []),
    (
        "learned-positions",
        "length-check__check-and-message-of-the-vocabulary.py",
        "vocabulary-compared",
        ["compares T with the vocabulary's size", "6 is the token table's rows", "refused those 11 tokens"],
        [],
    ),
    (
        "embedding-backward",
        "changed-input__ids-sorted-between-gradient-and-lookup.py",
        "before-use",
        ["changes `ids`", "its entries were sorted", "Your `grad_wte` fits `ids` as given, but your `out` fits that changed `ids`"],
        ["from your own arrays it should be"],
    ),
]


def test_unset_rows_named_are_the_unused_ones(course, checker):
    """The rows quoted are rows the learner's ids never use (4, 5, 6, 8), as many as the memory left non-zero; where
    it left them all 0, the rerun (which leaves NaN there) shows the mistake and the message says the ids are its."""
    exercise = course.exercises["embedding-backward"]
    verdict = checker.check(exercise, exercise.mistakes["mismatch__empty-buffer-used-rows-cleared.py"], limits=LIMITS)
    quoted = re.search(r"rows? ((?:\d+, )*\d+), which (your ids|the ids of the checker's rerun)", verdict.message)
    assert quoted, verdict.message
    rows = {int(row) for row in quoted.group(1).split(", ")}
    assert quoted.group(2) != "your ids" or rows <= {4, 5, 6, 8}, verdict.message


@pytest.mark.parametrize("exercise_id, file_name, cause, present, absent", MEANINGS, ids=[f"{m[0]}/{m[1]}" for m in MEANINGS])
def test_each_message_says_what_the_learner_did(course, checker, exercise_id, file_name, cause, present, absent):
    exercise = course.exercises[exercise_id]
    verdict = checker.check(exercise, exercise.mistakes[file_name], limits=LIMITS)
    assert verdict.details.get("cause", "") == cause, (verdict.diagnosis, verdict.details, verdict.message)
    for words in present:
        assert words in verdict.message, (words, verdict.message)
    for words in absent:
        assert words not in verdict.message, (words, verdict.message)


def test_a_brief_whose_checker_refuses_the_course_functions_says_what_may_be_imported(course):
    """A learner told "write them with NumPy" by the borrowed verdict must have read it in the brief first; all six of lessons 5-10's do."""
    refusing = {exercise.id for exercise in course.exercises.values() if "mismatch/borrowed" in exercise.messages}
    assert refusing >= {"embedding-backward", "sinusoidal-table", "learned-positions", "rope", "alibi", "context-extension", "permutation-matrix"}
    for exercise_id in refusing:
        instructions = " ".join(course.exercises[exercise_id].instructions.split())
        starter = course.exercises[exercise_id].starter
        allowed = "Use NumPy and the `softmax` the starter imports" if "import softmax" in starter else "Use NumPy only"
        assert allowed in instructions, exercise_id


def test_a_figure_from_the_learners_run_is_quoted_as_theirs(course, checker):
    """A constant offset compared without reordering: the rerun names the cause, the message quotes the learner's own figure."""
    source = replace(CO, "Wv)[:, perm]).max()", "Wv)).max()")
    verdict = checker.check(course.exercises["constant-offset"], source, limits=LIMITS)
    namespace: dict = {}
    exec(source, namespace)
    own = f"{float(namespace['max_diff']):.3g}"
    assert verdict.details["cause"] == "unreordered" and f"Your max_diff ({own}" in verdict.message, verdict.message
    assert "rerun" not in verdict.message, verdict.message


# --- a white-box adversary: wrong answers written after reading the checker -------------------

ADVERSARY = sorted((Path(__file__).parent / "adversary").glob("*/*.py"))


@pytest.mark.parametrize("path", ADVERSARY, ids=[f"{p.parent.name}/{p.name}" for p in ADVERSARY])
def test_the_white_box_adversary_gets_the_verdict_named(course, checker, path):
    """Each is named by the verdict it gets: a defect fixed (a diagnosis), or a limit that still passes (passed__limit-…)."""
    verdict = checker.check(course.exercises[path.parent.name], path.read_text(), limits=LIMITS)
    assert verdict.diagnosis == path.name.split("__")[0], (verdict.message, verdict.details)


def test_every_pass_the_adversary_found_is_a_documented_limit():
    limits = [p for p in ADVERSARY if p.name.startswith("passed__")]
    assert limits and all(p.name.startswith("passed__limit-") for p in limits)
    documented = (Path(__file__).parents[2] / "docs" / "CHECKING.md").read_text()
    for path in limits:
        assert f"{path.parent.name}/{path.name}" in documented, f"{path.name} passes but docs/CHECKING.md does not say why"


@pytest.mark.parametrize(
    "tail, diagnosis, cause, words",
    [
        ("print(undefined_name)", "error", "name", "uses a name Python does not know"),
        ("import torch", "error", "import", "could not be imported"),
        ("print(in_order[4])", "error", "batch-axis", "which holds the batch"),
        ("print(in_order[0, 9])", "error", "index", "indexes past the end"),
        ("print(in_order[np.array([0.0])])", "error", "index-type", "not whole (floats)"),
        ("assert in_order.sum() > 1e9, 'too small'", "error", "own-raise", "your own raise or assert"),
        ("np.ones((6, 8)) - np.ones((5, 8))", "error", "shapes", "shapes do not fit"),  # row-ranges is sinusoidal-table's own
        ("print({}['key'])", "error", "key", "a key it does not hold"),
        ("len(5)", "error", "type", "a value of the wrong kind"),
        ("attention_output(X)", "error", "arguments", "attention_output takes four"),
        ("int('six')", "error", "value", "got a value it cannot use"),
        ("np.ones((6, 8)) @ np.ones((7, 8))", "error", "shapes", "shapes do not fit"),
        ("def f(n):\n    return f(n + 1)\nf(0)", "error", "recursion", "calls itself without end"),
        ("print 'max_diff', max_diff", "syntax-error", "print", "print(x)"),
        ("if True:\nprint(1)", "syntax-error", "indent", "indented differently"),
        ("x = (1, 2", "syntax-error", "unclosed", "never closed"),
        ("for k in range(3)\n    pass", "syntax-error", "colon", "ends with a colon"),
        ("big = np.zeros((2 ** 31, 2 ** 10))", "memory", "allocation", "one array larger than the run's memory"),
        ("grown = []\nwhile True:\n    grown.append(np.ones(10 ** 7))", "memory", "growing", "little by little"),
    ],
)
def test_every_error_family_gets_advice_of_its_own_with_its_line(course, checker, tail, diagnosis, cause, words):
    source = CO + "in_order = attention_output(X + pos, Wq, Wk, Wv)\n" + tail + "\n"
    limits = Limits(timeout_s=20.0, memory_mb=768) if diagnosis == "memory" else LIMITS  # filling 768 MiB is slow on a busy machine
    verdict = checker.check(course.exercises["constant-offset"], source, limits=limits)
    assert verdict.diagnosis == diagnosis and verdict.details.get("cause") == cause, (verdict.details, verdict.message)
    assert words.lower() in verdict.message.lower(), verdict.message
    first = CO.count("\n") + 2  # the tail's first line; an error deeper in it names its own line
    line = re.search(r"line (\d+)", verdict.message.lower())
    assert line and first <= int(line[1]) <= first + 2, verdict.message


@pytest.mark.parametrize("named, diagnosis", [("np.float32", "passed"), ("1.0", "mismatch")])
def test_float32_named_in_the_source_allows_its_rounding_in_float64_arrays(course, checker, named, diagnosis):
    """q off by 2e-7 (float32's rounding of the angles) is rounding where the script computes in float32, a mistake where it does not."""
    source = COURSE.exercises["rope"].solution + f"q = q + 2e-7 * {named}(1)\n"
    verdict = checker.check(course.exercises["rope"], source.replace("1.0(1)", "1.0"), limits=LIMITS)
    assert verdict.diagnosis == diagnosis, verdict.message


@pytest.mark.parametrize(
    "style, words",
    [
        ("large-negative-mask", "a large negative number rather than −inf"),
        ("official-shortcut-with-mask", "+m·j shortcut with the mask"),
    ],
)
def test_alibis_two_accepted_forms_pass_saying_which(course, checker, style, words):
    """The brief accepts −1e9 for −inf and the official +m·j shortcut under the mask; the pass says which the learner wrote."""
    verdict = checker.check(course.exercises["alibi"], right_answer("alibi", style), limits=LIMITS)
    assert verdict.passed and words in verdict.message, verdict.message


def _context_extension_arrays() -> dict[str, np.ndarray]:
    namespace: dict = {}
    exec(COURSE.exercises["context-extension"].solution.replace("print(", "(lambda *shown: None)("), namespace)
    return {name: np.asarray(namespace[name]) for name in ("inv_freq", "inv_freq_pi", "inv_freq_ntk")}


@pytest.mark.parametrize(
    "printed, cause",
    [
        ("PI [0.25 0.25]\nNTK [1.   0.25]\n", None),
        ("[[2.50000000e-01 2.50000000e-01]\n [1.00000000e+00 2.50000000e-01]]\n", None),  # one array of both, in NumPy's scientific form
        ("0 0.25 1.0\n1 0.25 0.97823566\n63 0.25 0.25\n", None),  # pair by pair, float32's digits
        ("0 0.25 1.0\n1 0.25 0.97823566\n", "ntk-before-last"),  # pair by pair, the last pair left out (round 16)
        ("PI [0.25 0.25 0.25]\nNTK [1.   0.97823566 0.95694501]\n", "ntk-before-last"),  # pairs 0 to 2 (w37, round 16)
        ("PI : 0.2500 0.2500 0.2500 range 0.2500..0.2500\nNTK: 1.0000 0.4945 0.2500 range 0.2500..1.0000\n", None),  # ends, middle, range
        ("PI keeps 25.0%\nNTK keeps 100.0% of pair 0, 25.0% of the last\n", None),
        ("PI keeps 25.0%\nNTK keeps 100.0% of pair 0\n", "ntk-pair-0"),  # the brief: "look at the first and the last pair" (issue 35)
        ("PI [0.25 0.25]\nNTK [1. 1.]\n", "ntk-all-ones"),  # inv_freq over a copy of itself, printed before inv_freq_ntk was set
        ("pair 0: PI x0.2500  NTK x1.0000\npair 63: PI x0.2500  NTK x0.2500\n", None),  # a multiplier written x0.25
        ("hs/(hs-2) = 1.0159\nPI [0.25 0.25]\nNTK [1.   0.25]\n", None),  # another figure, on a line of its own
        ("PI [0.25 0.25]\n", "not-ratios"),
        ("last pair: 0.25 0.24999999999999997\n", "last-pair-only"),  # both at the last pair only, where they agree (round 11)
        ("PI last: 0.25\nNTK last: 0.25\n", "last-pair-only"),
        ("PI [4. 4.]\nNTK [1. 4.]\n", "not-ratios"),
        ("PI: all 1/4\n", "not-ratios"),
        ("PI  pair 0, last: 0.25 0.25\nNTK pair 0, last: 1.0 0.25\n", None),  # the brief's first and last pair only (w36, round 10)
        ("PI [" + " ".join(["1."] * 64) + "]\nNTK [1. 0.25]\n", "ratio-off"),  # PI printed whole, before it was divided
        ("NTK [1. " + " ".join(["0.25"] * 63) + "]\nPI [0.25 0.25]\n", "ratio-off"),  # NTK printed whole, but PI's after pair 0
    ],
)
def test_the_printed_ratios_are_read_from_what_the_script_printed(printed, cause):
    """context-extension's last step: the numbers printed must be the two ratios, new over trained, however they are printed."""
    from attnpos.lessons.checker.contracts.context_extension import _judge_print
    from attnpos.lessons.checker.verdicts import Mistake

    try:
        _judge_print(_context_extension_arrays(), printed)
    except Mistake as mistake:
        assert (mistake.diagnosis, mistake.cause) == ("unfinished", cause), mistake.fields
    else:
        assert cause is None, printed


def test_typed_numbers_printed_as_a_table_are_told_by_column_not_row_by_row():
    """A table a row a pair of numbers typed in is said once per column, never once per row (round 11: r17 was told 64 times)."""
    from attnpos.lessons.checker.contracts.context_extension import _typed_print

    arrays = _context_extension_arrays()
    pi, ntk = arrays["inv_freq_pi"] / arrays["inv_freq"], arrays["inv_freq_ntk"] / arrays["inv_freq"]
    shown = _typed_print(arrays, "".join(f"{p:.4f} {n:.4f}\n" for p, n in zip(pi, ntk, strict=True)) + "done 1.5\n" * 3).fields["shown"]
    assert shown.count("column 1 of") == 1 and shown.count("column 2 of") == 1 and "typed rather than computed" in shown, shown
    assert "`done 1.5` and 2 more lines like it are neither ratio" in shown and shown.count("done 1.5") == 1, shown


def test_the_starter_values_the_contract_holds_are_the_starters():
    """context-extension refuses right arrays on values of the learner's own: STARTER must be what starter.py sets."""
    from attnpos.lessons.checker.contracts.context_extension import STARTER

    namespace: dict = {}
    exec(COURSE.exercises["context-extension"].starter, namespace)
    assert {name: namespace[name] for name in STARTER} == STARTER


@pytest.mark.parametrize("first_half_ones, cause", [(False, None), (True, "ratio-off")])
def test_a_ratio_printed_pair_by_pair_is_compared_at_every_pair(first_half_ones, cause):
    """A table a row a pair is read column by column: an NTK column left at 1 for half the pairs is named (issue 35)."""
    from attnpos.lessons.checker.contracts.context_extension import _judge_print
    from attnpos.lessons.checker.verdicts import Mistake

    arrays = _context_extension_arrays()
    pi, ntk = arrays["inv_freq_pi"] / arrays["inv_freq"], arrays["inv_freq_ntk"] / arrays["inv_freq"]
    if first_half_ones:
        ntk[: ntk.size // 2] = 1.0
    printed = "".join(f"pair {i}: PI {p:.4f}  NTK {n:.4f}\n" for i, (p, n) in enumerate(zip(pi, ntk, strict=True)))
    try:
        _judge_print(arrays, printed)
    except Mistake as mistake:
        assert (mistake.diagnosis, mistake.cause) == ("unfinished", cause), mistake.fields
        assert mistake.fields["ratio"] == "NTK" and mistake.fields["where"] == f"pairs 1–{ntk.size // 2 - 1}", mistake.fields
    else:
        assert cause is None, printed


def test_an_entry_off_past_the_fourth_digit_is_shown_with_the_digits_that_differ():
    from attnpos.lessons.checker.contracts.common import worst_entry

    worst = worst_entry("x", np.array([0.51231, 1.0]), np.array([0.51234, 1.0]))["worst"]  # both 0.5123 to four digits
    assert "`x[0]` is 0.51231;" in worst and "should be 0.51234" in worst, worst
    assert "is 1.5;" in worst_entry("x", np.array([1.5]), np.array([2.0]))["worst"]  # no digits beyond what differs


def test_an_array_of_another_shape_is_off_by_what_its_axes_are_off_by_in_every_message():
    """Round 19: worst_entry gave "(another shape)" as what an array of another shape was off by, and every template
    with "(off by {got})" then read "(off by (another shape))"."""
    from attnpos.lessons.checker.contracts.common import worst_entry
    from attnpos.lessons.checker.verdicts import render

    fields = worst_entry("too_long", np.zeros((3, 5, 4)), np.zeros((1, 11, 4)))
    assert fields["got"] == "2 along axis 0 and 6 along axis 1", fields
    assert worst_entry("x", np.zeros((3, 5)), np.zeros((3, 5, 4)))["got"] == "1 axis"
    templates = [(e, key) for e in COURSE.exercises.values() for key, template in e.messages.items() if "off by {got}" in template]
    assert templates
    for exercise, key in templates:
        diagnosis, _, cause = key.partition("/")
        message = render(exercise, diagnosis, cause, name="too_long", **fields)
        assert "off by 2 along axis 0 and 6 along axis 1" in message and "((" not in message, (exercise.id, key, message)


def test_a_borrowed_helper_is_headed_as_borrowed_not_as_a_mismatch():
    from attnpos.lessons.checker.verdicts import Verdict

    assert Verdict("rope", False, "mismatch", "", {"cause": "borrowed"}).heading == "✗ not yet: borrowed from attnpos"
    assert Verdict("rope", False, "mismatch", "", {"cause": "imports-by-name"}).heading == "✗ not yet: code loaded by name"
    assert Verdict("rope", False, "mismatch", "", {"cause": "array"}).heading == "✗ not yet: mismatch"
