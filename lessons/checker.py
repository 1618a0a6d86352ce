"""Exercise checking: run the learner's script, read its names, recompute, diagnose.

An answer is a plain Python script. It runs in the sandbox (a fresh,
limited process); the checker reads the names the exercise's contract asks
for, recomputes with attnpos.core what they should be *from the learner's
own arrays* (so a different seed, shape or permutation is fine), and returns
one stable diagnosis id. Checks run from the most fundamental mistake to the
least, so the first that applies is the one reported. Messages live with the
exercise content (``[messages]`` in exercise.toml); this module only decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from attnpos.core import attention_output, is_permutation, permute_tokens, pooled_readout
from attnpos.lessons.model import Exercise
from attnpos.lessons.checking.sandbox import CancelToken, Limits, RunResult, Sandbox

FIGURE_RTOL, FIGURE_ATOL = 1e-6, 1e-9  # a reported number may be rounded a little, not changed
ARRAY_RTOL, ARRAY_ATOL = 1e-7, 1e-9
ROUNDING = 1e-9  # gaps below this are rounding noise

RUN_DIAGNOSES = ("passed", "missing-name", "bad-type", "bad-shape", "syntax-error", "error", "crash", "timeout", "memory")
SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")  # Python could not read the script: nothing ran


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: a stable diagnosis id, the learner-facing message and the particulars."""

    exercise: str
    passed: bool
    diagnosis: str
    message: str
    details: dict = field(default_factory=dict)
    line: int | None = None  # the learner's line to mark, when there is one
    output: str = ""  # what the script printed (capped)

    @property
    def heading(self) -> str:
        """The verdict in a few words for people; the diagnosis id stays for scripts and grade sheets."""
        return "✓ passed" if self.passed else f"✗ not yet: {self.diagnosis.replace('-', ' ')}"

    def as_json(self, file: str | None = None) -> dict:
        return {
            "exercise": self.exercise,
            "file": file,
            "passed": self.passed,
            "diagnosis": self.diagnosis,
            "message": self.message,
            "details": self.details,
        }


class Mistake(Exception):
    """Raised by a contract's judge: the first mistake found, with what it concerns."""

    def __init__(self, diagnosis: str, name: str = "", expected: str = "", got: str = ""):
        super().__init__(diagnosis)
        self.diagnosis, self.name, self.expected, self.got = diagnosis, name, expected, got


# --- reading the learner's values --------------------------------------------


def _describe(value: np.ndarray) -> str:
    if value.ndim == 0:
        return f"{value.item()!r}"
    return f"an array of shape {value.shape}"


def real_array(values: dict, name: str, ndim: tuple[int, ...] | None = None) -> np.ndarray:
    """The named value as finite float64, or a Mistake naming what is wrong with it."""
    value = values[name]
    if np.iscomplexobj(value):
        raise Mistake("bad-type", name, "real numbers", "complex numbers")
    if value.dtype == bool and ndim is not None and 0 not in ndim:
        raise Mistake("bad-type", name, "a numeric array", "an array of bools")
    if ndim is not None and value.ndim not in ndim:
        wanted = " or ".join(f"{n}-D" for n in ndim)
        raise Mistake("bad-shape", name, f"a {wanted} array", f"shape {value.shape}")
    if value.size == 0:
        raise Mistake("bad-shape", name, "a non-empty array", f"shape {value.shape}")
    array = value.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise Mistake("bad-type", name, "finite numbers", "NaN or infinity")
    return array


def scalar(values: dict, name: str) -> float:
    value = real_array(values, name)
    if value.size != 1:
        raise Mistake("bad-shape", name, "a single number", f"shape {value.shape}")
    return float(value.reshape(()))


def boolean(values: dict, name: str) -> bool:
    value = values[name]
    if value.dtype != bool or value.size != 1:
        raise Mistake("bad-type", name, "True or False", _describe(value) if value.dtype != bool else f"shape {value.shape}")
    return bool(value.reshape(()))


def figure_matches(got: float, expected: float) -> bool:
    if expected < ROUNDING:
        return got < ROUNDING * 10 and got >= 0
    return bool(np.isclose(got, expected, rtol=FIGURE_RTOL, atol=FIGURE_ATOL))


def arrays_match(got: np.ndarray, expected: np.ndarray) -> bool:
    return got.shape == expected.shape and bool(np.allclose(got, expected, rtol=ARRAY_RTOL, atol=ARRAY_ATOL))


def _fmt(x: float) -> str:
    return f"{x:.3g}"


# --- the setup every exercise shares --------------------------------------------


