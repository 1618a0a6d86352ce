"""The progress store: atomic, versioned, and forgiving of a damaged or unwritable folder."""

from __future__ import annotations

import json
import os

import pytest

from attnpos.lessons.course.progress import SCHEMA_VERSION, STATE_FILE, Progress, QuizRecord
from attnpos.tui.cli import progress_report


def test_round_trip(tmp_path):
    progress = Progress.load(tmp_path)
    progress.visit(2, 3)
    progress.update_exercise("constant-offset", draft="pos = 0.6", attempts=2, passed=True)
    progress.answer_quiz("q1", 1, True)
    assert progress.save()
    again = Progress.load(tmp_path)
    assert again.position == (2, 3) and again.visited(2) == {3}
    state = again.exercise("constant-offset")
    assert state.draft == "pos = 0.6" and state.attempts == 2 and state.passed
    assert again.quiz_answer("q1") == QuizRecord(first_choice=1, first_correct=True, choice=1, correct=True)
    assert json.loads((tmp_path / STATE_FILE).read_text())["version"] == SCHEMA_VERSION
    assert sorted(p.name for p in tmp_path.iterdir()) == [STATE_FILE, STATE_FILE + ".lock"]  # no temporary file left behind


def test_reload_takes_in_what_another_process_saved(tmp_path):
    """An open app did not see a pass made with attnpos check in another terminal until it saved something itself."""
    app = Progress.load(tmp_path)
    app.visit(1, 0)
    assert not app.reload()  # its own save is not news
    shell = Progress.load(tmp_path)
    shell.record_check("constant-offset", True, "pos = 0.6")
    assert app.reload() and app.exercise("constant-offset").passed
    assert app.position == (1, 0)
    assert not app.reload()  # nothing new since


def test_reload_keeps_changes_a_failed_save_left_in_memory(tmp_path):
    app = Progress.load(tmp_path)
    app.writable = False  # as after a failed save: its changes live in memory only
    app.visit(3, 1)
    Progress.load(tmp_path).record_hint("constant-offset", 1)
    assert app.reload()
    assert app.exercise("constant-offset").hints_used == 1 and app.position == (3, 1)


def test_every_change_is_saved_as_it_is_made(tmp_path):
    """A change and its save are one operation: no caller can forget the save."""
    progress = Progress.load(tmp_path)
    progress.visit(1, 2)
    assert Progress.load(tmp_path).position == (1, 2)
    progress.record_hint("constant-offset", 2)
    progress.answer_quiz("q1", 0, False)
    progress.enter_exercise("constant-offset")
    again = Progress.load(tmp_path)
    assert again.exercise("constant-offset").hints_used == 2 and again.quiz_answer("q1") is not None
    assert again.open_exercise == "constant-offset"
    assert progress.reset() and Progress.load(tmp_path).position is None


def test_notices_go_to_a_listener_once_there_is_one(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    progress = Progress.load(blocked)
    told: list[str] = []
    progress.listen(told.append)
    assert len(told) == 1 and not progress.notices  # the start-up notice, handed over
    progress.visit(1, 0)  # kept in memory, and not told twice
    assert len(told) == 1 and progress.position == (1, 0)


@pytest.mark.parametrize(
    "content, reason",
    [
        (b'{"version": 1, "position": [1,', "damaged"),
        (b"\x00\xff\xfe binary junk", "damaged"),
        (json.dumps({"version": 1, "position": "one", "visited": {}, "exercises": {}, "quizzes": {}}).encode(), "damaged"),
        (json.dumps({"version": 99}).encode(), "newer attnpos"),
        (b"[]", "damaged"),
    ],
)
def test_unusable_file_is_moved_aside_with_a_notice(tmp_path, content, reason):
    (tmp_path / STATE_FILE).write_bytes(content)
    progress = Progress.load(tmp_path)
    assert progress.position is None
    assert len(progress.notices) == 1 and reason in progress.notices[0]
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(STATE_FILE + ".unreadable-")]
    assert len(kept) == 1 and kept[0].read_bytes() == content  # the learner's file is never deleted
    progress.visit(1, 0)
    assert progress.save()


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to read-only folders")
def test_read_only_folder_keeps_state_in_memory(tmp_path):
    os.chmod(tmp_path, 0o500)
    try:
        progress = Progress.load(tmp_path)
        progress.visit(1, 2)
        assert not progress.save() and not progress.save()
        assert len(progress.notices) == 1 and "kept in memory" in progress.notices[0]
        assert progress.position == (1, 2)
    finally:
        os.chmod(tmp_path, 0o700)


def test_unwritable_location_keeps_state_in_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    progress = Progress.load(blocker / "data")
    progress.visit(1, 2)
    assert not progress.save() and not progress.save()
    assert len(progress.notices) == 1 and "in memory" in progress.notices[0]
    assert progress.position == (1, 2)


