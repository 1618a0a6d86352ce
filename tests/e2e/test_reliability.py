"""Fault injection and bad input: nothing a learner did is lost, and nothing takes the app down."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from attnpos.lessons.course.progress import STATE_FILE, Progress

SAVER = """
import sys
from attnpos.lessons.course.progress import Progress
progress = Progress.load(sys.argv[1])
print("ready", flush=True)
for n in range(500):
    progress.update_exercise("constant-offset", draft=f"draft {n}\\n" + "x = 1\\n" * 200)
    assert progress.save()
print("done", flush=True)
"""


def test_kill_9_during_500_saves_never_tears_the_file(tmp_path):
    rng = random.Random(20261129)
    seen = []
    for _ in range(8):
        process = subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        assert process.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.6))
        process.send_signal(signal.SIGKILL)
        process.wait()
        if not (tmp_path / STATE_FILE).exists():
            continue
        state = json.loads((tmp_path / STATE_FILE).read_text())  # always parses: never torn
        draft = state["exercises"]["constant-offset"]["draft"]
        first, rest = draft.split("\n", 1)
        assert first.startswith("draft ") and rest == "x = 1\n" * 200
        seen.append(int(first.split()[1]))
        assert not Progress.load(tmp_path).notices
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) <= 8  # a kill between mkstemp and rename can leave one temporary file, never a bad state
    assert seen, "no save ever completed before a kill"


# --- a fuzzed lesson loader -------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from attnpos.lessons.course.loader import CourseError, load_course  # noqa: E402
from tiny_course import EXERCISE_TOML, write_lesson  # noqa: E402

PIECES = [
    "+++",
    'title = "T"',
    'summary = "S"',
    "title = ",
    "## A section",
    "## ",
    "### sub",
    "",
    "Plain prose.",
    "A figure {{offset.gap:.2f}}.",
    "{{offset.gap:.2q}}",
    "{{nope.nothing}}",
    "{{ shuffle.gap }}",
    "math $\\alpha_{ij}$ inline",
    "$\\frac{a}{b$",
    "$x^{$",
    "$\\bogus$",
    "$$",
    "\\frac{1}{\\sqrt{d_k}}",
    "$a_{b_{c}}$",
    "```",
    "````",
    "```python",
    "```python run",
    "```python fast",
    "```text run",
    "```{grid}",
    "```{quiz}",
    "```{exercise}",
    "```{bogus}",
    "```{}",
    'figure = "sentence.weights"',
    'figure = "offset.gap"',
    'compare = "sentence.edited_weights"',
    'titles = ["a"]',
    'titles = "a"',
    'id = "ex-one"',
    'id = "q1"',
    "id = 3",
    'question = "?"',
    'choices = ["a", "b"]',
    "choices = []",
    "choices = [1, 2]",
    "answer = 0",
    "answer = 5",
    "answer = -1",
    'explanations = ["x", "y"]',
    "explanations = 3",
    "print(1)",
    "raise ValueError('x')",
    "= broken toml",
    "[table",
    "\x00",
    "é ü",
    "\t",
    "mark_changed = true",
]

BLOCK_BODY = [p for p in PIECES if "=" in p or p.startswith(("[", "print", "raise"))]
CLOSED_BLOCKS = st.builds(
    lambda info, body: f"```{info}\n" + "\n".join(body) + "\n```",
    st.sampled_from(["{grid}", "{quiz}", "{exercise}", "{bogus}", "python", "python run", "text"]),
    st.lists(st.sampled_from(BLOCK_BODY), max_size=8),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    header=st.sampled_from(['+++\ntitle = "T"\nsummary = "S"\n+++\n', '+++\ntitle = "T"\nsummary = "S"\n+++\n## S\n', ""]),
    lines=st.lists(st.sampled_from(PIECES) | CLOSED_BLOCKS | st.text(max_size=30), max_size=40),
    cut=st.integers(0, 2000),
    data=st.data(),
)
def test_fuzzed_lessons_give_file_and_line_never_a_traceback(tmp_path_factory, header, lines, cut, data):
    root = tmp_path_factory.mktemp("fuzz")
    content, exercises = root / "content", root / "exercises" / "ex-one"
    content.mkdir()
    exercises.mkdir(parents=True)
    text = header + "\n".join(lines)[:cut]
    write_lesson(content, "01-fuzz", text, errors="surrogateescape")
    toml_lines = EXERCISE_TOML.splitlines()
    kept = data.draw(st.lists(st.booleans(), min_size=len(toml_lines), max_size=len(toml_lines)))
    (exercises / "exercise.toml").write_text("\n".join(line for line, k in zip(toml_lines, kept, strict=True) if k))
    (exercises / "starter.py").write_text("x = 1  # TODO\n")
    if data.draw(st.booleans()):
        (exercises / "solution.py").write_text("x = 2\n")
    try:
        load_course(root / "content", root / "exercises")
    except CourseError as error:
        assert error.problems
        for problem in error.problems:
            where, _, message = str(problem).partition(": ")
            assert message, problem
            path, _, line = where.rpartition(":")
            assert path.endswith((".md", ".toml", ".py")) and line.isdigit(), problem


# --- odd values in an answer ------------------------------------------------------

from attnpos.lessons.checker import CONTRACTS, Limits  # noqa: E402

COURSE = load_course()
ODD_VALUES = {
    "nan": "np.nan",
    "inf": "np.full((1, 6, 8), np.inf)",
    "empty": "np.zeros((0,))",
    "empty-3d": "np.zeros((1, 0, 8))",
    "object": "np.array([object(), 1], dtype=object)",
    "string": "'a string'",
    "complex": "np.ones((1, 6, 8)) * 1j",
    "bool-array": "np.ones((1, 6, 8), dtype=bool)",
    "ragged-list": "[[1, 2], [3]]",
    "none": "None",
    "huge-int": "10 ** 40",
    "4d": "np.ones((1, 1, 6, 8))",
}


def odd_value_cases():
    """Every exercise × odd value × name the judge reads. The default run takes one name per pair, in turn, so
    each name still meets several odd values; the whole product (about 600 checks) runs with -m slow."""
    for exercise_id, contract in CONTRACTS.items():
        for index, odd in enumerate(ODD_VALUES):
            for position, name in enumerate(contract.names):
                marks = () if position == index % len(contract.names) else (pytest.mark.slow,)
                yield pytest.param(exercise_id, odd, name, marks=marks, id=f"{odd}-{exercise_id}-{name}")


@pytest.mark.parametrize("exercise_id, odd, name", odd_value_cases())
def test_odd_values_get_a_diagnosis_never_an_exception(checker, exercise_id, odd, name):
    exercise = COURSE.exercises[exercise_id]
    source = exercise.solution + f"\n{name} = {ODD_VALUES[odd]}\n"
    verdict = checker.check(exercise, source, limits=Limits(timeout_s=5))
    # True is 1: a valid constant offset; an empty too_long is learned-positions's mark of a refusal, as its starter sets it
    refusal = (exercise_id, name) == ("learned-positions", "too_long") and odd.startswith("empty")
    # An input the starter gives, set to anything once the answer was computed from it, changes no answer: the arrays
    # are judged on the input as given (docs/CHECKING.md), and the script's last line is after every use of it.
    set_after_use = name in CONTRACTS[exercise_id].given
    assert not verdict.passed or odd == "bool-array" or refusal or set_after_use, (name, verdict)
    assert verdict.diagnosis in CONTRACTS[exercise_id].every_diagnosis and verdict.message, (name, verdict)


def test_a_huge_array_is_judged(checker):
    exercise = COURSE.exercises["constant-offset"]
    verdict = checker.check(exercise, exercise.solution + "\nX = np.zeros((1, 3000, 3000))\n", limits=Limits(timeout_s=20))
    assert verdict.diagnosis in ("bad-shape", "mismatch", "memory")


# --- the command line with bad input ------------------------------------------------


def attnpos(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "attnpos", *args], capture_output=True, cwd=cwd, timeout=120)


PAST_LAST_LESSON = COURSE.lessons[-1].number + 1  # a lesson number the course does not have, however long it grows


@pytest.mark.parametrize(
    "setup, args, words",
    [
        (None, ["check", "nope", "a.py"], b"unknown exercise"),
        (None, ["grade", "nope", "a.py"], b"unknown exercise"),
        (None, ["exercise", "nope"], b"unknown exercise"),
        (None, ["watch", "nope", "a.py"], b"unknown exercise"),
        (None, ["check", "constant-offset", "missing.py"], b"no such file"),
        (None, ["check", "constant-offset", "folder"], b"not a file"),
        (None, ["grade", "constant-offset", "folder"], b"no .py files"),
        ("latin1", ["check", "constant-offset", "latin1.py"], b"not UTF-8"),
        (None, ["lessons", "show", str(PAST_LAST_LESSON)], f"no lesson {PAST_LAST_LESSON}".encode()),
        (None, ["lessons", "show"], b"say which lesson"),
        (None, ["open", "nine"], b"neither a lesson"),
        (None, ["hint", "constant-offset", "0"], b"hints 1 to"),
        (None, ["grade", "constant-offset", "a.py", "--jobs", "0"], b"at least 1"),
        (None, ["nosuchcommand"], b"invalid choice"),
        (None, ["check", "constant-offset"], b"required"),
    ],
)
def test_bad_command_lines_give_one_line_and_exit_2(tmp_path, monkeypatch, attnpos, setup, args, words):
    """In-process (this ``attnpos`` is conftest's): an uncaught exception would fail the test itself."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    if setup == "latin1":
        (tmp_path / "latin1.py").write_bytes("pos = 0.6  # d\xe9j\xe0 vu\n".encode("latin-1"))
    result = attnpos(*args)
    assert result.returncode == 2, result
    assert words.decode() in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_grade_reports_an_unreadable_file_and_grades_the_rest(tmp_path):
    (tmp_path / "good.py").write_text(COURSE.exercises["constant-offset"].solution)
    (tmp_path / "latin1.py").write_bytes("pos = 0.6  # d\xe9j\xe0 vu\n".encode("latin-1"))
    result = attnpos("grade", "constant-offset", str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    rows = {os.path.basename(r["file"]): r for r in json.loads(result.stdout)["results"]}
    assert rows["good.py"]["passed"] and rows["latin1.py"]["diagnosis"] == "unreadable"  # as grade-class calls it
    assert "not UTF-8" in rows["latin1.py"]["message"]


def test_a_non_utf8_file_name_is_checked_and_shown_escaped(tmp_path):
    name = os.fsencode(tmp_path) + b"/answer-\xff.py"
    with open(name, "w") as handle:
        handle.write(COURSE.exercises["constant-offset"].solution)
    result = subprocess.run([sys.executable, "-m", "attnpos", "check", "constant-offset", name], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert b"answer-\\xff.py" in result.stdout
    result = subprocess.run([sys.executable, "-m", "attnpos", "grade", "constant-offset", os.fsencode(tmp_path), "--csv"], capture_output=True, timeout=60)
    assert result.returncode == 0 and b"answer-\\xff.py,True,passed" in result.stdout


# --- hostile learner code, through the command line and through the app -------------------

SETUP = COURSE.exercises["constant-offset"].starter
PAYLOADS = {
    "endless-loop": ("while True:\n    pass\n", "timeout"),
    "memory-bomb": ("hog = [bytearray(10 ** 8) for _ in range(100)]\n", "memory"),
    "deep-recursion": ("def down(n):\n    return down(n + 1)\ndown(0)\n", "error"),
    "segfault": ("import ctypes\nctypes.string_at(0)\n", "crash"),
    "os-exit": ("import os\nos._exit(0)\n", "crash"),
    "sys-exit": ("import sys\nsys.exit(1)\n", "error"),
    "children": (  # where seccomp refuses new processes the script goes on without them
        "import subprocess\ntry:\n    kids = [subprocess.Popen(['sleep', '1717']) for _ in range(50)]\nexcept PermissionError:\n    pass\n",
        "missing-name",
    ),
    "print-flood": ("import sys\nfor _ in range(50):\n    sys.stdout.write('x' * 1024 * 1024)\n", "missing-name"),
    "pickle": (
        "import pickle, os\nclass Boom:\n    def __reduce__(self):\n        return (os.system, ('touch {marker}',))\n"
        "pos = Boom()\nopen('status.json', 'wb').write(pickle.dumps(Boom()))\nmax_diff = pickle.dumps(Boom())\n",
        "bad-type",
    ),
    "fake-passed": ('print(\'✓ passed\')\nprint(\'{"passed": true, "diagnosis": "passed"}\')\n', "missing-name"),
    "chdir-env": ("import os\nos.chdir('/')\nos.environ['ATTNPOS_DATA_DIR'] = '/nonexistent'\nos.environ['PATH'] = ''\n", "missing-name"),
}
LIMITS = Limits(timeout_s=2.0, memory_mb=768)
# The memory bomb grows 100 MB at a time: on a loaded machine it can take longer than 2 s to reach the memory
# limit, and then it is (rightly) stopped for its time instead. Given time, only the memory limit can stop it.
# The print flood likewise: 50 MiB written through the output cap took more than 2 s on a loaded machine
# (timeout, not its diagnosis); what it tests is the cap, so its time limit is one only a hang reaches.
UNHURRIED = Limits(timeout_s=30.0, memory_mb=768)
PAYLOAD_LIMITS = {"memory-bomb": UNHURRIED, "print-flood": UNHURRIED}
# Through check, the endless loop is timed out whatever the limit, and spins a core until it is: half a second.
# (Through the app it keeps 2 s: the app is to answer a key while that check still runs.)
CHECK_LIMITS = {**PAYLOAD_LIMITS, "endless-loop": Limits(timeout_s=0.5, memory_mb=768)}
# A ceiling that catches a hang, not a budget: the limit itself is shown by the diagnosis (timeout,
# memory), and on two cores shared with another suite a cold `attnpos check` can take seconds to start.
HANG = 60.0


def leftover_sleepers() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if handle.read().split(b"\0")[:2] == [b"sleep", b"1717"]:
                        found.append(int(entry))
            except OSError:
                pass
    return found


@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_hostile_code_through_check(tmp_path, payload):
    code, diagnosis = PAYLOADS[payload]
    marker = tmp_path / "pickle-ran"
    answer = tmp_path / "answer.py"
    answer.write_text(SETUP + code.replace("{marker}", str(marker)))
    started = time.monotonic()
    limits = CHECK_LIMITS.get(payload, LIMITS)
    result = attnpos("check", "constant-offset", str(answer), "--json", "--timeout", str(limits.timeout_s), "--memory-mb", str(limits.memory_mb), cwd=tmp_path)
    elapsed = time.monotonic() - started
    assert result.returncode == 1, result
    verdict = json.loads(result.stdout)
    assert verdict["diagnosis"] == diagnosis and not verdict["passed"]
    assert elapsed < HANG
    assert not marker.exists(), "a pickle payload ran outside the sandbox"
    assert not leftover_sleepers(), "a learner's process outlived its run"


# Through the app, every run: one payload a limit (time, memory, a crash) stops; the others, which reach the app
# through the very same check as through the command line above, with -m slow (about 12 s each at load 10).
APP_EVERY_RUN = ("endless-loop", "memory-bomb", "segfault")


@pytest.mark.parametrize("payload", [p if p in APP_EVERY_RUN else pytest.param(p, marks=pytest.mark.slow) for p in PAYLOADS])
async def test_hostile_code_through_the_app(tmp_path, payload, wait_until):
    from textual.widgets import TextArea

    from attnpos.tui.app.course_app import AttnposApp

    code, diagnosis = PAYLOADS[payload]
    marker = tmp_path / "pickle-ran"
    app = AttnposApp(data_dir=tmp_path / "data", start="constant-offset", limits=PAYLOAD_LIMITS.get(payload, LIMITS))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.screen.query_one("#editor", TextArea).load_text(SETUP + code.replace("{marker}", str(marker)))
        await pilot.pause()
        started = time.monotonic()
        await pilot.press("ctrl+t")
        await pilot.press("ctrl+g")  # the app answers keys while the check runs
        # The hint was shown and counted. Not its text: a verdict that lands after it clears it (a hint
        # belongs to the verdict it was shown with), and on a loaded machine that can be at once.
        await wait_until(pilot, lambda: app.progress.exercise("constant-offset").hints_used == 1, timeout=HANG)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert time.monotonic() - started < HANG
        shown = str(app.screen.query_one("#result-text").render())
        assert f"✗ not yet: {diagnosis.replace('-', ' ')}" in shown, shown
        assert os.getcwd() != "/" and os.environ.get("PATH")
    assert not marker.exists()
    assert not leftover_sleepers()