@dataclass
class Head:
    X: np.ndarray  # (B, T, C) or (T, C)
    Wq: np.ndarray
    Wk: np.ndarray
    Wv: np.ndarray

    def attend(self, X: np.ndarray) -> np.ndarray:
        return attention_output(X, self.Wq, self.Wk, self.Wv)


def read_head(values: dict, x_name: str = "X", ndim: tuple[int, ...] = (3,)) -> Head:
    X = real_array(values, x_name, ndim)
    C = X.shape[-1]
    weights = [real_array(values, w, (2,)) for w in ("Wq", "Wk", "Wv")]
    for name, W in zip(("Wq", "Wk", "Wv"), weights):
        if W.shape[0] != C:
            raise Mistake("bad-shape", name, f"({C}, …) to project {x_name}'s width {C}", f"shape {W.shape}")
    if weights[0].shape[1] != weights[1].shape[1]:
        raise Mistake("bad-shape", "Wk", f"as many columns as Wq ({weights[0].shape[1]})", f"shape {weights[1].shape}")
    if X.shape[-2] < 2:
        raise Mistake("bad-shape", x_name, "at least two tokens", f"shape {X.shape}")
    return Head(X, *weights)


def read_perm(values: dict, T: int) -> np.ndarray:
    perm = values["perm"]
    if perm.dtype.kind not in "iu" and not (perm.dtype.kind == "f" and np.all(np.mod(perm, 1) == 0)):
        raise Mistake("bad-type", "perm", f"a permutation of 0 … {T - 1}", _describe(perm))
    perm = perm.astype(np.int64)
    if not is_permutation(perm, T):
        raise Mistake("bad-shape", "perm", f"a permutation of 0 … {T - 1}", _describe(perm))
    if np.array_equal(perm, np.arange(T)):
        raise Mistake("bad-shape", "perm", "a shuffle that moves at least one token", "the identity")
    return perm


def read_offset(values: dict, shape: tuple[int, ...]) -> np.ndarray:
    """pos broadcast to X's shape (a scalar or a per-channel vector is fine)."""
    pos = real_array(values, "pos")
    try:
        return np.broadcast_to(pos, shape)
    except ValueError:
        raise Mistake("bad-shape", "pos", f"something that broadcasts to {shape}", f"shape {pos.shape}") from None


def slot(array: np.ndarray, t: int) -> np.ndarray:
    return array[..., t, :]


def expect_array(name: str, got: np.ndarray, expected: np.ndarray) -> None:
    if got.shape != expected.shape:
        raise Mistake("bad-shape", name, f"shape {expected.shape}", f"shape {got.shape}")
    if not arrays_match(got, expected):
        worst = float(np.max(np.abs(got - expected)))
        raise Mistake("mismatch", name, "the attention output of your arrays", f"values off by up to {_fmt(worst)}")


# --- the contracts ---------------------------------------------------------------


def judge_forget_reorder(values: dict) -> None:
    head = read_head(values)
    perm = read_perm(values, head.X.shape[-2])
    out, out_perm = real_array(values, "out"), real_array(values, "out_perm")
    naive_diff = scalar(values, "naive_diff")
    expected_out = head.attend(head.X)
    if out.shape == expected_out.shape and arrays_match(out, permute_tokens(expected_out, perm)) and not arrays_match(out, expected_out):
        raise Mistake("wrong-comparison", "out", "the output of X as it is", "the output reordered by perm")
    expect_array("out", out, expected_out)
    expect_array("out_perm", out_perm, head.attend(permute_tokens(head.X, perm)))
    naive = float(np.max(np.abs(out_perm - out)))
    reordered = float(np.max(np.abs(out_perm - permute_tokens(out, perm))))
    if not figure_matches(naive_diff, naive):
        if figure_matches(naive_diff, reordered):
            raise Mistake("wrong-comparison", "naive_diff", _fmt(naive), _fmt(naive_diff))
        raise Mistake("mismatch", "naive_diff", _fmt(naive), _fmt(naive_diff))


def judge_constant_offset(values: dict) -> None:
    head = read_head(values)
    perm = read_perm(values, head.X.shape[-2])
    pos = read_offset(values, head.X.shape)
    max_diff = scalar(values, "max_diff")
    if np.all(pos == 0):
        raise Mistake("zero-offset", "pos")
    first = slot(pos, 0)[..., None, :]
    if not np.allclose(pos, first, rtol=0, atol=1e-12):
        raise Mistake("offset-varies", "pos")
    shuffled = head.attend(permute_tokens(head.X, perm) + pos)
    in_order = head.attend(head.X + pos)
    gap = float(np.max(np.abs(shuffled - permute_tokens(in_order, perm))))
    if figure_matches(max_diff, gap):
        return
    if figure_matches(max_diff, float(np.max(np.abs(shuffled - in_order)))):
        raise Mistake("wrong-comparison", "max_diff", _fmt(gap), _fmt(max_diff))
    raise Mistake("mismatch", "max_diff", _fmt(gap), _fmt(max_diff))


