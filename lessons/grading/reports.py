"""A graded class told in every format `grade-class` writes: a Rich table, JSON, CSV, a gradebook,
a one-page Markdown report, Gradescope's results.json, JUnit XML, and each student's own feedback (Markdown and HTML).

Every renderer is a pure function of the grades: no clock, no absolute paths,
keys and rows in a fixed order, so the same submissions give byte-identical files.
docs/GRADING.md shows an example of each.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from xml.etree import ElementTree

from msgspec import Struct
from msgspec.structs import asdict, fields
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from attnpos.lessons.checker import printable
from attnpos.lessons.course.model import Course
from attnpos.lessons.grading.grades import NOT_SUBMITTED, ExerciseGrade, ExerciseSummary, Grading, StudentGrade, course_order, natural_key

BAR = "█"
BAR_WIDTH = 20  # the longest bar of a histogram, in cells


def _students(count: int) -> str:
    return f"{count} student" + ("" if count == 1 else "s")


def _number(value: float) -> int | float:
    """4 points, 3.2 points: whole numbers without a decimal point."""
    return int(value) if float(value).is_integer() else value


def confinement_words(level: dict) -> str:
    """The confinement in words for people ("bubblewrap; seccomp; Landlock ABI 6; fresh namespaces: user, mount")."""
    parts = []
    if level.get("bwrap"):
        parts.append("bubblewrap")
    if level.get("seccomp"):
        parts.append("seccomp")
    if level.get("landlock"):
        parts.append(f"Landlock ABI {level['landlock']}")
    if level.get("namespaces"):
        parts.append("fresh namespaces: " + ", ".join(level["namespaces"]))
    return "; ".join(parts) or "no kernel confinement"


# --- JSON -------------------------------------------------------------------------------------


def _grading_json(course: Course, grading: Grading) -> dict:
    return {
        "weights": {exercise_id: _number(grading.points(exercise_id)) for exercise_id in course_order(course)},
        "parts": {"code": grading.code_share, "why": grading.why_share},
        "partial": dict(sorted(grading.partial.items())),
    }


def merged_students(previous: str, course: Course, grading: Grading, regraded: list[StudentGrade]) -> list[StudentGrade]:
    """The students of an earlier ``--json`` report with ``regraded`` in place of their old rows, in natural order.

    Raises ValueError (one line) when the report is not one, or was graded with another table or other exercises."""
    try:
        report = json.loads(previous)
        if report["grading"] != json.loads(json.dumps(_grading_json(course, grading))):
            raise ValueError("it was graded with another grading table or other exercises; grade the whole class again")
        kept = [
            StudentGrade(
                row["student"],
                tuple(ExerciseGrade(**{f.name: e[f.name] for f in fields(ExerciseGrade)}) for e in row["exercises"]),
                tuple((u["file"], u["reason"]) for u in row["unmatched"]),
                row["export"],
            )
            for row in report["students"]
        ]
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
        raise ValueError(f"it is not a grade-class --json report ({type(error).__name__}: {error})") from None
    names = {s.student for s in regraded}
    return sorted([s for s in kept if s.student not in names] + regraded, key=lambda s: natural_key(s.student))


def class_json(course: Course, grading: Grading, students: list[StudentGrade], summaries: list[ExerciseSummary], level: dict) -> str:
    totals = [s.points for s in students]
    report = {
        "course": course.title,
        "grading": _grading_json(course, grading),
        "confinement": level,
        "students": [
            {
                "student": s.student,
                "points": _number(s.points),
                "max_points": _number(s.max_points),
                "export": s.export,
                "exercises": [{**asdict(g), "points": _number(g.points), "max_points": _number(g.max_points)} for g in s.exercises],
                "unmatched": [{"file": name, "reason": reason} for name, reason in s.unmatched],
            }
            for s in students
        ],
        "exercises": [
            {
                **{k: v for k, v in asdict(x).items() if k not in ("diagnoses", "wrong_first_choices", "max_points")},
                "max_points": _number(x.max_points),
                "diagnoses": dict(x.diagnoses),
                "wrong_first_choices": [{"choice": c, "text": text, "students": n} for c, text, n in x.wrong_first_choices],
            }
            for x in summaries
        ],
        "totals": {
            "students": len(students),
            "mean_points": round(sum(totals) / len(totals), 4) if totals else 0,
            "max_points": _number(students[0].max_points) if students else 0,
        },
    }
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


# --- CSV ----------------------------------------------------------------------------------------

CSV_COLUMNS = (
    "student",
    "exercise",
    "file",
    "diagnosis",
    "passed",
    "code_earned",
    "why_choice",
    "why_correct",
    "hints_used",
    "points",
    "max_points",
    "message",
)


# A cell a spreadsheet would read as a formula (OWASP, "CSV Injection"): these first characters, tab and carriage return too.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """A text cell that would start a formula gets a leading ``'``, as OWASP advises, so it is shown as text; numbers pass."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def _csv(rows: list[list[object]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([[spreadsheet_cell(cell) for cell in row] for row in rows])
    return out.getvalue()


