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


TINY_LESSONS = ("Tokens as a set", "Order from a signal", "Position in the scores")


def write_tiny_course(root) -> None:
    """A small whole course in ``root`` (course.toml, a lesson folder per title in TINY_LESSONS, two sections each,
    no figures or exercises), for tests whose picture must not change when the real course grows."""
    root.mkdir(parents=True, exist_ok=True)
    write_course_file(root)
    for number, title in enumerate(TINY_LESSONS, start=1):
        text = f'+++\ntitle = "{title}"\nsummary = "What lesson {number} shows."\n+++\n\n## First\n\nProse.\n\n## Second\n\nMore prose.\n'
        write_lesson(root, f"{number:02d}-lesson-{number}", text)
