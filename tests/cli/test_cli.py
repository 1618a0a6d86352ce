"""The command line, run in-process (conftest's `attnpos`) as a learner would run it."""

from __future__ import annotations

import json
import os
import time
from types import SimpleNamespace


def test_demos_json_holds_every_experiment(attnpos):
    result = attnpos("demos", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert set(figures) == {
        "shuffle",
        "twins",
        "offset",
        "matrix-form",
        "sentence",
        "exercises",
        "init-scale",
        "causal",
        "ramp",
        "scaling",
        "alibi",
        "rope",
        "families",
        "proof",
        "invariance",
        "cross-terms",
        "stack",
        "embedding",
        "embedding-scale",
        "sinusoidal",
        "learned",
        "rope-lesson",
        "rope-precision",
        "alibi-lesson",
        "scaling-rules",
        "interpolation-bound",
        "attend-back",
        "relative-lesson",
        "relative-back",
    }
    assert figures["relative-lesson"]["figures"]["last_bidirectional"] == [91, 4006]
    assert figures["shuffle"]["figures"]["gap"] < 1e-14
    assert abs(figures["offset"]["figures"]["gap"] - 3.4997577640) < 1e-9
    assert figures["twins"]["figures"]["max_diff"] == 0.0
    assert abs(figures["causal"]["figures"]["gap"] - 1.6508251072) < 1e-9
    assert figures["families"]["figures"]["twins_identical"] == [True, False, False, False, False, False]
    assert figures["embedding"]["figures"]["finite_difference_gap"] < 1e-9
    assert figures["sinusoidal"]["figures"]["shift_error"] < 1e-13
    assert figures["learned"]["figures"]["untouched"] is True
    assert figures["learned"]["figures"]["gradients"][8:] == [0] * 8
    assert (figures["rope-lesson"]["figures"]["long_pairs_10k"], figures["rope-lesson"]["figures"]["long_pairs_500k"]) == (18, 32)
    assert figures["scaling-rules"]["figures"]["yarn_ramp"] == [20, 46]
    assert figures["attend-back"]["figures"]["test"][figures["attend-back"]["figures"]["names"].index("RoPE")] == 1.0


def test_demos_table_names_every_experiment(attnpos):
    result = attnpos("demos")
    assert result.returncode == 0, result.stderr
    for key in ("shuffle", "twins", "offset", "matrix-form", "sentence", "exercises"):
        assert key in result.stdout


def test_unknown_command_is_a_usage_error(attnpos):
    result = attnpos("frobnicate")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


# --- the exercises in order from the command line (issue 23) ---------------------------------

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from attnpos import __version__  # noqa: E402
from attnpos.lessons.course.loader import load_course  # noqa: E402
from attnpos.lessons.course.outline import read_outline  # noqa: E402
from attnpos.lessons.course.progress import Progress, course_order  # noqa: E402
from attnpos.tui.cli import exercise_commands, learner_path, progress_report  # noqa: E402

ORDER = course_order(read_outline())


@pytest.fixture(scope="module")
def course():
    return load_course()


@pytest.fixture
def no_terminal(monkeypatch, tmp_path):
    """No terminal to ask on, even under a developer's."""
    monkeypatch.setattr(progress_report, "CONTROLLING_TERMINAL", str(tmp_path / "no-terminal"))
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)


def test_lessons_check_of_one_exercise_names_a_wrong_id_in_one_line(attnpos):
    unknown = attnpos("lessons", "--check", "--exercise", "no-such-exercise")
    assert unknown.returncode == 2 and "no exercise 'no-such-exercise'" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1 and "Traceback" not in unknown.stderr
    alone = attnpos("lessons", "--exercise", "rope")
    assert alone.returncode == 2 and "--exercise goes with --check" in alone.stderr