def class_csv(students: list[StudentGrade]) -> str:
    """One row per student and exercise, one per file that answers none, then the class's totals row."""
    rows: list[list[object]] = [list(CSV_COLUMNS)]
    for s in students:
        for g in s.exercises:
            rows.append(
                [
                    s.student,
                    g.exercise,
                    g.file or "",
                    g.diagnosis,
                    g.passed,
                    g.code_earned,
                    "" if g.why_choice is None else g.why_choice,
                    g.why_correct,
                    "" if g.hints_used is None else g.hints_used,
                    _number(g.points),
                    _number(g.max_points),
                    g.message,
                ]
            )
        for name, reason in s.unmatched:
            rows.append([s.student, "", name, "unmatched", False, "", "", "", "", "", "", reason])
    passes = sum(g.passed for s in students for g in s.exercises)
    rows.append(
        [
            "total",
            "",
            "",
            "",
            passes,
            "",
            "",
            "",
            "",
            _number(round(sum(s.points for s in students), 4)),
            _number(round(sum(s.max_points for s in students), 4)),
            f"{len(students)} students, {passes} passes",
        ]
    )
    return _csv(rows)


def gradebook_csv(course: Course, students: list[StudentGrade]) -> str:
    """One row per student: points per exercise, total, out of, percent."""
    rows: list[list[object]] = [["student", *course_order(course), "total", "max", "percent"]]
    for s in students:
        percent = round(100 * s.points / s.max_points, 1) if s.max_points else 0
        rows.append([s.student, *(_number(g.points) for g in s.exercises), _number(s.points), _number(s.max_points), _number(percent)])
    return _csv(rows)


# --- the terminal -----------------------------------------------------------------------------


