"""Grading a class: submissions, points, the class report, every format checked against its published schema,
determinism, bad input, isolation between students, and `grade`'s fixes (issue 23's bug 5)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import jsonschema
import pytest
import xmlschema
import yaml
from junitparser import Failure, JUnitXml

from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.progress import Progress
from attnpos.lessons.grading import grades as grading_module
from attnpos.lessons.grading.grades import course_order

SCHEMAS = Path(__file__).parent / "schemas"
COURSE = load_course()
IDS = course_order(COURSE)  # the order the lessons place them: every report's columns


def solution(exercise_id: str) -> str:
    return COURSE.exercises[exercise_id].solution


def starter(exercise_id: str) -> str:
    return COURSE.exercises[exercise_id].starter


def mistake(exercise_id: str, diagnosis: str) -> str:
    """A script from the exercise's mistakes/ that the checker gives ``diagnosis``."""
    for name, source in sorted(COURSE.exercises[exercise_id].mistakes.items()):
        if name.startswith(diagnosis + "__"):
            return source
    raise LookupError(f"{exercise_id} has no mistake script for {diagnosis}")


def export_for(tmp_path: Path, answers: dict[str, int], hints: dict[str, int]) -> str:
    """What `attnpos progress --export` writes for a learner who answered the why questions so (first answers) and took these hints."""
    progress = Progress.load(tmp_path / f"data-{len(list(tmp_path.iterdir()))}")
    for exercise_id, choice in answers.items():
        progress.answer_why(exercise_id, choice, choice == COURSE.exercises[exercise_id].why.answer)
    for exercise_id, count in hints.items():
        progress.record_hint(exercise_id, count)
    from attnpos.lessons.course.outline import read_outline
    from attnpos.lessons.course.progress import export_progress

    outline = read_outline()
    data = export_progress(progress, [e.id for lesson in outline for e in lesson.exercises], [q for lesson in outline for q in lesson.quizzes])
    return json.dumps(data)


@pytest.fixture
def klass(tmp_path) -> Path:
    """Four students: all right with an export (a folder), all starters (a zip), a manifest, and a stray file."""
    root = tmp_path / "submissions"
    ada = root / "ada"
    ada.mkdir(parents=True)
    for exercise_id in IDS:
        (ada / f"{exercise_id}.py").write_text(solution(exercise_id))
    right = {e: COURSE.exercises[e].why.answer for e in IDS}
    (ada / "progress.json").write_text(export_for(tmp_path, right, {IDS[0]: 2}))

    with zipfile.ZipFile(root / "bo.zip", "w") as archive:  # a zipped folder: its top folder is dropped
        for exercise_id in IDS:
            archive.writestr(f"bo-homework/{exercise_id.replace('-', '_')}.py", starter(exercise_id))
        wrong = {e: (COURSE.exercises[e].why.answer + 1) % len(COURSE.exercises[e].why.choices) for e in IDS}
        archive.writestr("bo-homework/export.json", export_for(tmp_path, wrong, {IDS[0]: 4}))

    cy = root / "cy"
    (cy / "work").mkdir(parents=True)
    (cy / "work" / "q1.py").write_text(mistake("constant-offset", "wrong-comparison"))
    (cy / "attnpos-manifest.toml").write_text('[files]\nconstant-offset = "work/q1.py"\n')

    dee = root / "dee"
    dee.mkdir()
    (dee / "notes.py").write_text("x = 1\n")
    (dee / "order-checks.py").write_text(mistake("order-checks", "zero-offset"))
    return root


