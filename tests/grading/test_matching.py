"""Which file answers which exercise, by the rules docs/GRADING.md states; the layouts Canvas and Moodle download;
and a report written so that the last good one survives a failure. No answer is checked here: reading only."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from attnpos.lessons.course.loader import load_course
from attnpos.lessons.grading.grades import Answer, exercise_in_name, read_submissions

COURSE = load_course()


@pytest.mark.parametrize(
    "name, exercise",
    [
        ("rope.py", "rope"),
        ("Rope.py", "rope"),
        ("hw_constant_offset.py", "constant-offset"),
        ("constant-offset_final.py", "constant-offset"),
        ("lovelaceada_12345_67890_rope.py", "rope"),
        ("rope-1.py", "rope"),  # Canvas's resubmission
        ("week 3/rope.py", "rope"),
        ("property_notes.py", None),
        ("europe_trip.py", None),
        ("trope.py", None),
        ("ropes.py", None),
        ("notes.py", None),
    ],
)
def test_a_name_answers_an_exercise_only_by_its_whole_id(name, exercise):
    assert exercise_in_name(name, COURSE.exercises)[0] == exercise


def test_two_ids_in_one_name_answer_neither():
    found, why = exercise_in_name("rope_and_alibi.py", COURSE.exercises)
    assert found is None and "more than one exercise id (" in why


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_of_two_candidates_the_rules_pick_one_and_the_row_names_the_other(tmp_path):
    write(tmp_path / "ada", {"constant_offset_final.py": "a = 1\n", "constant-offset.py": "b = 1\n", "rope/rope-v2.py": "c\n", "rope_v1.py": "d\n"})
    (ada,) = read_submissions(tmp_path, COURSE)
    assert ada.answers["constant-offset"].name == "constant-offset.py"  # the exact id first
    assert ada.answers["rope"].name == "rope_v1.py"  # then the shallowest
    reasons = dict(ada.unmatched)
    assert reasons["constant_offset_final.py"].startswith("also names constant-offset; constant-offset.py is graded")
    assert reasons["rope/rope-v2.py"].startswith("also names rope; rope_v1.py is graded")


def test_canvas_loose_files_and_moodle_folders_are_each_a_student(tmp_path):
    (tmp_path / "lovelaceada_12345_67890_rope.py").write_text("a\n")
    (tmp_path / "lovelaceada_LATE_12345_67891_constant-offset.py").write_text("b\n")
    (tmp_path / "hopperg_222_333_progress.json").write_text("{}\n")
    write(tmp_path / "Grace Hopper_4567_assignsubmission_file_", {"rope.py": "c\n"})
    (tmp_path / "stray.py").write_text("d\n")
    students = {s.student: s for s in read_submissions(tmp_path, COURSE)}
    assert set(students) == {"lovelaceada", "hopperg", "Grace Hopper", "stray.py"}
    assert {e: a.name for e, a in students["lovelaceada"].answers.items()} == {"rope": "rope.py", "constant-offset": "constant-offset.py"}
    assert students["Grace Hopper"].answers["rope"].source == "c\n"
    assert "not in Canvas's layout" in students["stray.py"].problem


def test_a_folder_and_a_zip_of_one_name_are_that_students_row(tmp_path):
    write(tmp_path / "ada", {"rope.py": "a\n"})
    with zipfile.ZipFile(tmp_path / "ada.zip", "w") as archive:
        archive.writestr("rope.py", "b\n")
    write(tmp_path / "bo", {"rope.py": "c\n"})
    students = {s.student: s for s in read_submissions(tmp_path, COURSE)}
    assert students["ada"].problem.startswith("two submissions for ada: ada and ada.zip") and not students["ada"].answers
    assert students["bo"].answers["rope"].source == "c\n"


def test_a_symlinked_answer_says_it_is_a_link(tmp_path):
    write(tmp_path / "elsewhere", {"secret.py": "x = 1\n"})
    (tmp_path / "class" / "ada").mkdir(parents=True)
    (tmp_path / "class" / "ada" / "rope.py").symlink_to(tmp_path / "elsewhere" / "secret.py")
    (ada,) = read_submissions(tmp_path / "class", COURSE)
    assert ada.answers["rope"].source is None and "a symbolic link, never followed" in ada.answers["rope"].problem


def test_a_report_that_cannot_be_written_leaves_the_last_good_one(tmp_path, attnpos, monkeypatch):
    from attnpos.lessons.grading import reports

    write(tmp_path / "class" / "ada", {"notes.py": "x = 1\n"})
    book = tmp_path / "book.csv"
    book.write_text("student,total\nada,10\n")
    monkeypatch.setattr(reports, "gradebook_csv", lambda course, students: "student\n\ud800\n")
    result = attnpos("grade-class", str(tmp_path / "class"), "--gradebook", str(book))
    assert result.returncode == 2 and "the file there before is left as it was" in result.stderr
    assert book.read_text() == "student,total\nada,10\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def notebook(*cells: tuple[str, str]) -> str:
    return json.dumps({"cells": [{"cell_type": kind, "source": source.splitlines(keepends=True), "metadata": {}} for kind, source in cells], "nbformat": 4})


def test_a_notebook_cell_checked_with_the_magic_answers_its_exercise(tmp_path):
    solution = COURSE.exercises["rope"].solution
    write(
        tmp_path / "ada",
        {
            "homework.ipynb": notebook(("markdown", "# Rope"), ("code", f"%%attnpos check rope\n{solution}"), ("code", "%%attnpos check no-such\nx = 1\n")),
            "empty.ipynb": notebook(("code", "x = 1\n")),
            "broken.ipynb": "{not json",
        },
    )
    (ada,) = read_submissions(tmp_path, COURSE)
    assert ada.answers["rope"] == Answer("homework.ipynb, cell 2", solution)
    reasons = dict(ada.unmatched)
    assert reasons["homework.ipynb, cell 3"] == "checks unknown exercise 'no-such'"
    assert reasons["empty.ipynb"] == "no cell in it starts %%attnpos check ID" and reasons["broken.ipynb"] == "not a Jupyter notebook"


def test_a_notebook_answer_is_graded_as_the_exercise(tmp_path, attnpos):
    write(tmp_path / "ada", {"homework.ipynb": notebook(("code", f"%%attnpos check rope\n{COURSE.exercises['rope'].solution}"))})
    report = json.loads(attnpos("grade-class", str(tmp_path / "ada"), "--single", "--json").stdout)
    rope = next(e for e in report["students"][0]["exercises"] if e["exercise"] == "rope")
    assert rope["passed"] and rope["file"] == "homework.ipynb, cell 1"
