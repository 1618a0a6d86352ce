"""The checker of lessons 8–10's exercises (rope, alibi, context-extension): right answers in many styles pass.

Every diagnosis each exercise can give is reached by a script in its
mistakes/ folder (tests/checker/test_checker.py runs them all); here, answers a
teacher would accept must pass, and a few wrong ones that imitate right
ones must not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attnpos.lessons.checker import Limits
from attnpos.lessons.course.loader import load_course

EXERCISES = Path(__file__).resolve().parents[2] / "lessons" / "content" / "exercises"
LIMITS = Limits(memory_mb=768)  # the checker's own time limit: see test_checker.LIMITS


def solution(exercise_id: str) -> str:
    return (EXERCISES / exercise_id / "solution.py").read_text(encoding="utf-8")


def edited(exercise_id: str, *edits: tuple[str, str]) -> str:
    source = solution(exercise_id)
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new, 1)
    return source


BIAS = "bias = np.where(j <= i, -m * distance, -np.inf)"
SLOPES = "slopes = np.array(get_slopes(n_heads))"
BASE_NTK = "base_ntk = rope_theta * factor ** (hs / (hs - 2))"
# the twelve slopes as printed to seven and to five significant digits
TYPED_SLOPES_7 = "[0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625, 0.7071068, 0.3535534, 0.1767767, 0.08838835]"
ROTATED = "q = apply_rope(X @ Wq, positions)\nk = apply_rope(X @ Wk, positions)"

ROPE_SETUP = """
import numpy as np
rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)
hs = Wq.shape[1]
"""

RIGHT = {
    "rope": [
        solution("rope"),
        # float32 throughout, einsum and a hand-written softmax
        ROPE_SETUP
        + """
