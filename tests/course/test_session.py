"""The learner's session without Textual: course, progress, checker and limits, each made once."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from attnpos.lessons.course.session import Session


def test_the_course_is_loaded_once_whoever_asks_first(tmp_path):
    session = Session(tmp_path)
    with ThreadPoolExecutor(4) as pool:
        courses = list(pool.map(lambda _: session.course, range(4)))
    assert all(course is courses[0] for course in courses)
    assert [lesson.number for lesson in courses[0].lessons] == [lesson.number for lesson in session.outline]
    assert session.text.title == courses[0].title


def test_the_checker_opens_on_first_use_and_closes_with_the_session(tmp_path):
    session = Session(tmp_path)
    try:
        assert session.checker is session.checker
        assert session.limits.timeout_s > 0
    finally:
        session.close()


def test_progress_is_the_data_folders(tmp_path):
    Session(tmp_path).progress.visit(2, 1)
    assert Session(tmp_path).progress.position == (2, 1)


def test_a_session_needs_neither_textual_nor_numpy_to_start():
    code = "import sys; from attnpos.lessons.course.session import Session; Session(); print('textual' in sys.modules, 'numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