def test_version(attnpos):
    result = attnpos("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"attnpos {__version__}"


def test_the_app_refuses_a_stdout_that_is_not_a_terminal(attnpos):
    """`attnpos > out.txt` would write escape codes into the file and wait for keys for ever."""
    for args in ((), ("open", "1"), ("play", "dog bites man")):
        result = attnpos(*args)  # capsys: standard output is not a terminal; the fixture fails if the app opens
        assert result.returncode == 2 and result.stdout == ""
        assert "needs a terminal" in result.stderr and "attnpos lessons show 1" in result.stderr


def test_next_writes_the_first_starter_and_never_overwrites(attnpos, tmp_path, data_dir):
    first = attnpos("next", "--dir", str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert f"Exercise 1 of {len(ORDER)}" in first.stdout and ORDER[0] in first.stdout
    written = tmp_path / f"{ORDER[0]}.py"
    written.write_text("my work")
    again = attnpos("next", "--dir", str(tmp_path))
    assert "is there: carry on" in again.stdout and written.read_text() == "my work"
    progress = Progress.load(data_dir)
    progress.update_exercise(ORDER[0], passed=True)
    progress.save()
    assert f"attnpos why {ORDER[0]}" in attnpos("next", "--dir", str(tmp_path)).stdout
    progress.answer_why(ORDER[0], 0, True)
    progress.save()
    assert ORDER[1] in attnpos("next", "--dir", str(tmp_path)).stdout.splitlines()[0]


def test_exercises_lists_them_in_order_with_what_is_done(attnpos, data_dir, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # one row a line
    progress = Progress.load(data_dir)
    progress.update_exercise(ORDER[0], passed=True)
    progress.answer_why(ORDER[0], 0, True)
    progress.update_exercise(ORDER[1], passed=True)
    progress.save()
    table = [" ".join(line.split()) for line in attnpos("exercises").stdout.splitlines()]
    rows = {line.split()[0]: line for line in table if line.split() and line.split()[0] in ORDER}
    assert list(rows) == ORDER
    assert rows[ORDER[0]].endswith("done")
    assert rows[ORDER[1]].endswith("in progress (why question left) ← next")
    assert rows[ORDER[2]].endswith("not started")


def test_the_why_question_from_the_command_line(attnpos, course, data_dir, no_terminal):
    exercise = course.exercises[ORDER[0]]
    early = attnpos("why", exercise.id, "a")
    assert early.returncode == 2 and "once your code passes" in early.stderr
    Progress.load(data_dir).record_check(exercise.id, True, exercise.solution)
    progress = Progress.load(data_dir)
    progress.record_check(exercise.id, True, exercise.solution)
    progress.save()
    asked = attnpos("why", exercise.id)
    assert asked.returncode == 2 and exercise.why.question in " ".join(asked.stdout.split())
    assert f"attnpos why {exercise.id} a" in asked.stderr
    assert attnpos("why", exercise.id, "z").returncode == 2
    wrong = chr(97 + (exercise.why.answer + 1) % len(exercise.why.choices))
    result = attnpos("why", exercise.id, wrong)
    assert result.returncode == 1 and "Not quite" in result.stdout
    assert not Progress.load(data_dir).exercise(exercise.id).done
    right = attnpos("why", exercise.id, chr(97 + exercise.why.answer))
    assert right.returncode == 0 and "Exercise done" in right.stdout
    assert Progress.load(data_dir).exercise(exercise.id).done
    assert Progress.load(data_dir).exercise(exercise.id).why_first_answer == ord(wrong) - 97  # was never recorded from the shell
    exported = data_dir / "export.json"
    assert attnpos("progress", "--export", str(exported)).returncode == 0
    assert f'"why_first_answer": {ord(wrong) - 97}' in exported.read_text()


@pytest.mark.parametrize("exercise_id", ORDER)
def test_a_right_answer_from_the_shell_says_right_once(attnpos, course, data_dir, exercise_id):
    """`Right. Right.`: the shell added its own to explanations that start with it."""
    exercise = course.exercises[exercise_id]
    Progress.load(data_dir).record_check(exercise.id, True, exercise.solution)
    right = attnpos("why", exercise.id, chr(97 + exercise.why.answer))
    said = " ".join(right.stdout.split())
    assert right.returncode == 0 and "✓ Right" in said and "Right. Right." not in said, said


def test_the_course_ends_with_a_summary(attnpos, course, data_dir, no_terminal):
    progress = Progress.load(data_dir)
    for exercise_id in ORDER:
        progress.record_check(exercise_id, True, course.exercises[exercise_id].solution)
        progress.record_hint(exercise_id, 1)
    for exercise_id in ORDER[:-1]:
        progress.answer_why(exercise_id, course.exercises[exercise_id].why.answer, True)
    progress.save()
    assert "Course complete" not in attnpos("progress").stdout
    last = course.exercises[ORDER[-1]]
    finished = attnpos("why", last.id, chr(97 + last.why.answer))
    text = " ".join(finished.stdout.split())
    assert f"Course complete: all {len(ORDER)} exercises done" in text
    assert f"{len(ORDER)} checks, {len(ORDER)} hints" in text
    assert "Course complete" in attnpos("progress").stdout
    assert "Course complete" in attnpos("next").stdout and "Course complete" in attnpos("exercises").stdout


def test_hints_come_from_the_nudge_up_and_count_what_was_shown(attnpos, course, data_dir):
    exercise = course.exercises["constant-offset"]
    first = attnpos("hint", exercise.id)
    assert first.stdout.startswith(f"Hint 1 of {len(exercise.hints)}")
    assert Progress.load(data_dir).exercise(exercise.id).hints_used == 1
    jump = attnpos("hint", exercise.id, "3")  # hint 2 was never shown: it comes first
    assert [line.split(" ·")[0] for line in jump.stdout.splitlines() if line.startswith("Hint ")] == [
        f"Hint 2 of {len(exercise.hints)}",
        f"Hint 3 of {len(exercise.hints)}",
    ]
    assert Progress.load(data_dir).exercise(exercise.id).hints_used == 3
    again = attnpos("hint", exercise.id, "1")  # a weaker one read again counts nothing new
    assert again.stdout.startswith("Hint 1 of") and Progress.load(data_dir).exercise(exercise.id).hints_used == 3
    assert attnpos("hint", exercise.id).stdout.startswith(f"Hint 4 of {len(exercise.hints)}")
    assert attnpos("hint", exercise.id).stdout.startswith(f"Hint 4 of {len(exercise.hints)}")  # the last, again


def test_a_check_citing_a_hint_points_to_the_hints_without_showing_one(attnpos, course, data_dir, tmp_path):
    exercise = course.exercises["constant-offset"]
    wrong = tmp_path / "answer.py"
    wrong.write_text((exercise.folder / "mistakes" / "wrong-comparison__not-reordered.py").read_text())
    result = attnpos("check", exercise.id, str(wrong))
    assert result.returncode == 1 and "third hint" in result.stdout
    assert f"attnpos hint {exercise.id}" in " ".join(result.stdout.split())
    assert not any(hint[:40] in result.stdout for hint in exercise.hints)
    assert Progress.load(data_dir).exercise(exercise.id).hints_used == 0


# --- messages and files ---------------------------------------------------------------------------


def test_progress_is_read_only(attnpos, tmp_path):
    folder = tmp_path / "deep" / "data"
    result = attnpos("--data-dir", str(folder), "progress")
    assert result.returncode == 0 and not (tmp_path / "deep").exists()
    assert f"nothing saved yet; progress will be kept in {folder}" in " ".join(result.stdout.split())
    assert attnpos("--data-dir", str(folder), "exercises").returncode == 0 and not (tmp_path / "deep").exists()


def test_a_data_folder_that_is_a_file_is_named_as_such(attnpos, tmp_path, monkeypatch):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ATTNPOS_DATA_DIR", str(blocker))
    result = attnpos("progress")
    assert "is a file, not a folder" in result.stderr and "--data-dir" in result.stderr
    assert "progress.json" not in result.stdout  # no path that cannot exist
    assert blocker.read_text() == "not a folder"


def test_a_check_that_cannot_be_saved_says_it_is_lost_and_how_to_fix_it(attnpos, course, tmp_path, monkeypatch):
    import errno

    answer = tmp_path / "answer.py"
    answer.write_text(course.exercises["constant-offset"].solution)

    def refused(fd):  # an unwritable folder, even for root
        raise OSError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "fsync", refused)
    result = attnpos("--data-dir", str(tmp_path / "data"), "check", "constant-offset", str(answer))
    said = " ".join(result.stdout.split())
    assert result.returncode == 0 and "until you quit" not in said
    assert "so this change is not recorded" in said and "--data-dir DIR" in said


def test_exercise_dir_that_is_a_file(attnpos, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = attnpos("exercise", "constant-offset", "--dir", str(blocker))
    assert result.returncode == 2 and "is not a folder" in result.stderr and "File exists" not in result.stderr


# --- watch ----------------------------------------------------------------------------------------


class Stop(Exception):
    pass


def test_watch_says_when_its_file_is_deleted(course, checker, tmp_path, monkeypatch, capsys):
    from rich.console import Console

    exercise = course.exercises["constant-offset"]
    answer = tmp_path / "answer.py"
    answer.write_text(exercise.starter)
    looks = iter(range(4))

    def sleep(_seconds):  # each look at the file: delete it after the first check, then stop
        step = next(looks, None)
        if step == 0:
            answer.unlink()
        elif step is None:
            raise Stop

    monkeypatch.setattr(exercise_commands, "time", SimpleNamespace(sleep=sleep, strftime=time.strftime))
    with pytest.raises(Stop):
        exercise_commands.watch_file(Console(width=200), exercise, answer, checker, 0.1, tmp_path / "data")
    said = capsys.readouterr().out
    assert said.count("is gone; waiting for it to come back") == 1


def test_watch_without_an_id_walks_the_exercises_in_order(course, tmp_path, monkeypatch, data_dir, capsys):
    """Each starter written as the walk reaches it; a pass asks the why question; the end is the summary."""
    from attnpos.lessons.checker import Limits

    monkeypatch.chdir(tmp_path)
    progress = Progress.load(data_dir)
    for exercise_id in ORDER[:-2]:  # all but the last two done already
        progress.update_exercise(exercise_id, passed=True)
        progress.answer_why(exercise_id, course.exercises[exercise_id].why.answer, True)
    progress.save()
    last = course.exercises[ORDER[-1]].why
    wrong = (last.answer + 1) % len(last.choices)
    answers = iter(["", chr(97 + wrong), chr(97 + last.answer)])  # the first question skipped, the last wrong, then right
    monkeypatch.setattr(learner_path, "ask", lambda question: next(answers))

    def sleep(_seconds):  # the learner saves the solution into the file the walk wrote
        for exercise_id in ORDER[-2:]:
            path = tmp_path / f"{exercise_id}.py"
            if path.exists() and path.read_text() == course.exercises[exercise_id].starter:
                path.write_text(course.exercises[exercise_id].solution)

    monkeypatch.setattr(exercise_commands, "time", SimpleNamespace(sleep=sleep, strftime=time.strftime))
    assert learner_path.walk(course, Path("."), 0.01, Limits(), data_dir, None) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert said.index(ORDER[-2]) < said.index(ORDER[-1])
    assert f"left open: attnpos why {ORDER[-2]}" in said
    assert f"questions left: attnpos why {ORDER[-2]}" in said
    final = Progress.load(data_dir)
    assert final.exercise(ORDER[-1]).done and final.exercise(ORDER[-2]).passed and not final.exercise(ORDER[-2]).done
    assert final.exercise(ORDER[-1]).why_first_answer == wrong  # watch recorded only the latest answer


def test_the_readme_says_what_the_app_does_after_a_pass_from_the_command_line():
    """The app keeps a draft of the learner's own and offers ctrl+l (tests/e2e/test_learner_walkthrough.py shows it
    does); the README once said it always opens on the code that passed."""
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8").split())
    assert "A pass there counts in the app too: the app opens on the code that passed." not in readme
    assert "if you have a draft of your own there, the app keeps it" in readme and "`ctrl+l` loads it" in readme


def test_lessons_show_prints_each_helper_the_code_calls_once(attnpos, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    text = attnpos("lessons", "show", "1").stdout
    helpers = text[text.index("\nHelpers") :]
    assert "calls attention_output, shuffle_setup from attnpos.core" in " ".join(text.split())
    for name in ("self_attention", "attention_output", "slot_ramp", "shuffle_setup"):
        assert helpers.count(f"─ {name} · attnpos.core.") == 1 and f"def {name}(" in helpers


def test_cell_helpers_reads_names_imported_from_core(tmp_path):
    from attnpos.lessons.course.cells import cell_helpers

    found = cell_helpers("from attnpos.core import attention_output\nfrom attnpos.core.experiments import SENTENCE_A, sentence_head\nimport numpy")
    assert [(h.name, h.module) for h in found] == [
        ("attention_output", "attnpos.core.attention"),
        ("SENTENCE_A", "attnpos.core.experiments"),
        ("sentence_head", "attnpos.core.experiments"),
    ]
    assert found[1].source.startswith("SENTENCE_A = (") and cell_helpers("def broken(:") == []
