"""Verdicts and the sentences they are told in.

A judge raises :class:`Mistake` with a stable diagnosis id (kept by
``--json``, ``grade`` and CSV) and a *cause*: which case of that diagnosis it
is. The learner's message is the exercise's template for ``diagnosis/cause``
(or for the diagnosis alone) from its ``exercise.toml``, filled with the
mistake's fields and with ``{problem}``, one plain sentence per cause of a
shape or type problem, written once here for every exercise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from msgspec import Struct, field


class ExerciseSpec(Protocol):
    """What the checker needs of an exercise (the course's ExerciseSpec is one): the checker imports nothing of the course."""

    @property
    def id(self) -> str: ...
    @property
    def contract(self) -> str: ...  # the contract that judges it (lessons/checker/contracts)
    @property
    def messages(self) -> Mapping[str, str]: ...  # diagnosis id, or "diagnosis/cause", -> template
    @property
    def advice(self) -> Mapping[str, str]: ...  # an answer's name -> what it should be


# What the learner's own script did, before anything is judged.
RUN_DIAGNOSES = ("missing-name", "bad-type", "bad-shape", "syntax-error", "error", "crash", "timeout", "memory")
# The learner's arrays cannot tell the right computation from a wrong one (an all-zero head, float16): never a pass.
INDISTINCT = "indistinct"
# An exception in the checker's own code: a bug of attnpos, never the learner's fault.
CHECKER_ERROR = "checker-error"
CHECKER_ERROR_MESSAGE = "The checker itself failed on your answer ({error}). This is a bug in attnpos, not in your code: please report it with your script."

PROBLEMS = {
    "bad-type/not-numeric": "`{name}` is a {got}, but a number or a NumPy array is needed.",
    "bad-type/none": "`{name}` is None, what a Python function gives when it ends without returning anything.",
    "bad-type/complex": "`{name}` holds complex numbers, but real numbers are needed.",
    "bad-type/bools": "`{name}` is an array of True/False values, but numbers are needed.",
    "bad-type/not-finite": "`{name}` holds NaN or infinity, which no attention of finite numbers gives.",
    "bad-type/not-bool": "`{name}` is {got}, but True or False is needed.",
    "bad-type/perm-not-indices": "`perm` is {got}, but it must list the token indices 0 … {last}.",
    "bad-shape/ndim": "`{name}` has shape {shape}, but {wanted} is needed.",
    "bad-shape/empty": "`{name}` has shape {shape}, so it holds no numbers at all.",
    "bad-shape/too-large": (
        "`{name}` has shape {shape}, more than the checker recomputes "
        "(up to {limit} numbers in an array, 1,024 tokens of width 1,024, and {work} multiplications for one head)."
    ),
    "bad-shape/too-few-tokens": "`{name}` has shape {shape}, but at least {tokens} tokens are needed.",
    "bad-shape/projection-rows": "`{name}` has shape {shape}, but it projects `{x}`, whose width is {width}, so it needs {width} rows.",
    "bad-shape/key-width": "`Wk` has shape {shape}, but keys must be as wide as the queries: {width} columns, as in `Wq`.",
    "bad-shape/perm-ndim": "`perm` has shape {shape}, but it must list {tokens} token indices (or be a {tokens}×{tokens} permutation matrix).",
    "bad-shape/perm-length": "`perm` has {count} entries, but there are {tokens} tokens.",
    "bad-shape/perm-range": "`perm` holds {value}, but the tokens are numbered 0 … {last}.",
    "bad-shape/perm-repeats": "`perm` lists {repeated} {times} and never {absent}.",
    "bad-shape/perm-matrix": "`perm` is a {tokens}×{tokens} array but not a permutation matrix (a single 1 in every row and column, 0 elsewhere).",
    "bad-shape/perm-identity": "`perm` leaves every token where it is, so there is no shuffle to compare.",
    "bad-shape/offset-broadcast": "`pos` has shape {shape}, which does not broadcast against `{x}` of shape {target}.",
    "bad-shape/output-shape": "`{name}` has shape {shape}, but the attention output of your arrays has shape {wanted}.",
    "bad-shape/not-scalar": "`{name}` has shape {shape}, but a single number is needed.",
    "bad-type/ids-not-whole": "`{name}` is {got}, but token ids are whole numbers.",
    "bad-type/not-whole": "`{name}` is {got}, but a whole number is needed.",
    "bad-shape/ids-range": "`{name}` holds {value}, but the table's rows are numbered 0 … {last}.",
    "bad-shape/whole-range": "`{name}` is {value}, but it must be between {low} and {high}.",
    "bad-shape/array-shape": "`{name}` has shape {shape}, but from your other arrays it should have shape {wanted}.",
    "bad-shape/transposed-table": "`{name}` has shape {shape}, the table's shape turned round: it needs one row per {rows}, shape {wanted}.",
    # Advice for each family of Python error, the same in every exercise (an exercise may say more in its own [messages]).
    "error/import": "A module could not be imported: only NumPy and attnpos are installed where answers run. Use NumPy for everything this needs.",
    "error/index-type": (
        "An array was indexed with numbers that are not whole (floats), which cannot pick rows: "
        "index with an integer array, and check the order of the arguments on that line."
    ),
    "error/own-raise": "Your own raise or assert on that line stopped the script: the condition it checks did not hold.",
    "error/key": "A dictionary was asked for a key it does not hold; check the key's spelling, or set it before that line.",
    "error/type": (
        "A value of the wrong kind was used there (a list where an array is needed, a number called like a function…); print its type just before that line."
    ),
    "error/value": "A function got a value it cannot use; the message below says which.",
    "error/recursion": "A function calls itself without end; give it a case that returns without calling itself, or use a loop.",
    "error/attribute": (
        "That value has no attribute or method by that name; check the spelling, and that it is a NumPy array (np.asarray) where you use an array method."
    ),
    "error/zero-division": "A division by zero; check the divisor on that line.",
    "syntax-error/indent": "The line is indented differently from the lines around it: indent a block's lines alike, with spaces (not tabs).",
    "syntax-error/print": "print is a function in Python 3 (Python 2's print statement is gone): write print(x), with parentheses.",
    "syntax-error/unclosed": "A bracket or quote opened on or before that line is never closed: count them.",
    "syntax-error/colon": "A line that starts a block (if, for, def, with) ends with a colon.",
    "syntax-error/other": "Look at that line and the one before it for a typo: an unclosed bracket or quote, a missing colon or operator.",
    "memory/allocation": "Line {line} asks for one array larger than the run's memory ({error}): these arrays are tiny, so look at the shape you create there.",
    "memory/growing": "Your script used too much memory little by little, and ran out on line {line}: look for a loop that keeps growing something.",
    "memory/killed": "Your script used too much memory, little by little: look for a loop that keeps growing something.",
    "bad-shape/odd-head-width": "`{name}` has shape {shape}: RoPE turns channels in pairs, so the head width must be even.",
    "bad-shape/positions-length": "`positions` has shape {shape}, but it must hold one position for each of the {tokens} tokens.",
    "bad-shape/heads": "`{name}` has shape {shape}, but there are {heads} heads: {wanted} is needed.",
    "bad-shape/pairs": "`{name}` has shape {shape}, but a head of width {hs} has {pairs} channel pairs: ({pairs},) is needed.",
    "bad-type/count": "`{name}` is {got}, but a whole number from {low} to {high} is needed.",
    "bad-value/base": "`{name}` is {got}, but a number greater than 1 is needed.",
    "bad-value/count": "`{name}` is {got}, but a whole number from {low} to {high}{even} is needed.",
    "bad-value/whole-range": "`{name}` is {value}, but it must be between {low} and {high}.",
    "bad-value/odd-width": "`{name}` is {value}, but the channels come in (sine, cosine) pairs, so the width must be even.",
    "changed-input/before-use": (
        "Your script changes `{name}`, an input the starter gives: {where}, {what}. "
        "{fits} Leave `{name}` as it is given, "
        "and make a new array (under another name) where you need a changed one."
    ),
    "bad-shape/twin-slots": "`X` has shape {shape}, but the two copies sit at slots {a} and {b}, so at least {tokens} tokens are needed.",
}


class Mistake(Exception):
    """The first mistake a judge found: its diagnosis id, which case of it, and the particulars."""

    def __init__(self, diagnosis: str, cause: str = "", **fields: object):
        super().__init__(f"{diagnosis}/{cause}" if cause else diagnosis)
        self.diagnosis, self.cause, self.fields = diagnosis, cause, fields


class Passed(Struct, frozen=True):
    """A judge's pass; ``cause`` picks a variant of the pass message (e.g. when the softmax saturated)."""

    cause: str = ""


# Causes whose heading says what the answer did where the diagnosis alone would not: a helper borrowed is no mismatch of figures.
HEADINGS = {"mismatch/borrowed": "borrowed from attnpos", "mismatch/imports-by-name": "code loaded by name"}


class Verdict(Struct, frozen=True):
    """The checker's answer: a stable diagnosis id, the learner-facing message and the particulars."""

    exercise: str
    passed: bool
    diagnosis: str
    message: str
    details: dict = field(default_factory=dict)
    line: int | None = None  # the learner's line to mark, when there is one
    output: str = ""  # what the script printed (capped)
    confinement: dict = field(default_factory=dict)  # the sandbox's level for the run, as RunResult has it

    @property
    def heading(self) -> str:
        """The verdict in a few words for people; the diagnosis id stays for scripts and grade sheets."""
        if self.passed:
            return "✓ passed"
        words = HEADINGS.get(f"{self.diagnosis}/{self.details.get('cause', '')}", self.diagnosis.replace("-", " "))
        return f"✗ not yet: {words}"

    def as_json(self, file: str | None = None) -> dict:
        return {
            "exercise": self.exercise,
            "file": file,
            "passed": self.passed,
            "diagnosis": self.diagnosis,
            "message": self.message,
            "details": self.details,
            "confinement": self.confinement,
        }


def message_key(exercise: ExerciseSpec, diagnosis: str, cause: str = "") -> str:
    """The ``[messages]`` entry that tells this case: ``diagnosis/cause`` if the exercise has one, else ``diagnosis``."""
    specific = f"{diagnosis}/{cause}"
    return specific if cause and specific in exercise.messages else diagnosis


def render(exercise: ExerciseSpec, diagnosis: str, cause: str = "", **fields: object) -> str:
    """The learner's message for a case, every placeholder filled (unknown ones are a content error caught by --check)."""
    text_fields = {key: "" if value is None else str(value) for key, value in fields.items()}
    problem = PROBLEMS.get(f"{diagnosis}/{cause}", "")
    text_fields["problem"] = problem.format_map(_Blank(text_fields))
    text_fields["advice"] = exercise.advice.get(str(fields.get("name", "")), "")
    fallback = CHECKER_ERROR_MESSAGE if diagnosis == CHECKER_ERROR else ""
    template = exercise.messages.get(message_key(exercise, diagnosis, cause), fallback)
    message = " ".join(template.format_map(_Blank(text_fields)).split())
    return message[:1].upper() + message[1:]  # a template may open with a field ("{yours} reorders …")


class _Blank(dict):
    """Formatting fields where a missing one reads as nothing rather than raising."""

    def __missing__(self, key: str) -> str:
        return ""


def shape_text(shape: tuple[int, ...]) -> str:
    """(1, 6, 8), and (6,) for one axis; "a single number" has its own wording elsewhere."""
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def figure_pair(expected: float, got: float, least: int = 3) -> tuple[str, str]:
    """Both figures with as many significant digits as it takes to show that they differ (``least`` at least)."""
    for digits in range(least, 18):
        shown = f"{expected:.{digits}g}", f"{got:.{digits}g}"
        if shown[0] != shown[1]:
            return shown
    return shown