def class_renderable(course: Course, students: list[StudentGrade], summaries: list[ExerciseSummary], level: dict) -> Group:
    # Exercises numbered in the header, named in the caption: ten of them still fit 80 columns.
    legend = " · ".join(f"{n} {exercise_id}" for n, exercise_id in enumerate(course_order(course), start=1))
    scores = Table(title=f"{len(students)} students", title_style="bold", title_justify="left", box=None)
    scores.add_column("student", overflow="fold")
    for n in range(1, len(course.exercises) + 1):
        scores.add_column(str(n), justify="right")
    scores.add_column("total", justify="right")
    for s in students:
        cells = [_cell(g.points, g.max_points, g.passed, g.diagnosis) for g in s.exercises]
        scores.add_row(escape(printable(s.student)), *cells, f"[bold]{_number(s.points)}[/]/{_number(s.max_points)}")
    parts: list = [scores, Text(legend, style="dim")]
    for x in summaries:
        parts.append(Text(""))
        parts.append(Text.from_markup(f"[bold]{escape(x.exercise)}[/] · {escape(x.title)}: {x.passed} of {x.submitted} submitted passed"))
        if x.diagnoses:
            parts.append(_histogram(x.diagnoses))
        for choice, text, count in x.wrong_first_choices[:3]:
            parts.append(Text(f"  why, wrong first choice {choice + 1} ({_students(count)}): {text}", overflow="fold"))
        if x.why_answered:
            parts.append(
                Text(
                    f"  why: {x.why_right_first} of {x.why_answered} right at the first answer; "
                    f"hints: {x.hints_used} taken by {_students(x.students_with_hints)}"
                )
            )
    unmatched = [(s.student, name, reason) for s in students for name, reason in s.unmatched]
    if unmatched:
        parts.append(Text(""))
        parts.append(Text("Files that answer no exercise:", style="bold"))
        for student, name, reason in unmatched:
            parts.append(Text(printable(f"  {student}/{name}: {reason}"), overflow="fold"))
    parts.append(Text(""))
    parts.append(Text(f"confinement: {confinement_words(level)}; each file in a fresh sandbox", style="dim"))
    return Group(*parts)


def _cell(points: float, max_points: float, passed: bool, diagnosis: str) -> str:
    colour = "green" if passed else "dim" if diagnosis == NOT_SUBMITTED else "red"
    return f"[{colour}]{_number(points)}[/]"


def _histogram(diagnoses: tuple[tuple[str, int], ...]) -> Table:
    table = Table(box=None, show_header=False, padding=(0, 1, 0, 2))
    top = max((n for _, n in diagnoses), default=0)
    for diagnosis, count in diagnoses:
        bar = BAR * max(1, round(BAR_WIDTH * count / top))
        table.add_row(diagnosis, f"[red]{bar}[/] {count}")
    return table


# --- Markdown ---------------------------------------------------------------------------------


def class_markdown(course: Course, students: list[StudentGrade], summaries: list[ExerciseSummary], level: dict) -> str:
    """A one-page report of what the class did and misunderstood; no student is named, so it can be shared."""
    totals = [s.points for s in students]
    mean = round(sum(totals) / len(totals), 2) if totals else 0
    out = [
        f"# {course.title}: class report",
        "",
        f"{len(students)} submissions; mean {_number(mean)} of {_number(students[0].max_points) if students else 0} points.",
        "",
        "| exercise | submitted | passed | most common diagnoses of the rest |",
        "| --- | --- | --- | --- |",
    ]
    for x in summaries:
        common = ", ".join(f"{d} ({n})" for d, n in x.diagnoses[:3]) or "-"
        out.append(f"| {x.exercise} | {x.submitted} | {x.passed} | {common} |")
    for x in summaries:
        out += ["", f"## {x.exercise}: {_md(x.title)}", ""]
        if x.diagnoses:
            out += ["Answers that did not pass, by diagnosis:", "", "```"]
            width = max(len(d) for d, _ in x.diagnoses)
            top = max(n for _, n in x.diagnoses)
            out += [f"{d:<{width}}  {BAR * max(1, round(BAR_WIDTH * n / top))} {n}" for d, n in x.diagnoses]
            out += ["```"]
        else:
            out.append("Every answer submitted passed." if x.submitted else "No answers submitted.")
        if x.why_answered:
            out += ["", f"Why question: {x.why_right_first} of {x.why_answered} right at the first answer."]
            for choice, text, count in x.wrong_first_choices:
                out.append(f"- choice {choice + 1}, {_students(count)}: {_md(text)}")
            out.append(f"\nHints: {x.hints_used} taken, by {_students(x.students_with_hints)}.")
    out += ["", f"Checked by attnpos, each file in a fresh sandbox ({confinement_words(level)})."]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


# --- Gradescope -------------------------------------------------------------------------------


