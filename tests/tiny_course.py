"""A minimal valid exercise, for tests that build small courses of their own."""

EXERCISE_TOML = """title = "T"
lesson = 1
instructions = "Do it."
hints = ["a nudge"]
[why]
question = "Why?"
choices = ["a", "b"]
answer = 0
explanations = ["yes", "no"]
[messages]
passed = "Well done."
[advice]
"""

COURSE_TOML = 'title = "A tiny course"\nprerequisites = "None."\nintroduction = "{lessons} to test with."\n'


def write_course_file(root) -> None:
    """course.toml in ``root``, the folder of a small course's lesson folders."""
    (root / "course.toml").write_text(COURSE_TOML, encoding="utf-8")


def write_lesson(root, name: str, text: str, **encoding: str) -> None:
    """A lesson's text in its own folder, ``root/name/lesson.md`` (``name``: NN-slug)."""
    (root / name).mkdir(parents=True, exist_ok=True)
    (root / name / "lesson.md").write_text(text, encoding="utf-8", **encoding)
