"""`attnpos lessons --check`: the whole course validated, as a list of problems a writer can act on.

Every file parses (the loader), every runnable block runs, and every exercise
passes its own checks (lessons/authoring/exercise_scripts.py: the solution and right/
pass, the starter does not, each mistake gets its diagnosis). What a scaffold
left to write (lines starting TODO, lessons/authoring/scaffold.py) is listed as
notes: a draft lesson is a valid one.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct

from attnpos.lessons.authoring.scaffold import placeholders
from attnpos.lessons.course.cells import run_cell
from attnpos.lessons.course.loader import CourseError, load_course
from attnpos.lessons.course.model import Code, Course


class CourseCheck(Struct, frozen=True):
    problems: tuple[str, ...]  # each "file:line: message", or "lessons/content/exercises/<id>/<file>: message"
    course: Course | None = None  # None when it did not load
    notes: tuple[str, ...] = ()  # "file:line: placeholder: …": what a scaffold left to write; never a problem

    @property
    def summary(self) -> str:
        if self.problems:
            return f"{len(self.problems)} problem(s) in the course"
        assert self.course is not None
        blocks = sum(len(s.blocks) for lesson in self.course.lessons for s in lesson.sections)
        left = f"; {len(self.notes)} placeholder(s) to write" if self.notes else ""
        return f"course ok: {len(self.course.lessons)} lessons, {blocks} blocks, {len(self.course.exercises)} exercises{left}"


class UnknownExercise(ValueError):
    """An exercise id given to :func:`check_course` that the course does not have."""


def check_course(jobs: int = 2, only: Sequence[str] | None = None) -> CourseCheck:
    """Load the course folder's course and check everything in it; ``jobs`` learner scripts are checked at once.

    ``only``: run the scripts of these exercises alone (a writer's quick check
    of a new one); every lesson, block and exercise file is still loaded and
    validated. Raises :class:`UnknownExercise` for an id the course lacks.
    """
    try:
        course = load_course()
    except CourseError as error:
        return CourseCheck(tuple(str(problem) for problem in error.problems))
    unknown = [i for i in only or () if i not in course.exercises]
    if unknown:
        raise UnknownExercise(f"no exercise {unknown[0]!r} in the course; the ids: {', '.join(course.exercises)}")
    exercises = {i: e for i, e in course.exercises.items() if only is None or i in only}
    problems = [
        f"{lesson.path.name}:{block.line}: the block fails: {result.error}"
        for lesson in course.lessons
        for section in lesson.sections
        for block in section.blocks
        if isinstance(block, Code) and block.runnable
        for result in [run_cell(block.source)]
        if not result.ok
    ]
    from attnpos.lessons.grading.grades import SubmissionError, load_grading

    try:
        load_grading(course)  # an instructor's edits to the grading table are checked here too
    except SubmissionError as problem:
        problems.append(str(problem))
    from attnpos.lessons.authoring.exercise_scripts import exercise_problems  # the checker starts processes: only when needed
    from attnpos.lessons.checker import open_checker

    with open_checker(jobs=jobs) as checker:
        problems += [f"lessons/content/exercises/{problem}" for problem in exercise_problems(exercises, checker)]
    return CourseCheck(tuple(problems), course, tuple(str(note) for note in placeholders(course)))