def gradescope_results(student: StudentGrade) -> str:
    """Gradescope's results.json for one submission: a test per exercise (code and why together), tagged with the diagnosis."""
    tests = []
    for number, g in enumerate(student.exercises, start=1):
        output = g.message
        if g.why_choice is not None:
            output += f"\n\nWhy question: {'right' if g.why_correct else 'not right yet'}."
        tests.append(
            {
                "name": g.exercise,
                "number": str(number),
                "score": _number(g.points),
                "max_score": _number(g.max_points),
                "status": "passed" if g.passed else "failed",
                "output": output,
                "tags": [g.diagnosis],
                "visibility": "visible",
            }
        )
    notes = [f"{name}: {reason}" for name, reason in student.unmatched]
    results = {
        "score": _number(student.points),
        "output": "Files that answer no exercise:\n" + "\n".join(notes) if notes else "",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }
    return json.dumps(results, indent=1, ensure_ascii=False) + "\n"


# --- GitHub Classroom ---------------------------------------------------------------------------


def classroom_results(student: StudentGrade) -> str:
    """What GitHub Classroom's grading reporter reads from a runner (base64 of this, as the step's ``result`` output):
    its total is the sum of the tests' scores out of ``max_score``, so points, partial credit and the why part are the same as here."""
    tests = [
        {"name": g.exercise, "status": "pass" if g.passed else "fail", "score": _number(g.points), "message": g.message if not g.passed else ""}
        for g in student.exercises
    ]
    results = {
        "version": 1,
        "status": "pass" if all(g.passed for g in student.exercises) else "fail",
        "max_score": _number(student.max_points),
        "tests": tests,
    }
    return json.dumps(results, indent=1, ensure_ascii=False) + "\n"


# --- each student's feedback -------------------------------------------------------------------


class _Feedback(Struct, frozen=True):
    """One exercise of one student's feedback, in words: what both the Markdown and the HTML file say."""

    heading: str
    verdict: str
    message: str
    hints: tuple[str, ...]
    why: tuple[str, ...]


def _feedback(course: Course, grading: Grading, student: StudentGrade) -> list[_Feedback]:
    parts = []
    for g in student.exercises:
        exercise = course.exercises[g.exercise]
        verdict = "passed" if g.passed else f"not yet: {g.diagnosis}"
        verdict += f" ({g.file})" if g.file else ""
        hints = exercise.hints[: g.hints_used or 0]
        why: tuple[str, ...] = ()
        if g.why_choice is not None and 0 <= g.why_choice < len(exercise.why.choices):
            why = (
                exercise.why.question,
                f"Your answer: {exercise.why.choices[g.why_choice]} ({'right' if g.why_correct else 'not right'}"
                + ("" if g.passed or not g.why_correct else "; it counts once the code passes")
                + ")",
                exercise.why.explanations[g.why_choice] if g.why_choice < len(exercise.why.explanations) else "",
            )
        elif grading.why_share:
            why = (exercise.why.question, "No answer handed in (attnpos progress --export FILE, beside the answers).")
        heading = f"{exercise.title} ({g.exercise}): {_number(g.points)} of {_number(g.max_points)} points"
        parts.append(_Feedback(heading, verdict, g.message, hints, tuple(line for line in why if line)))
    return parts


def feedback_markdown(course: Course, grading: Grading, student: StudentGrade) -> str:
    """One student's feedback: each exercise's verdict, message, the hints taken and the why question; nothing of anyone else."""
    out = [f"# {_md(course.title)}: feedback for {_md(student.student)}", "", f"{_number(student.points)} of {_number(student.max_points)} points."]
    for part in _feedback(course, grading, student):
        out += ["", f"## {_md(part.heading)}", "", f"**{_md(part.verdict)}**", "", "```text", part.message.replace("```", "`\u200b``"), "```"]
        if part.hints:
            out += ["", f"Hints used ({len(part.hints)}):", "", *(f"{n}. {_md(hint)}" for n, hint in enumerate(part.hints, start=1))]
        if part.why:
            out += ["", "Why: " + _md(part.why[0]), "", *(f"- {_md(line)}" for line in part.why[1:])]
    if student.unmatched:
        out += ["", "## Files not graded", "", *(f"- `{_md(name)}`: {_md(reason)}" for name, reason in student.unmatched)]
    return "\n".join(out) + "\n"