TWIN_SLOTS = (0, 4)


def judge_identical_tokens(values: dict) -> None:
    head = read_head(values)
    a, b = TWIN_SLOTS
    if head.X.shape[-2] <= b:
        raise Mistake("bad-shape", "X", f"at least {b + 1} tokens", f"shape {head.X.shape}")
    if not np.array_equal(slot(head.X, a), slot(head.X, b)):
        raise Mistake("tokens-differ", "X")
    pos = read_offset(values, head.X.shape)
    out = real_array(values, "out")
    identical = boolean(values, "identical")
    if np.allclose(slot(pos, a), slot(pos, b), rtol=0, atol=1e-12):
        raise Mistake("zero-offset" if np.all(pos == 0) else "same-offset", "pos")
    expected = head.attend(head.X + pos)
    late = head.attend(head.X) + pos
    if out.shape == expected.shape and not arrays_match(out, expected) and arrays_match(out, late):
        raise Mistake("added-after-attention", "out")
    expect_array("out", out, expected)
    truth = bool(np.allclose(slot(out, a), slot(out, b)))
    if identical != truth:
        raise Mistake("wrong-verdict", "identical", str(truth), str(identical))


def judge_order_checks(values: dict) -> None:
    head = read_head(values, "X_a", ndim=(2, 3))
    perm = read_perm(values, head.X.shape[-2])
    X_b = permute_tokens(head.X, perm)
    out_a, out_b = real_array(values, "out_a"), real_array(values, "out_b")
    relist_gap, pooled_gap = scalar(values, "relist_gap"), scalar(values, "pooled_gap")
    pos = read_offset(values, head.X.shape)
    pooled_gap_pos = scalar(values, "pooled_gap_pos")
    expect_array("out_a", out_a, head.attend(head.X))
    expect_array("out_b", out_b, head.attend(X_b))

    relist = float(np.max(np.abs(out_b - permute_tokens(out_a, perm))))
    if not figure_matches(relist_gap, relist):
        unreordered = float(np.max(np.abs(out_b - out_a)))
        kind = "wrong-comparison" if figure_matches(relist_gap, unreordered) else "mismatch"
        raise Mistake(kind, "relist_gap", _fmt(relist), _fmt(relist_gap))
    pooled = float(np.max(np.abs(pooled_readout(out_b) - pooled_readout(out_a))))
    if not figure_matches(pooled_gap, pooled):
        raise Mistake("mismatch", "pooled_gap", _fmt(pooled), _fmt(pooled_gap))

    if np.all(pos == 0):
        raise Mistake("zero-offset", "pos")
    if np.allclose(pos, slot(pos, 0)[..., None, :], rtol=0, atol=1e-12):
        raise Mistake("same-offset", "pos")
    with_pos = float(np.max(np.abs(pooled_readout(head.attend(X_b + pos)) - pooled_readout(head.attend(head.X + pos)))))
    if figure_matches(pooled_gap_pos, with_pos):
        return
    late = float(np.max(np.abs(pooled_readout(head.attend(X_b) + pos) - pooled_readout(head.attend(head.X) + pos))))
    if figure_matches(pooled_gap_pos, late):
        raise Mistake("added-after-attention", "pooled_gap_pos", _fmt(with_pos), _fmt(pooled_gap_pos))
    raise Mistake("mismatch", "pooled_gap_pos", _fmt(with_pos), _fmt(pooled_gap_pos))


@dataclass(frozen=True)
class Contract:
    """The names an exercise's answer must define, how to judge them, and every diagnosis it can give."""

    names: tuple[str, ...]
    judge: Callable[[dict], None]
    diagnoses: tuple[str, ...]


CONTRACTS: dict[str, Contract] = {
    "forget-reorder": Contract(
        ("X", "Wq", "Wk", "Wv", "perm", "out", "out_perm", "naive_diff"),
        judge_forget_reorder,
        RUN_DIAGNOSES + ("wrong-comparison", "mismatch"),
    ),
    "constant-offset": Contract(
        ("X", "Wq", "Wk", "Wv", "perm", "pos", "max_diff"),
        judge_constant_offset,
        RUN_DIAGNOSES + ("zero-offset", "offset-varies", "wrong-comparison", "mismatch"),
    ),
    "identical-tokens": Contract(
        ("X", "Wq", "Wk", "Wv", "pos", "out", "identical"),
        judge_identical_tokens,
        RUN_DIAGNOSES + ("tokens-differ", "zero-offset", "same-offset", "added-after-attention", "mismatch", "wrong-verdict"),
    ),
    "order-checks": Contract(
        ("X_a", "Wq", "Wk", "Wv", "perm", "out_a", "out_b", "relist_gap", "pooled_gap", "pos", "pooled_gap_pos"),
        judge_order_checks,
        RUN_DIAGNOSES + ("wrong-comparison", "mismatch", "zero-offset", "same-offset", "added-after-attention"),
    ),
}


