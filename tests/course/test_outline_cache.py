"""The outline kept in the data folder (issue 39): what the first screen reads, the same as the lessons say, whatever the cache holds."""

from __future__ import annotations

import json
import os

from attnpos.lessons.course.outline import OUTLINE_CACHE, read_outline
from attnpos.lessons.course.scanner import content_dir, exercises_dir
from attnpos.lessons.course.session import Session
from tiny_course import write_course_file, write_lesson

LESSON = '+++\ntitle = "{title}"\nsummary = "S."\n+++\n\n## First $\\alpha$\n\nProse.\n\n## Second\n\n```{{quiz}}\nid = "q-{title}"\nquestion = "?"\n```\n'


def small_course(root):
    root.mkdir()
    write_course_file(root)
    for number, title in enumerate(("Aa", "Bb"), start=1):
        write_lesson(root, f"{number:02d}-lesson", LESSON.format(title=title))
    (root / "exercises").mkdir()
    return root


def test_the_cached_outline_is_the_outline_read_from_the_lessons(tmp_path):
    cache = tmp_path / OUTLINE_CACHE
    fresh = read_outline(content_dir(), exercises_dir())
    assert read_outline(content_dir(), exercises_dir(), cache) == fresh  # read, and written
    assert len(json.loads(cache.read_text())["lessons"]) == len(fresh)
    assert read_outline(content_dir(), exercises_dir(), cache) == fresh  # from the cache


def test_a_lesson_edited_since_is_read_again_even_at_the_same_size_and_time(tmp_path):
    root, cache = small_course(tmp_path / "course"), tmp_path / OUTLINE_CACHE
    lesson = root / "01-lesson" / "lesson.md"
    assert [lesson.title for lesson in read_outline(root, root / "exercises", cache)] == ["Aa", "Bb"]
    stamp = lesson.stat()
    lesson.write_text(lesson.read_text().replace("Aa", "Cc").replace("## Second", "## Latter"))
    os.utime(lesson, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert lesson.stat().st_size == stamp.st_size
    outline = read_outline(root, root / "exercises", cache)
    assert outline == read_outline(root, root / "exercises")
    assert outline[0].title == "Cc" and outline[0].sections == ("First α", "Latter") and outline[0].quizzes == ("q-Cc",)
    assert len(json.loads(cache.read_text())["lessons"]) == 2  # the old text's entry is gone


def test_a_damaged_or_foreign_cache_is_read_past_and_replaced(tmp_path):
    root, cache = small_course(tmp_path / "course"), tmp_path / OUTLINE_CACHE
    truth = read_outline(root, root / "exercises")
    for damage in ("{not json", "[]", json.dumps({"reader": [], "lessons": {}})):
        cache.write_text(damage)
        assert read_outline(root, root / "exercises", cache) == truth
    written = json.loads(cache.read_text())
    for shape in written["lessons"].values():
        shape["sections"] = [7]  # not a title: read from the lesson again
    cache.write_text(json.dumps(written))
    assert read_outline(root, root / "exercises", cache) == truth
    assert all(shape["sections"] != [7] for shape in json.loads(cache.read_text())["lessons"].values())


def test_a_folder_that_cannot_be_written_keeps_no_cache_and_leaves_nothing(tmp_path):
    root = small_course(tmp_path / "course")
    missing = tmp_path / "no-such-folder" / OUTLINE_CACHE
    assert read_outline(root, root / "exercises", missing) == read_outline(root, root / "exercises")
    assert not missing.parent.exists()


def test_the_session_keeps_the_outline_beside_the_progress(tmp_path):
    session = Session(tmp_path)
    assert (tmp_path / OUTLINE_CACHE).is_file() and session.outline == read_outline()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