def feedback_html(course: Course, grading: Grading, student: StudentGrade) -> str:
    """The same feedback as a page a browser or an LMS shows; every text escaped."""
    e = html.escape
    title = f"{course.title}: feedback for {student.student}"
    out = ["<!DOCTYPE html>", '<html lang="en">', '<head><meta charset="utf-8">', f"<title>{e(title)}</title></head>", "<body>"]
    out += [f"<h1>{e(title)}</h1>", f"<p>{_number(student.points)} of {_number(student.max_points)} points.</p>"]
    for part in _feedback(course, grading, student):
        out += [f"<h2>{e(part.heading)}</h2>", f"<p><strong>{e(part.verdict)}</strong></p>", f"<pre>{e(part.message)}</pre>"]
        if part.hints:
            out += [f"<p>Hints used ({len(part.hints)}):</p>", "<ol>", *(f"<li>{e(hint)}</li>" for hint in part.hints), "</ol>"]
        if part.why:
            out += [f"<p>Why: {e(part.why[0])}</p>", "<ul>", *(f"<li>{e(line)}</li>" for line in part.why[1:]), "</ul>"]
    if student.unmatched:
        out += ["<h2>Files not graded</h2>", "<ul>", *(f"<li><code>{e(name)}</code>: {e(reason)}</li>" for name, reason in student.unmatched), "</ul>"]
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def feedback_files(course: Course, grading: Grading, students: list[StudentGrade]) -> dict[str, str]:
    """File name -> text: ``NAME.md`` and ``NAME.html`` per student, NAME made safe for any file system and unique."""
    files: dict[str, str] = {}
    for student in students:
        base = re.sub(r"[^\w.-]+", "_", student.student).strip("._") or "student"
        name, n = base, 1
        while f"{name}.md" in files:
            n += 1
            name = f"{base}-{n}"
        files[f"{name}.md"] = feedback_markdown(course, grading, student)
        files[f"{name}.html"] = feedback_html(course, grading, student)
    return files


# --- JUnit XML --------------------------------------------------------------------------------


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    """Text XML 1.0 can hold: a control character in a student's folder name or output becomes U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def junit_xml(students: list[StudentGrade]) -> str:
    """A testsuite per student, a testcase per exercise; a failure carries the diagnosis, an error a file that could not be checked."""
    root = ElementTree.Element("testsuites", name="attnpos grade-class")
    all_tests = all_failures = all_errors = 0
    for s in students:
        suite = ElementTree.SubElement(root, "testsuite", name=_xml(s.student))
        failures = errors = 0
        for g in s.exercises:
            case = ElementTree.SubElement(suite, "testcase", name=g.exercise, classname=_xml(s.student))
            message = _xml(g.message)
            if g.diagnosis in ("checker-error", "unreadable"):
                errors += 1
                ElementTree.SubElement(case, "error", type=g.diagnosis, message=message).text = message
            elif not g.passed:
                failures += 1
                ElementTree.SubElement(case, "failure", type=g.diagnosis, message=message).text = message
            ElementTree.SubElement(case, "system-out").text = f"points {_number(g.points)} of {_number(g.max_points)}"
        suite.set("tests", str(len(s.exercises)))
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
        all_tests, all_failures, all_errors = all_tests + len(s.exercises), all_failures + failures, all_errors + errors
    root.set("tests", str(all_tests))
    root.set("failures", str(all_failures))
    root.set("errors", str(all_errors))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
