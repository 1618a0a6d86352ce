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
    """course.toml in ``root``, beside the content/ and exercises/ folders of a small course."""
    (root / "course.toml").write_text(COURSE_TOML, encoding="utf-8")