def test_a_class_is_graded_with_points_diagnoses_why_answers_and_hints(klass, attnpos):
    result = attnpos("grade-class", str(klass), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    students = {s["student"]: s for s in report["students"]}
    assert list(students) == ["ada", "bo", "cy", "dee"]
    count = len(IDS)
    # Ada: every code check and every why question: all the points.
    assert students["ada"]["points"] == students["ada"]["max_points"] == count
    assert students["ada"]["export"] == "progress.json"
    # Bo: starters pass nothing, and every why answer is wrong.
    assert students["bo"]["points"] == 0 and all(not e["passed"] for e in students["bo"]["exercises"])
    # Cy: one file, named by the manifest, earns the table's partial credit for wrong-comparison.
    cy = {e["exercise"]: e for e in students["cy"]["exercises"]}
    assert cy["constant-offset"]["diagnosis"] == "wrong-comparison" and cy["constant-offset"]["file"] == "work/q1.py"
    assert cy["constant-offset"]["points"] == pytest.approx(0.8 * 0.5)
    assert {e["diagnosis"] for e in students["cy"]["exercises"] if e["exercise"] != "constant-offset"} == {"not-submitted"}
    # Dee: a file that matches no exercise is a row, not a crash.
    assert students["dee"]["unmatched"] == [{"file": "notes.py", "reason": "its name holds no exercise id"}]
    summary = {x["exercise"]: x for x in report["exercises"]}
    assert summary["order-checks"]["diagnoses"] == {"missing-name": 1, "zero-offset": 1}
    assert summary["constant-offset"]["diagnoses"] == {"missing-name": 1, "wrong-comparison": 1}
    first = IDS[0]
    assert summary[first]["hints_used"] == 6 and summary[first]["students_with_hints"] == 2
    assert summary[first]["why_answered"] == 2 and summary[first]["why_right_first"] == 1
    wrong_choice = summary[first]["wrong_first_choices"][0]
    assert wrong_choice["students"] == 1 and wrong_choice["text"] == COURSE.exercises[first].why.choices[wrong_choice["choice"]]


def test_the_table_shows_histograms_and_the_files_that_answer_nothing(klass, attnpos):
    result = attnpos("grade-class", str(klass))
    assert result.returncode == 0, result.stderr
    assert "wrong-comparison" in result.stdout and "█" in result.stdout
    assert "dee/notes.py: its name holds no exercise id" in result.stdout
    assert "{" not in result.stdout  # the confinement in words, not JSON


def test_reports_are_byte_identical_and_each_format_validates(klass, tmp_path, attnpos):
    outputs = {}
    for run in ("a", "b"):
        folder = tmp_path / run
        args = ["--gradebook", str(folder / "book.csv"), "--markdown", str(folder / "report.md"), "--junit", str(folder / "junit.xml")]
        json_run = attnpos("grade-class", str(klass), "--json", *args)
        csv_run = attnpos("grade-class", str(klass), "--csv")
        assert json_run.returncode == csv_run.returncode == 0
        outputs[run] = {"json": json_run.stdout, "csv": csv_run.stdout, **{p.name: p.read_bytes() for p in folder.iterdir()}}
    assert outputs["a"] == outputs["b"]
    files = outputs["a"]

    # JUnit XML: valid against the schema written down from Jenkins' junit-10.xsd, and read by junitparser.
    xmlschema.XMLSchema(SCHEMAS / "junit.xsd").validate(io.BytesIO(files["junit.xml"]))
    suites = {suite.name: suite for suite in JUnitXml.fromstring(files["junit.xml"].decode())}
    assert suites["ada"].tests == len(IDS) and suites["ada"].failures == 0
    assert suites["bo"].failures == len(IDS)
    cases = {case.name: case for case in suites["cy"]}
    assert isinstance(cases["constant-offset"].result[0], Failure)
    assert cases["constant-offset"].result[0].type == "wrong-comparison"

    # The gradebook: one row per student, a column per exercise.
    book = list(csv.DictReader(io.StringIO(files["book.csv"].decode())))
    assert [row["student"] for row in book] == ["ada", "bo", "cy", "dee"]
    assert set(IDS) <= set(book[0]) and book[0]["total"] == book[0]["max"] == str(len(IDS)) and book[0]["percent"] == "100"

    # The long CSV ends with the class's totals row.
    rows = list(csv.reader(io.StringIO(files["csv"])))
    assert rows[0][:4] == ["student", "exercise", "file", "diagnosis"] and rows[-1][0] == "total"
    assert ["dee", "", "notes.py", "unmatched"] == rows[-2][:4]

    # The one-page report names no student and shows the histograms.
    report = files["report.md"].decode()
    assert "ada" not in report and "wrong-comparison" in report and "█" in report


def test_gradescope_results_follow_the_published_specification(klass, tmp_path, attnpos):
    schema = json.loads((SCHEMAS / "gradescope-results.schema.json").read_text())
    target = tmp_path / "results.json"
    for student in ("ada", "cy"):
        result = attnpos("grade-class", str(klass / student), "--single", "--gradescope", str(target))
        assert result.returncode == 0, result.stderr
        results = json.loads(target.read_text())
        jsonschema.validate(results, schema)
        assert [t["name"] for t in results["tests"]] == IDS
        assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))
    assert {t["name"]: t["tags"] for t in results["tests"]}["constant-offset"] == ["wrong-comparison"]
    many = attnpos("grade-class", str(klass), "--gradescope", str(target))
    assert many.returncode == 2 and "--single" in many.stderr