@pytest.mark.parametrize("errno_name", ["ENOSPC", "EROFS", "EACCES"])
def test_failed_write_keeps_the_previous_file(tmp_path, monkeypatch, errno_name):
    import errno

    progress = Progress.load(tmp_path)
    progress.update_exercise("constant-offset", draft="the good draft")
    assert progress.save()
    before = (tmp_path / STATE_FILE).read_bytes()

    def full_disk(fd):
        raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))

    monkeypatch.setattr(os, "fsync", full_disk)
    progress.update_exercise("constant-offset", draft="a newer draft")
    assert not progress.save() and not progress.save()
    assert len(progress.notices) == 1
    assert (tmp_path / STATE_FILE).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [STATE_FILE, STATE_FILE + ".lock"]
    assert progress.exercise("constant-offset").draft == "a newer draft"  # still in memory


def test_environment_variable_chooses_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNPOS_DATA_DIR", str(tmp_path / "elsewhere"))
    progress = Progress.load()
    progress.visit(1, 1)
    progress.save()
    assert (tmp_path / "elsewhere" / STATE_FILE).exists()


def first_title() -> str:
    from attnpos.lessons.course.outline import read_outline

    return read_outline()[0].sections[0]


def test_progress_and_reset_commands(tmp_path, attnpos, monkeypatch):
    monkeypatch.setattr(progress_report, "CONTROLLING_TERMINAL", str(tmp_path / "no-terminal"))  # even under a developer's terminal
    progress = Progress.load(tmp_path)
    progress.visit(1, 0)
    progress.update_exercise("constant-offset", draft="x", passed=True)
    progress.answer_why("constant-offset", 0, True)
    progress.update_exercise("forget-reorder", draft="y")
    progress.update_exercise("identical-tokens", draft="z", attempts=2, passed=True)
    progress.save()
    report = json.loads(attnpos("--data-dir", str(tmp_path), "progress", "--json").stdout)
    first = report["lessons"][0]
    assert first["status"] == "in progress" and first["sections_read"] == 1
    by_id = {e["id"]: e for e in first["exercises"]}
    assert by_id["constant-offset"]["status"] == "done" and by_id["forget-reorder"]["status"] == "in progress"
    assert "draft" not in by_id["forget-reorder"] and by_id["forget-reorder"]["has_draft"]
    assert by_id["forget-reorder"]["left"] == ["code check", "why question"] and by_id["constant-offset"]["left"] == []
    assert report["position"] == {"lesson": 1, "section": 1, "section_title": first_title(), "exercise": None}
    table = attnpos("--data-dir", str(tmp_path), "progress").stdout
    assert "identical-tokens in progress (why question left)" in " ".join(table.split())

    refused = attnpos("--data-dir", str(tmp_path), "reset")  # no terminal to confirm on, no --yes
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert attnpos("--data-dir", str(tmp_path), "reset", "forget-reorder", "--yes").returncode == 0
    assert Progress.load(tmp_path).exercise("forget-reorder").draft is None
    assert Progress.load(tmp_path).exercise("constant-offset").passed
    assert attnpos("--data-dir", str(tmp_path), "reset", "--yes").returncode == 0
    assert Progress.load(tmp_path).position is None
    assert attnpos("--data-dir", str(tmp_path), "reset", "nope", "--yes").returncode == 2


def test_two_apps_on_one_folder_lose_no_update(tmp_path):
    """Both sessions' progress survives, whichever saves last."""
    first, second = Progress.load(tmp_path), Progress.load(tmp_path)
    first.visit(1, 2)
    first.update_exercise("constant-offset", passed=True, attempts=3)
    second.visit(3, 1)
    second.update_exercise("forget-reorder", draft="mine")
    second.answer_quiz("q", 0, False)
    assert first.save() and second.save()
    first.answer_why("constant-offset", 0, True)
    assert first.save()
    merged = Progress.load(tmp_path)
    assert merged.visited(1) == {2} and merged.visited(3) == {1}
    assert merged.exercise("constant-offset").passed and merged.exercise("constant-offset").why_correct
    assert merged.exercise("forget-reorder").draft == "mine"
    assert merged.quiz_answer("q") == QuizRecord(0, False, 0, False)
    assert first.state == merged.state  # a save also brings in the other session's progress


def test_a_check_counts_an_attempt_and_a_pass_sticks_even_from_two_front_ends(tmp_path):
    app, command_line = Progress.load(tmp_path), Progress.load(tmp_path)
    assert app.record_check("constant-offset", True, "right = 1").passed
    assert app.save()
    # Saved as it is made, so merged with the file at once: the app's pass is already in it.
    assert command_line.record_check("constant-offset", False, "wrong = 1").passed
    state = Progress.load(tmp_path).exercise("constant-offset")
    assert state.attempts == 2 and state.passed and state.passed_source == "right = 1"  # the code of the pass, not of the later failure