X, Wq, Wk, Wv = (a.astype(np.float32) for a in (X, Wq, Wk, Wv))
inv_freq = (1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)).astype(np.float32)
angles = np.einsum("t,f->tf", positions.astype(np.float32), inv_freq)
cos = np.cos(np.concatenate([angles, angles], -1))
sin = np.sin(np.concatenate([angles, angles], -1))
def rot(x):
    x1, x2 = x[:, :hs // 2], x[:, hs // 2:]
    return x * cos + np.concatenate([-x2, x1], -1) * sin
q, k, v = rot(X @ Wq), rot(X @ Wk), X @ Wv
s = q @ k.T / np.float32(np.sqrt(hs))
w = np.exp(s - s.max(-1, keepdims=True))
out = (w / w.sum(-1, keepdims=True)) @ v
""",
        # complex numbers on the half-split pairs (i, i + hs/2), a batch axis of one
        ROPE_SETUP
        + """
from attnpos.core import softmax
X = X[None]
inv_freq = rope_theta ** (-np.arange(0, hs, 2) / hs)
turn = np.exp(1j * positions[:, None] * inv_freq[None, :])
def rot(x):
    z = (x[..., :hs // 2] + 1j * x[..., hs // 2:]) * turn
    return np.concatenate([z.real, z.imag], axis=-1)
q, k = rot(X @ Wq), rot(X @ Wk)
out = softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(hs)) @ (X @ Wv)
""",
        # positions as a list, a loop over tokens
        ROPE_SETUP
        + """
import math
from attnpos.core import softmax
positions = list(positions)  # a plain list of the given slots
def rot(row, m):
    out = row.copy()
    for i in range(hs // 2):
        a, b = row[i], row[i + hs // 2]
        angle = m * rope_theta ** (-2 * i / hs)
        out[i] = a * math.cos(angle) - b * math.sin(angle)
        out[i + hs // 2] = a * math.sin(angle) + b * math.cos(angle)
    return out
q = np.array([rot(r, m) for r, m in zip(X @ Wq, positions)])
k = np.array([rot(r, m) for r, m in zip(X @ Wk, positions)])
out = softmax(q @ k.T / math.sqrt(hs)) @ (X @ Wv)
""",
    ],
    "alibi": [
        solution("alibi"),
        # computed slopes rounded to seven significant digits (values.REPORTED_DIGITS), the bias and weights built on them
        edited("alibi", (SLOPES, SLOPES + "\nslopes = np.array([float(f'{s:.7g}') for s in slopes])")),
        # the official +m·j shortcut, with the mask
        edited("alibi", (BIAS, "bias = np.where(j <= i, m * j, -np.inf)")),
        # a large negative number instead of −inf, float32
        edited(
            "alibi",
            (BIAS, "bias = np.where(j <= i, -m * distance, -1e9).astype(np.float32)"),
            ("weights = softmax(scores + bias)", "weights = softmax(scores.astype(np.float32) + bias)"),
        ),
        # loops, a triangular mask added separately, own softmax
        """
import math
import numpy as np
n_heads = 12
T = 7
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))
def slopes_for(n):
    if n & (n - 1) == 0:
        return [2 ** (-8 * (h + 1) / n) for h in range(n)]
    p = 2 ** int(math.log2(n))
    return slopes_for(p) + slopes_for(2 * p)[::2][: n - p]
slopes = np.array(slopes_for(n_heads))
bias = np.zeros((n_heads, T, T))
for h in range(n_heads):
    for i in range(T):
        for j in range(T):
            bias[h, i, j] = -slopes[h] * (i - j) if j <= i else -np.inf
z = scores + bias
e = np.exp(z - z.max(axis=-1, keepdims=True))
weights = e / e.sum(axis=-1, keepdims=True)
""",
    ],
    "context-extension": [
        solution("context-extension"),
        # base_ntk computed, then rounded to seven significant digits, and the frequencies built on it
        edited("context-extension", (BASE_NTK, f"base_ntk = float(f'{{{BASE_NTK.split(' = ')[1]}:.7g}}')")),
        # float32, the exponent written with logs, positions scaled explicitly
        """
import numpy as np
hs = 128
rope_theta = 10000.0
factor = 4.0
inv_freq = (1.0 / rope_theta ** (np.arange(0, hs, 2, dtype=np.float32) / hs)).astype(np.float32)
inv_freq_pi = (inv_freq * (1 / factor)).astype(np.float32)
base_ntk = float(np.exp(np.log(rope_theta) + hs / (hs - 2) * np.log(factor)))
inv_freq_ntk = (1.0 / base_ntk ** (np.arange(0, hs, 2) / hs)).astype(np.float32)
for name, ratio in (("PI", inv_freq_pi / inv_freq), ("NTK", inv_freq_ntk / inv_freq)):
    print(name, ratio[0], ratio[-1])
""",
    ],
}

WRONG = [
    # the course's own functions where the brief asks for them written (issue 35): borrowed, not passed
    (
        "rope",
        ROPE_SETUP
        + """
from attnpos.core import attend, rope_rotate
q = rope_rotate(X @ Wq, positions, pairing="half")
k = rope_rotate(X @ Wk, positions, pairing="half")
out = attend(q, k, X @ Wv).out
""",
        "mismatch",
    ),
    (
        "alibi",
        """
import numpy as np
from attnpos.core import alibi_bias, alibi_slopes, softmax
n_heads = 12
T = 7
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))
slopes = alibi_slopes(n_heads)
bias = alibi_bias(n_heads, T)
weights = softmax(scores + bias)
""",
        "mismatch",
    ),
    (
        "context-extension",
        """
from attnpos.core import rope_inv_freq
from attnpos.core.extension import ntk_base, pi_inv_freq
hs = 128
rope_theta = 10000.0
factor = 4.0
inv_freq = rope_inv_freq(hs, rope_theta)
inv_freq_pi = pi_inv_freq(inv_freq, factor)
base_ntk = ntk_base(rope_theta, factor, hs)
inv_freq_ntk = rope_inv_freq(hs, base_ntk)
""",
        "mismatch",
    ),
    # q and k rotated by a range of their own, not by `positions`: they do not follow the moved positions
    (
        "rope",
        edited(
            "rope",
            ("positions = np.arange(6)              # the slot of each token", "positions = np.arange(6)\nfixed = np.arange(6)"),
            (ROTATED, "q = apply_rope(X @ Wq, fixed)\nk = apply_rope(X @ Wk, fixed)"),
        ),
        "mismatch",
    ),
    ("alibi", edited("alibi", ("slopes = np.array(get_slopes(n_heads))", "slopes = np.array(get_slopes(12))")), "mismatch"),
    ("context-extension", edited("context-extension", ("inv_freq_pi = inv_freq / factor", "inv_freq_pi = inv_freq / 4.0")), "mismatch"),
    # fewer digits than seven is a figure copied by eye, not a computed one
    ("alibi", edited("alibi", (SLOPES, SLOPES + "\nslopes = np.array([float(f'{s:.5g}') for s in slopes])")), "mismatch"),
    ("context-extension", edited("context-extension", (BASE_NTK, f"base_ntk = float(f'{{{BASE_NTK.split(' = ')[1]}:.5g}}')")), "mismatch"),
]


@pytest.mark.parametrize(
    "exercise_id, source",
    [
        # typed to seven digits, they pass the first run and cannot follow the rerun's inputs
        ("alibi", edited("alibi", (SLOPES, f"slopes = np.array({TYPED_SLOPES_7})"))),
        ("context-extension", edited("context-extension", (BASE_NTK, "base_ntk = 40889.94"))),
    ],
)
def test_figures_typed_to_seven_digits_are_told_they_are_typed(course, checker, exercise_id, source):
    verdict = checker.check(course.exercises[exercise_id], source, limits=LIMITS)
    assert (verdict.diagnosis, verdict.details.get("cause")) == ("mismatch", "typed"), verdict.message
    assert "rather than typing" in verdict.message, verdict.message


@pytest.fixture(scope="module")
def course():
    return load_course()


@pytest.mark.parametrize("exercise_id, source", [(e, s) for e, sources in RIGHT.items() for s in sources])
def test_right_answers_pass(course, checker, exercise_id, source):
    verdict = checker.check(course.exercises[exercise_id], source, limits=LIMITS)
    assert verdict.diagnosis == "passed", (verdict.message, verdict.details)


@pytest.mark.parametrize("exercise_id, source, diagnosis", WRONG, ids=[f"{w[0]}-{w[2]}-{i}" for i, w in enumerate(WRONG)])
def test_imitations_get_their_diagnosis(course, checker, exercise_id, source, diagnosis):
    verdict = checker.check(course.exercises[exercise_id], source, limits=LIMITS)
    assert verdict.diagnosis == diagnosis, (verdict.message, verdict.details)


def test_the_shortcut_with_its_mask_is_told_so(course, checker):
    source = edited("alibi", (BIAS, "bias = np.where(j <= i, m * j, -np.inf)"))
    verdict = checker.check(course.exercises["alibi"], source, limits=LIMITS)
    assert verdict.passed and verdict.details.get("cause") == "shortcut", verdict.message
    assert "shortcut" in verdict.message
