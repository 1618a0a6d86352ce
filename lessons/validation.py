"""`attnpos lessons --check`: the whole course validated, as a list of problems a writer can act on.

Every file parses (the loader), every runnable block runs, and every exercise
passes its own checks (lessons/checking/content.py: the solution and right/
pass, the starter does not, each mistake gets its diagnosis).
"""

from __future__ import annotations

from dataclasses import dataclass

from attnpos.lessons.cells import run_cell
from attnpos.lessons.loader import CourseError, load_course
from attnpos.lessons.model import Code, Course


@dataclass(frozen=True)
class CourseCheck:
    problems: tuple[str, ...]  # each "file:line: message", or "lessons/exercises/<id>/<file>: message"
    course: Course | None = None  # None when it did not load

    @property
    def summary(self) -> str:
        if self.problems:
            return f"{len(self.problems)} problem(s) in the course"
        assert self.course is not None
        blocks = sum(len(s.blocks) for lesson in self.course.lessons for s in lesson.sections)
        return f"course ok: {len(self.course.lessons)} lessons, {blocks} blocks, {len(self.course.exercises)} exercises"


def check_course(jobs: int = 4) -> CourseCheck:
    """Load the course folder's course and check everything in it; ``jobs`` learner scripts are checked at once."""
    try:
        course = load_course()
    except CourseError as error:
        return CourseCheck(tuple(str(problem) for problem in error.problems))
    problems = [
        f"{lesson.path.name}:{block.line}: the block fails: {result.error}"
        for lesson in course.lessons
        for section in lesson.sections
        for block in section.blocks
        if isinstance(block, Code) and block.runnable
        for result in [run_cell(block.source)]
        if not result.ok
    ]
    from attnpos.lessons.grading import SubmissionError, load_grading

    try:
        load_grading(course)  # an instructor's edits to the grading table are checked here too
    except SubmissionError as problem:
        problems.append(str(problem))
    from attnpos.lessons.checking import Sandbox, exercise_problems  # the sandbox starts processes: only when needed

    with Sandbox(max_workers=jobs) as sandbox:
        problems += [f"lessons/exercises/{problem}" for problem in exercise_problems(course.exercises, sandbox, jobs)]
    return CourseCheck(tuple(problems), course)