def test_a_question_keeps_its_first_answer_and_its_latest(tmp_path):
    progress = Progress.load(tmp_path)
    progress.answer_quiz("q", 1, True)
    progress.answer_quiz("q", 2, False)
    assert progress.save()
    again = Progress.load(tmp_path)
    assert again.quiz_answer("q") == QuizRecord(first_choice=1, first_correct=True, choice=2, correct=False)
    assert again.first_answers(["q", "unanswered"]) == (1, 1)


def test_a_version_1_file_still_loads_and_is_upgraded(tmp_path):
    old = {
        "version": 1,
        "position": [2, 1],
        "visited": {"2": [0, 1]},
        "quizzes": {"q": {"choice": 0, "correct": False}},
        "exercises": {"constant-offset": {"draft": "x = 1", "attempts": 2, "passed": True}},
    }
    (tmp_path / STATE_FILE).write_text(json.dumps(old))
    progress = Progress.load(tmp_path)
    assert not progress.notices and progress.position == (2, 1)
    assert progress.quiz_answer("q") == QuizRecord(0, False, 0, False)  # its one answer is the first we know of
    state = progress.exercise("constant-offset")
    assert state.passed and state.passed_source is None and state.draft == "x = 1"
    progress.answer_quiz("q", 1, True)
    assert progress.save()
    written = json.loads((tmp_path / STATE_FILE).read_text())
    assert written["version"] == SCHEMA_VERSION == 2
    assert written["quizzes"]["q"] == {"choice": 1, "correct": True, "first_choice": 0, "first_correct": False}


def test_hints_count_up_to_the_strongest_seen(tmp_path):
    progress = Progress.load(tmp_path)
    assert progress.record_hint("constant-offset", 2)
    assert not progress.record_hint("constant-offset", 1)
    assert progress.exercise("constant-offset").hints_used == 2


def test_wrong_field_types_count_as_damage(tmp_path):
    state = {"version": 1, "position": None, "visited": {}, "quizzes": {}, "exercises": {"x": {"attempts": "three"}}}
    (tmp_path / STATE_FILE).write_text(json.dumps(state))
    assert Progress.load(tmp_path).notices


def test_a_read_only_load_creates_moves_and_writes_nothing(tmp_path):
    assert Progress.load(tmp_path / "new" / "data", read_only=True).path.parent.exists() is False
    (tmp_path / STATE_FILE).write_bytes(b"damaged{")
    progress = Progress.load(tmp_path, read_only=True)
    assert progress.notices and not progress.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == [STATE_FILE] and (tmp_path / STATE_FILE).read_bytes() == b"damaged{"


def test_a_command_is_told_its_change_is_lost_and_the_app_that_it_lasts_until_quitting(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    app, command = Progress.load(blocker / "data"), Progress.load(blocker / "data", lasting=False)
    assert "kept in memory until you quit" in app.notices[0] and "--data-dir" in app.notices[0]
    assert "not recorded" in command.notices[0] and "until you quit" not in command.notices[0]


def test_a_draft_too_large_for_the_editor_is_named_and_kept_aside(tmp_path):
    from attnpos.lessons.course.progress import DRAFT_MAX_CHARS, DRAFT_MAX_LINES, draft_too_large, keep_aside

    assert draft_too_large("x = 1\n" * 50) is None
    assert "12,000 lines" in draft_too_large("x = 1\n" * 11_999 + "x = 1")
    assert draft_too_large("#" * (DRAFT_MAX_CHARS + 1)).startswith(f"{DRAFT_MAX_CHARS + 1:,} characters")
    assert draft_too_large("\n" * (DRAFT_MAX_LINES - 1)) is None
    first = keep_aside(tmp_path / "kept", "answer.py", "one")
    second = keep_aside(tmp_path / "kept", "answer.py", "two")
    assert first.read_text() == "one" and second.name == "answer-2.py" and second.read_text() == "two"


def test_why_answers_are_recorded_by_answer_why_alone(tmp_path):
    """One function records a why answer, whatever the route: update_exercise refuses to, so no route can lose the first answer."""
    progress = Progress.load(tmp_path)
    for field in ("why_answer", "why_correct", "why_first_answer"):
        with pytest.raises(AttributeError, match="answer_why"):
            progress.update_exercise("constant-offset", **{field: 1})
    progress.answer_why("constant-offset", 2, False)
    progress.answer_why("constant-offset", 0, True)
    state = progress.exercise("constant-offset")
    assert (state.why_first_answer, state.why_answer, state.why_correct) == (2, 0, True)