# --- from a run to a verdict --------------------------------------------------------


def _message(exercise: Exercise, diagnosis: str, **fields: object) -> str:
    template = exercise.messages.get(diagnosis, "")
    try:
        return template.format(**{k: ("" if v is None else v) for k, v in fields.items()})
    except (KeyError, IndexError, ValueError):
        return template


def judge_run(exercise: Exercise, run: RunResult) -> Verdict:
    """Turn a finished run into a verdict, most fundamental mistake first."""
    contract = CONTRACTS[exercise.id]

    def verdict(diagnosis: str, line: int | None = None, **details: object) -> Verdict:
        message = _message(exercise, diagnosis, line=line, **details)
        clean = {k: v for k, v in details.items() if v not in (None, "")}
        return Verdict(exercise.id, diagnosis == "passed", diagnosis, message, clean, line, run.stdout)

    if run.status == "timeout":
        return verdict("timeout", detail=run.detail)
    if run.status == "memory":
        return verdict("memory", detail=run.detail)
    if run.status in ("crash", "cancelled"):
        return verdict("crash", detail=run.detail, signal=run.signal, exit_code=run.exit_code)
    if run.status == "error" and run.error is not None:
        error = run.error
        diagnosis = "syntax-error" if error.type in SYNTAX_ERRORS else "error"
        return verdict(diagnosis, line=error.line, error=f"{error.type}: {error.message}", source_line=error.source_line)
    for name in contract.names:
        if name in run.missing:
            return verdict("missing-name", name=name)
        if name in run.bad_types:
            return verdict("bad-type", name=name, expected="a number, a bool or a numeric array", got=run.bad_types[name])
    try:
        with np.errstate(all="ignore"):
            contract.judge(run.values)
    except Mistake as mistake:
        return verdict(mistake.diagnosis, name=mistake.name, expected=mistake.expected, got=mistake.got)
    except (ValueError, TypeError, FloatingPointError, MemoryError, IndexError) as error:
        # Arrays too odd to recompute with (ragged, absurdly large): a shape problem, never a crash of the checker.
        return verdict("bad-shape", name="", expected="arrays the course's setup could produce", got=f"{type(error).__name__}: {error}")
    return verdict("passed")


def check_source(exercise: Exercise, source: str, sandbox: Sandbox, limits: Limits = Limits(), cancel: CancelToken | None = None, filename: str = "answer.py") -> Verdict:
    run = sandbox.run_source(source, CONTRACTS[exercise.id].names, limits, filename=filename, cancel=cancel)
    return judge_run(exercise, run)


def check_file(exercise: Exercise, path: Path, sandbox: Sandbox, limits: Limits = Limits(), cancel: CancelToken | None = None) -> Verdict:
    run = sandbox.run(Path(path), CONTRACTS[exercise.id].names, limits, cancel=cancel)
    return judge_run(exercise, run)


def exercise_problems(exercises: dict[str, Exercise], sandbox: Sandbox) -> list[str]:
    """What `attnpos lessons --check` says of the exercises: contracts, messages, solutions, starters."""
    problems = []
    for exercise in exercises.values():
        where = f"{exercise.folder.name}/"
        contract = CONTRACTS.get(exercise.id)
        if contract is None:
            problems.append(f"{where}exercise.toml: no checker contract for exercise {exercise.id!r}")
            continue
        for diagnosis in contract.diagnoses:
            if diagnosis not in exercise.messages:
                problems.append(f"{where}exercise.toml: no message for the diagnosis {diagnosis!r}")
        for diagnosis in exercise.messages:
            if diagnosis not in contract.diagnoses:
                problems.append(f"{where}exercise.toml: message for {diagnosis!r}, which this exercise never gives")
        solved = check_source(exercise, exercise.solution, sandbox, filename="solution.py")
        if not solved.passed:
            problems.append(f"{where}solution.py does not pass its checker: {solved.diagnosis}: {solved.message}")
        started = check_source(exercise, exercise.starter, sandbox, filename="starter.py")
        if started.passed:
            problems.append(f"{where}starter.py already passes; it should leave the learner something to do")
    return problems
