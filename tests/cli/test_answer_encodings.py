"""Answer files read as Python reads source (PEP 263): a byte-order mark, a coding cookie, on every route.

Windows editors (Notepad, some VS Code settings) save UTF-8 with a byte-order mark; Python runs such a
file, so the checker must too. Every route reads answer bytes through one function,
`attnpos.lessons.sandbox.decode_answer` (lessons/sandbox/client.py).
"""

from __future__ import annotations

import codecs
import time
from types import SimpleNamespace

import pytest
from rich.console import Console

from attnpos.lessons.course.loader import load_course
from attnpos.lessons.course.progress import Progress
from attnpos.lessons.sandbox import decode_answer
from attnpos.tui.cli import exercise_commands
from attnpos.tui.cli.exercise_commands import readable_file

COURSE = load_course()


def with_bom(text: str) -> bytes:
    return codecs.BOM_UTF8 + text.encode("utf-8")


def test_decode_answer_reads_as_python_reads_source():
    assert decode_answer(with_bom("x = 1\n")) == "x = 1\n"
    latin = "# -*- coding: latin-1 -*-\nname = 'café'\n"
    assert decode_answer(latin.encode("latin-1")) == latin
    assert decode_answer("name = 'café'\n".encode("utf-8")) == "name = 'café'\n"
    with pytest.raises(UnicodeDecodeError):
        decode_answer(b"name = '\xe9'\n")  # neither UTF-8 nor declared
    with pytest.raises(UnicodeDecodeError):
        decode_answer(b"# coding: klingon\nx = 1\n")
    with pytest.raises(UnicodeDecodeError):
        decode_answer(codecs.BOM_UTF8 + b"# coding: latin-1\nx = 1\n")  # Python: encoding problem with BOM


@pytest.mark.parametrize("exercise_id", sorted(COURSE.exercises))
def test_every_solution_saved_with_a_bom_passes_as_check_watch_and_grade_check_it(exercise_id, checker, tmp_path):
    """check, watch and grade check a file with Checker.check_file; a mark failed every exercise (rerun-failed, mismatch)."""
    exercise = COURSE.exercises[exercise_id]
    answer = tmp_path / f"{exercise_id}.py"
    answer.write_bytes(with_bom(exercise.solution))
    verdict = checker.check_file(exercise, answer)
    assert verdict.passed, (verdict.diagnosis, verdict.message)
    assert readable_file(answer) == exercise.solution  # what check records and grade reads


def test_a_solution_with_a_coding_cookie_passes(checker, tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    answer = tmp_path / "answer.py"
    answer.write_bytes(f"# -*- coding: latin-1 -*-\n# réponse\n{exercise.solution}".encode("latin-1"))
    verdict = checker.check_file(exercise, answer)
    assert verdict.passed, (verdict.diagnosis, verdict.message)


def test_attnpos_check_passes_a_solution_saved_with_a_bom_and_records_it_without_the_mark(attnpos, data_dir, tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    answer = tmp_path / "answer.py"
    answer.write_bytes(with_bom(exercise.solution))
    result = attnpos("check", exercise.id, str(answer))
    assert result.returncode == 0, result.stdout + result.stderr
    state = Progress.load(data_dir).exercise(exercise.id)
    assert state.passed and state.passed_source == exercise.solution


def test_attnpos_grade_passes_a_solution_saved_with_a_bom(attnpos, tmp_path):
    exercise = COURSE.exercises["constant-offset"]
    answer = tmp_path / "answer.py"
    answer.write_bytes(with_bom(exercise.solution))
    result = attnpos("grade", exercise.id, str(answer))
    assert result.returncode == 0, result.stdout + result.stderr


def test_watch_passes_a_solution_saved_with_a_bom(checker, tmp_path, monkeypatch, capsys):
    exercise = COURSE.exercises["constant-offset"]
    answer = tmp_path / "answer.py"
    answer.write_bytes(with_bom(exercise.solution))

    def sleep(_seconds):
        raise AssertionError("watch waited again after a pass")

    monkeypatch.setattr(exercise_commands, "time", SimpleNamespace(sleep=sleep, strftime=time.strftime))
    exercise_commands.watch_file(Console(width=200), exercise, answer, checker, 0.1, tmp_path / "data", until_passed=True)
    assert "passed" in capsys.readouterr().out


def test_a_file_python_cannot_read_is_one_line(attnpos, tmp_path):
    answer = tmp_path / "answer.py"
    answer.write_bytes(b"x = '\xe9'\n")
    result = attnpos("check", "constant-offset", str(answer))
    assert result.returncode == 2 and "is not UTF-8 text (byte 5)" in result.stderr and "Traceback" not in result.stderr