def test_the_schemas_reject_what_the_specifications_forbid():
    """The validators can fail: a misspelt key, a status Gradescope does not know, JUnit without its counts."""
    schema = json.loads((SCHEMAS / "gradescope-results.schema.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"score": 1, "tests": [{"name": "x", "status": "ok"}]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"scores": 1}, schema)
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        xmlschema.XMLSchema(SCHEMAS / "junit.xsd").validate(io.StringIO('<testsuites><testsuite name="a"/></testsuites>'))


def test_gradescope_setup_writes_two_executable_scripts_and_the_table(tmp_path, attnpos):
    table = tmp_path / "mine.toml"
    table.write_text("[weights]\nrope = 4\n[parts]\ncode = 1\nwhy = 0\n")
    folder = tmp_path / "gs"
    result = attnpos("gradescope-setup", str(folder), "--install", "attnpos==1.0", "--grading", str(table))
    assert result.returncode == 0, result.stderr
    for name in ("setup.sh", "run_autograder"):
        script = folder / name
        assert os.access(script, os.X_OK)
        assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    assert "pip install --quiet attnpos==1.0" in (folder / "setup.sh").read_text()
    run = (folder / "run_autograder").read_text()
    assert "grade-class /autograder/submission --single --grading /autograder/source/grading.toml" in run and "/autograder/results/results.json" in run
    assert (folder / "grading.toml").read_text() == table.read_text()
    assert attnpos("gradescope-setup", str(folder)).returncode == 2  # never overwrites
    table.write_text("[weights]\nno-such = 1\n")
    refused = attnpos("gradescope-setup", str(tmp_path / "other"), "--install", "x", "--grading", str(table))
    assert refused.returncode == 2 and "no-such" in refused.stderr and not (tmp_path / "other").exists()


def test_classroom_setup_writes_one_runner_that_grades_with_the_table(tmp_path, attnpos):
    result = attnpos("classroom-setup", str(tmp_path), "--install", "attnpos==1.0")
    assert result.returncode == 0, result.stderr
    workflow = yaml.safe_load((tmp_path / ".github/workflows/classroom.yml").read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    grader = next(s for s in steps if s.get("id") == "attnpos")
    assert "attnpos grade-class . --single --grading .github/classroom/grading.toml --classroom attnpos-results.json" in grader["run"]
    assert subprocess.run(["bash", "-n"], input=grader["run"], text=True, capture_output=True).returncode == 0
    assert any("pip install attnpos==1.0" in s.get("run", "") for s in steps)
    reporter = steps[-1]
    assert reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    assert reporter["with"]["runners"] == "attnpos" and set(reporter["env"]) == {"ATTNPOS_RESULTS"}
    assert (tmp_path / ".github/classroom/grading.toml").read_text() == (Path(grading_module.__file__).with_name("grading.toml")).read_text()


@pytest.mark.parametrize(
    "case, words",
    [
        ("empty", "no submissions in"),
        ("missing", "no such folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, attnpos, case, words):
    root = tmp_path / "class"
    root.mkdir()
    if case == "missing":
        root = tmp_path / "nowhere"
    result = attnpos("grade-class", str(root))
    assert result.returncode == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_control_character_in_a_name_is_valid_junit_xml_and_escaped_on_the_terminal(tmp_path, attnpos):
    student = tmp_path / "class" / "bad\x1b[2Jname"
    student.mkdir(parents=True)
    (student / "constant-offset.py").write_text("raise ValueError('\\x07 bell')\n")
    target = tmp_path / "junit.xml"
    assert attnpos("grade-class", str(tmp_path / "class"), "--junit", str(target)).returncode == 0
    xmlschema.XMLSchema(SCHEMAS / "junit.xsd").validate(str(target))
    suite = next(iter(JUnitXml.fromfile(str(target))))
    assert suite.name == "bad\\x1b[2Jname" and suite.failures == len(IDS)
    table = attnpos("grade-class", str(tmp_path / "class"))
    assert "\x1b[2J" not in table.stdout and "\\x1b[2J" in table.stdout


def test_deep_folders_and_a_folder_link_are_walked_without_harm(tmp_path, attnpos):
    student = tmp_path / "class" / "deep"
    folder = student
    student.mkdir(parents=True)
    for _ in range(1200):  # deeper than Python's recursion limit
        folder = folder / "d"
        folder.mkdir()
    (folder / "constant-offset.py").write_text(solution("constant-offset"))
    (student / "loop").symlink_to(student)  # a link to a folder is a file that is not followed
    try:
        result = attnpos("grade-class", str(tmp_path / "class"), "--json")
    finally:  # removed here, deepest first: pytest's clean-up (shutil.rmtree) recurses and would fail on it
        (folder / "constant-offset.py").unlink()
        while folder != student:
            folder.rmdir()
            folder = folder.parent
    assert result.returncode == 0, result.stderr
    rows = {e["exercise"]: e for e in json.loads(result.stdout)["students"][0]["exercises"]}
    assert rows["constant-offset"]["passed"]


def test_a_symlinked_answer_is_not_followed(tmp_path, attnpos):
    secret = tmp_path / "secret.py"
    secret.write_text(solution("constant-offset"))
    student = tmp_path / "class" / "mallory"
    student.mkdir(parents=True)
    (student / "constant-offset.py").symlink_to(secret)
    report = json.loads(attnpos("grade-class", str(tmp_path / "class"), "--json").stdout)
    row = report["students"][0]["exercises"][IDS.index("constant-offset")]
    assert row["diagnosis"] == "unreadable" and not row["passed"]
    assert "a symbolic link, never followed" in row["message"]


def test_grade_and_grade_class_name_an_unreadable_file_alike(tmp_path, attnpos):
    big = tmp_path / "constant-offset.py"
    big.write_text("x = 1\n" * 60_000)  # over the sandbox's 256 KB
    row = json.loads(attnpos("grade", "constant-offset", str(big), "--json").stdout)["results"][0]
    assert row["diagnosis"] == "unreadable" and not row["passed"]


def test_feedback_tells_a_student_their_verdicts_hints_and_why_answers_only(klass, tmp_path, attnpos):
    result = attnpos("grade-class", str(klass), "--feedback", str(tmp_path / "feedback"))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "feedback").iterdir()) == sorted(f"{s}.{x}" for s in ("ada", "bo", "cy", "dee") for x in ("md", "html"))
    ada = (tmp_path / "feedback" / "ada.md").read_text()
    first = COURSE.exercises[IDS[0]]
    assert f"{len(IDS)} of {len(IDS)} points" in ada and "passed" in ada
    assert "Hints used (2)" in ada and all(hint in ada for hint in first.hints[:2])
    assert all(hint not in ada for hint in first.hints[2:])
    assert first.why.question in ada and first.why.explanations[first.why.answer] in ada
    cy = (tmp_path / "feedback" / "cy.md").read_text()
    assert "wrong-comparison" in cy and "work/q1.py" in cy
    assert not [name for name in ("ada", "bo", "dee") if re.search(rf"\b{name}\b", cy)]
    page = (tmp_path / "feedback" / "cy.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "wrong-comparison" in page


HOSTILE = {
    "timeout": "while True:\n    pass\n",
    "memory": "blocks = []\nwhile True:\n    blocks.append(bytearray(50_000_000))\n",
    "crash": "import ctypes\nctypes.string_at(0)\n",
    "forks": "import os\nfor _ in range(50):\n    if os.fork() == 0:\n        import time\n        time.sleep(60)\n",
    "kills-its-parent": "import os\nos.kill(os.getppid(), 9)\nos.kill(1, 9)\n",
}


def test_one_students_hostile_file_affects_no_other_row(tmp_path, attnpos):
    root = tmp_path / "class"
    for name, source in HOSTILE.items():
        (root / name).mkdir(parents=True)
        (root / name / "constant-offset.py").write_text(source)
        (root / name / "forget-reorder.py").write_text(solution("forget-reorder"))
    (root / "zz-good").mkdir()
    (root / "zz-good" / "constant-offset.py").write_text(solution("constant-offset"))
    result = attnpos("grade-class", str(root), "--json", "--timeout", "3", "--memory-mb", "512")
    assert result.returncode == 0, result.stderr
    rows = {s["student"]: {e["exercise"]: e for e in s["exercises"]} for s in json.loads(result.stdout)["students"]}
    assert rows["zz-good"]["constant-offset"]["passed"]
    for name in HOSTILE:
        assert rows[name]["forget-reorder"]["passed"], name  # the same student's other file is unharmed
        assert not rows[name]["constant-offset"]["passed"]
    assert rows["timeout"]["constant-offset"]["diagnosis"] == "timeout"
    assert rows["memory"]["constant-offset"]["diagnosis"] in ("memory", "crash")
    assert rows["crash"]["constant-offset"]["diagnosis"] == "crash"


def test_each_file_gets_fresh_namespaces_from_the_pool():
    """Two sandboxes of one pool: two fork servers, in namespaces of their own where the kernel allows them."""
    from attnpos.lessons.sandbox.pool import SandboxPool

    def server_pid(sandbox) -> int:
        fdinfo = Path(f"/proc/self/fdinfo/{sandbox._server._pidfd}").read_text()
        return int(next(line.split()[1] for line in fdinfo.splitlines() if line.startswith("Pid:")))

    with SandboxPool(strict=False) as pool:
        first, second = pool.sandbox(), pool.sandbox()
        with first, second:
            first.start()
            second.start()
            pids = server_pid(first), server_pid(second)
            assert pids[0] != pids[1]
            if not first.confinement["namespaces"]:
                pytest.skip("unprivileged user namespaces are disabled here")
            assert first.confinement["namespaces"] == ["user", "mount", "ipc", "uts"]
            for kind in ("mnt", "ipc", "user"):
                seen = {os.readlink(f"/proc/{pid}/ns/{kind}") for pid in pids}
                assert len(seen) == 2 and os.readlink(f"/proc/self/ns/{kind}") not in seen, kind
            status = Path(f"/proc/{pids[0]}/status").read_text()
            assert "CapEff:\t0000000000000000" in status  # the namespace's capabilities are dropped


THREAD_FLOOD = """
import threading
threading.stack_size(64 * 1024)
hold = threading.Event()
threads = 0
try:
    for _ in range(20000):
        threading.Thread(target=hold.wait, daemon=True).start()
        threads += 1
except (RuntimeError, OSError):
    pass
hold.set()
"""


def test_a_pooled_file_s_threads_are_capped_and_a_classmate_is_never_blamed():
    """Each forked server gets a pids cgroup of its own (or, failing that, its root learners no thread at all)."""
    from concurrent.futures import ThreadPoolExecutor

    from attnpos.lessons.checker import CONTRACTS, RUNS_PER_CHECK, Limits
    from attnpos.lessons.sandbox.pool import SandboxPool
    from attnpos.lessons.sandbox.tasks import MAX_TASKS

    exercise = COURSE.exercises["constant-offset"]
    with SandboxPool(strict=False, jobs=2, workers=RUNS_PER_CHECK) as pool:
        with pool.sandbox() as flooding, pool.sandbox() as classmate, ThreadPoolExecutor(max_workers=2) as workers:
            flooding.start()
            classmate.start()
            assert flooding._cgroup != classmate._cgroup or flooding._cgroup is None
            flood = workers.submit(flooding.run_source, THREAD_FLOOD, ["threads"], Limits(timeout_s=10.0, memory_mb=768))
            names = CONTRACTS[exercise.contract].names
            # A wall-clock limit for the classmate sized for a loaded machine (the flood beside it, two shared cores): what
            # is tested is that the flood takes nothing from it, not how fast it runs.
            classmates_run = workers.submit(classmate.run_source, exercise.solution, names, Limits(timeout_s=60.0)).result()
            threads = flood.result().values["threads"].item()
            capped = flooding._cgroup is not None
            assert capped or pool._cgroup is None  # where the parent got a cgroup, each server gets its own
    assert classmates_run.status == "ok" and not classmates_run.missing, (classmates_run.status, classmates_run.detail)
    assert threads <= 4 + RUNS_PER_CHECK * (MAX_TASKS + 2), threads  # its own server's cap; 16,000 fit without one
    assert threads > 0 or (not capped and os.getuid() == 0)  # threads stay allowed where a cap holds


LEAVE_MESSAGE = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
made = libc.shmget(0x41747470, 4096, 0o1000 | 0o600)  # IPC_CREAT: a SysV segment outlives the run that made it
"""
FIND_MESSAGE = """
import ctypes
found = ctypes.CDLL(None).shmget(0x41747470, 0, 0)
"""


def test_a_sysv_segment_left_by_one_file_is_not_seen_by_the_next():
    from attnpos.lessons.checker import Limits
    from attnpos.lessons.sandbox.pool import SandboxPool

    with SandboxPool(strict=False) as pool, pool.sandbox() as sandbox:
        assert sandbox.run_source(LEAVE_MESSAGE, ["made"], Limits()).values["made"] == -1  # seccomp refuses SysV IPC
    # Without seccomp, the IPC namespace alone keeps one file's segment from the next file.
    with SandboxPool(strict=False, left_off=frozenset({"seccomp"})) as pool:
        with pool.sandbox() as first:
            assert not first.confinement["seccomp"]
            if not first.confinement["namespaces"]:
                pytest.skip("unprivileged user namespaces are disabled here")
            assert first.run_source(LEAVE_MESSAGE, ["made"], Limits()).values["made"] >= 0
            # Within one sandbox the segment is still there: the check below can fail.
            assert first.run_source(FIND_MESSAGE, ["found"], Limits()).values["found"] >= 0
            with pool.sandbox() as second:
                assert second.run_source(FIND_MESSAGE, ["found"], Limits()).values["found"] == -1


def test_progress_export_keeps_the_first_why_answer_and_no_code(tmp_path, attnpos, data_dir):
    progress = Progress.load(data_dir)
    exercise = COURSE.exercises["constant-offset"]
    wrong = (exercise.why.answer + 1) % len(exercise.why.choices)
    progress.answer_why("constant-offset", wrong, False)
    progress.answer_why("constant-offset", exercise.why.answer, True)
    progress.record_check("constant-offset", True, "pos = 0.6  # my code")
    progress.save()
    target = tmp_path / "export.json"
    assert attnpos("progress", "--export", str(target)).returncode == 0
    data = json.loads(target.read_text())
    entry = data["exercises"]["constant-offset"]
    assert entry["why_first_answer"] == wrong and entry["why_answer"] == exercise.why.answer and entry["passed"]
    assert "my code" not in target.read_text()
    assert attnpos("progress", "--export", str(tmp_path)).returncode == 2


# --- `grade` (issue 23, bug 5) -------------------------------------------------------------------


def test_grade_csv_ends_with_totals_and_the_table_says_the_confinement_in_words(tmp_path, attnpos):
    (tmp_path / "right.py").write_text(solution("constant-offset"))
    (tmp_path / "wrong.py").write_text(starter("constant-offset"))
    rows = list(csv.reader(io.StringIO(attnpos("grade", "constant-offset", str(tmp_path), "--csv").stdout)))
    assert rows[-1] == ["total", "1", "", "1 of 2 passed", ""]
    table = attnpos("grade", "constant-offset", str(tmp_path))
    confinement = " ".join(table.stdout.split()).partition("confinement:")[2]
    assert "{" not in confinement and "fresh sandbox" in confinement


def test_strict_grading_without_bubblewrap_says_so(tmp_path, attnpos):
    from attnpos.lessons.sandbox.pool import SandboxPool

    with SandboxPool(strict=True) as pool:
        in_bwrap = pool.confinement["bwrap"]
    (tmp_path / "right.py").write_text(solution("constant-offset"))
    result = attnpos("grade", "constant-offset", str(tmp_path))
    assert ("strict mode without bubblewrap" in result.stderr) == (not in_bwrap)


def descendants(pid: int, depth: int = 1):
    """(pid, depth) of every live descendant of ``pid``."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return
    for task in tasks:
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            yield child, depth
            yield from descendants(child, depth + 1)


def sigint_as_at_a_terminal() -> None:
    """Run in the child before it starts: SIGINT at its default, as a terminal's foreground command has it.

    A suite started in the background by a shell without job control inherits
    SIGINT ignored, and so would every command it starts (Python then installs
    no handler, rightly: a background job is not to be stopped by Ctrl+C).
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("command", ["grade", "grade-class", "check"])
def test_ctrl_c_stops_grading_at_once_and_says_so(tmp_path, command):
    for i in range(4):
        (tmp_path / f"s{i}").mkdir()
        (tmp_path / f"s{i}" / "constant-offset.py").write_text("while True:\n    pass\n")
    args = ["grade", "constant-offset", *(str(tmp_path / f"s{i}" / "constant-offset.py") for i in range(4))]
    learner_depth = 4  # grade -> warm parent -> forked server -> supervisor -> learner
    if command == "grade-class":
        args = ["grade-class", str(tmp_path)]
    elif command == "check":
        args, learner_depth = ["check", "constant-offset", str(tmp_path / "s0" / "constant-offset.py")], 3
    process = subprocess.Popen(
        [sys.executable, "-m", "attnpos", *args, "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_at_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and max((depth for _, depth in descendants(process.pid)), default=0) < learner_depth:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)  # far below the 120 s a run could take
    finally:
        process.kill()
    assert process.returncode == 130
    assert "interrupted" in stderr and "Traceback" not in stderr


WORKER_INTERRUPTED = """
import linecache, signal, sys, threading
from attnpos.lessons.checker import Limits, open_checker
from attnpos.lessons.course.loader import load_exercise

exercise, started = load_exercise("constant-offset"), threading.Event()
main = threading.main_thread().ident

def main_thread_is_waiting():
    frame = sys._current_frames().get(main)  # blocked in Condition.wait's acquire, not merely inside wait()
    if frame is None or "waiter.acquire(" not in linecache.getline(frame.f_code.co_filename, frame.f_lineno):
        return False
    while frame is not None:  # ... under the checker's wait (Thread.start waits on a Condition too, for this very thread)
        if frame.f_code.co_name == "wait" and frame.f_code.co_filename.endswith("engine.py"):
            return True
        frame = frame.f_back
    return False

def interrupt_in_this_thread():
    while not main_thread_is_waiting():  # a signal caught while the main thread still runs Python proves nothing
        started.wait(0.01)
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # handled here, as the kernel may choose to

with open_checker(limits=Limits(timeout_s=60)) as checker:
    check = checker.submit(exercise, "while True:\\n    pass\\n")
    threading.Thread(target=interrupt_in_this_thread, daemon=True).start()
    try:
        checker.wait([check])
    except KeyboardInterrupt:
        print("interrupted", check.result().details.get("detail"))
"""


def test_ctrl_c_handed_to_a_worker_thread_still_stops_grading():
    """The kernel may deliver SIGINT to any thread; a main thread waiting on the checks must still see it at once.

    In a process of its own, so that a main thread left blocked fails by the timeout instead of hanging the suite.
    """
    finished = subprocess.run([sys.executable, "-c", WORKER_INTERRUPTED], capture_output=True, text=True, timeout=50, preexec_fn=sigint_as_at_a_terminal)
    assert finished.stdout.strip() == "interrupted the run was cancelled", finished.stderr  # well before its 60 s


def test_a_progress_bar_at_a_terminal_and_nothing_on_a_pipe(klass):
    """Standard error a terminal: Rich's bar; a pipe: no bar (only the one-line notice strict mode may give)."""
    import pty

    command = [sys.executable, "-m", "attnpos", "grade-class", str(klass), "--json"]
    piped = subprocess.run(command, capture_output=True, text=True)
    assert piped.returncode == 0
    assert all(line.startswith("attnpos: strict mode without bubblewrap") for line in piped.stderr.splitlines())
    main, terminal = pty.openpty()
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=terminal, env={**os.environ, "TERM": "xterm-256color"})
        os.close(terminal)
        seen = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed: the command has finished
                break
            if not chunk:
                break
            seen += chunk
        stdout, _ = process.communicate(timeout=60)
    finally:
        os.close(main)
    assert process.returncode == 0
    assert b"grading" in seen and b"\xe2\x94\x81" in seen  # the bar's heavy line, U+2501
    assert json.loads(stdout) == json.loads(piped.stdout)  # the report itself is the same either way


def test_the_grading_table_sets_weights_and_is_checked(klass, tmp_path, attnpos):
    table = tmp_path / "grading.toml"
    table.write_text("[weights]\nconstant-offset = 3\n[parts]\ncode = 1\nwhy = 0\n")
    report = json.loads(attnpos("grade-class", str(klass), "--json", "--grading", str(table)).stdout)
    cy = {e["exercise"]: e for e in report["students"][2]["exercises"]}
    assert cy["constant-offset"]["max_points"] == 3 and cy["constant-offset"]["points"] == 0  # no partial table
    assert report["students"][0]["max_points"] == 3 + len(IDS) - 1
    table.write_text("[weights]\nno-such-exercise = 2\n[parts]\ncode = 1\nwhy = 0\n")
    refused = attnpos("grade-class", str(klass), "--grading", str(table))
    assert refused.returncode == 2 and "no-such-exercise" in refused.stderr and len(refused.stderr.splitlines()) == 1


def _autograder(tmp_path: Path, attnpos_program: str) -> Path:
    """Gradescope's layout under tmp_path, its venv's attnpos being ``attnpos_program``; returns run_autograder there."""
    from attnpos.tui.cli.grading_commands import GRADESCOPE_RUN

    root = tmp_path / "autograder"
    venv = root / "attnpos-venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "attnpos").write_text(attnpos_program)
    (venv / "attnpos").chmod(0o755)
    (venv / "python").symlink_to(sys.executable)
    script = root / "run_autograder"
    script.write_text(GRADESCOPE_RUN.format().replace("/autograder", str(root)))
    (root / "submission").mkdir()
    (root / "source").mkdir()
    (root / "source" / "grading.toml").write_bytes(grading_module.GRADING_TABLE.read_bytes())
    return script


def test_run_autograder_grades_the_submission(tmp_path):
    script = _autograder(tmp_path, f'#!/bin/sh\nexec {sys.executable} -m attnpos "$@"\n')
    (script.parent / "submission" / "constant-offset.py").write_text(solution("constant-offset"))
    subprocess.run(["bash", str(script)], capture_output=True, timeout=300, check=True)
    results = json.loads((script.parent / "results" / "results.json").read_text())
    jsonschema.validate(results, json.loads((SCHEMAS / "gradescope-results.schema.json").read_text()))
    assert {t["name"]: t["status"] for t in results["tests"]}["constant-offset"] == "passed"


def test_run_autograder_says_what_is_missing_when_strict_mode_refuses(tmp_path):
    """Where the image can confine nothing well enough, the submission's output is attnpos's one-line reason."""
    refusal = "attnpos: strict mode needs seccomp and Landlock ABI 6+ or bubblewrap: Landlock ABI 4; install bubblewrap"
    script = _autograder(tmp_path, f"#!/bin/sh\necho '{refusal}' >&2\nexit 2\n")
    subprocess.run(["bash", str(script)], capture_output=True, timeout=60, check=True)
    results = json.loads((script.parent / "results" / "results.json").read_text())
    jsonschema.validate(results, json.loads((SCHEMAS / "gradescope-results.schema.json").read_text()))
    assert results["score"] == 0 and refusal in results["output"]


def test_an_assignment_grades_only_its_exercises_and_lists_the_other_answers(klass, attnpos):
    chosen = ["rope", "constant-offset"]
    report = json.loads(attnpos("grade-class", str(klass), "--json", "--exercises", ",".join(chosen)).stdout)
    ada = report["students"][0]
    assert [e["exercise"] for e in ada["exercises"]] == [e for e in IDS if e in chosen]  # the course's order, not the option's
    assert ada["points"] == ada["max_points"] == 2
    assert len(ada["unmatched"]) == len(IDS) - 2 and all(u["reason"].endswith("which this assignment does not grade") for u in ada["unmatched"])
    assert [x["exercise"] for x in report["exercises"]] == [e for e in IDS if e in chosen]
    refused = attnpos("grade-class", str(klass), "--exercises", "rope,no-such")
    assert refused.returncode == 2 and "no-such" in refused.stderr and len(refused.stderr.splitlines()) == 1


def test_one_student_is_regraded_and_merged_into_the_earlier_report(klass, tmp_path, attnpos):
    earlier = tmp_path / "report.json"
    earlier.write_text(attnpos("grade-class", str(klass), "--json").stdout)
    (klass / "cy" / "work" / "q1.py").write_text(solution("constant-offset"))  # cy's regrade request, answered
    book = tmp_path / "book.csv"
    merged = attnpos("grade-class", str(klass), "--only", "cy", "--merge", str(earlier), "--json", "--gradebook", str(book))
    assert merged.returncode == 0, merged.stderr
    report, before = json.loads(merged.stdout), json.loads(earlier.read_text())
    assert [s["student"] for s in report["students"]] == ["ada", "bo", "cy", "dee"]
    assert report["students"][0] == before["students"][0]  # ada's row kept as it was
    cy = {e["exercise"]: e for e in report["students"][2]["exercises"]}
    assert cy["constant-offset"]["passed"] and cy["constant-offset"]["points"] == pytest.approx(0.8)
    assert {x["exercise"]: x for x in report["exercises"]}["constant-offset"]["diagnoses"] == {"missing-name": 1}
    assert [row["student"] for row in csv.DictReader(io.StringIO(book.read_text()))] == ["ada", "bo", "cy", "dee"]
    table = tmp_path / "other.toml"
    table.write_text("[parts]\ncode = 1\nwhy = 0\n")
    for args, words in (
        (["--merge", str(earlier)], "--merge needs --only"),
        (["--only", "nobody"], "no such student"),
        (["--only", "cy", "--merge", str(earlier), "--grading", str(table)], "another grading table"),
        (["--only", "cy", "--merge", str(book)], "not a grade-class --json report"),
    ):
        refused = attnpos("grade-class", str(klass), *args)
        assert refused.returncode == 2 and words in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, refused.stderr


def test_the_why_part_counts_only_beside_code_that_passes(tmp_path, attnpos):
    right = {e: COURSE.exercises[e].why.answer for e in IDS}
    student = tmp_path / "ben"
    student.mkdir()
    (student / "progress.json").write_text(export_for(tmp_path, right, {}))  # every why answer right, and no code
    (student / "constant-offset.py").write_text(solution("constant-offset"))
    report = json.loads(attnpos("grade-class", str(student), "--single", "--json").stdout)
    rows = {e["exercise"]: e for e in report["students"][0]["exercises"]}
    assert rows["constant-offset"]["points"] == 1 and rows["constant-offset"]["why_correct"]
    assert all(rows[e]["points"] == 0 and rows[e]["why_correct"] for e in IDS if e != "constant-offset")
