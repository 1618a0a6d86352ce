"""Reading a learner's values, and how closely they must agree with the checker's.

Every reader returns float64 (or int) NumPy data, or raises a :class:`Mistake`
whose *cause* names what is wrong, so that each case gets a sentence of its
own. Tolerances follow the learner's precision: a float32 answer is judged by
float32's rounding, not float64's.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from msgspec import Struct

from attnpos.core import attention_output, is_permutation
from attnpos.lessons.checker.verdicts import Mistake, shape_text

# The checker recomputes attention on the learner's arrays, in this process; beyond this it would cost
# seconds and gigabytes, and no exercise needs more than a few tokens. Counted in elements, whatever the
# dtype (every array is judged as float64), and as a product of the shape, never one axis at a time.
ANSWER_MAX_TOKENS, ANSWER_MAX_WIDTH, ANSWER_MAX_BATCH = 1024, 1024, 64
MAX_ELEMENTS = 1 << 20  # in any one array the judge reads: 8 MB as float64
MAX_ATTENTION_WORK = 1 << 26  # multiply-adds of one head on the learner's X: about 0.1 s of NumPy

Values = Mapping[str, np.ndarray]  # an answer's names as the sandbox read them


def describe(value: np.ndarray) -> str:
    """A value as a learner would recognise it: the number itself, or the shape of the array."""
    if value.ndim == 0:
        return repr(value.item())
    return f"an array of shape {shape_text(value.shape)}"


def real_array(values: Values, name: str, ndim: tuple[int, ...] | None = None) -> np.ndarray:
    """The named value as finite float64."""
    value = values[name]
    if np.iscomplexobj(value):
        raise Mistake("bad-type", "complex", name=name)
    if value.dtype == bool and ndim is not None and 0 not in ndim:
        raise Mistake("bad-type", "bools", name=name)
    if ndim is not None and value.ndim not in ndim:
        raise Mistake("bad-shape", "ndim", name=name, shape=shape_text(value.shape), wanted=_dimensions(ndim))
    if value.size == 0:
        raise Mistake("bad-shape", "empty", name=name, shape=shape_text(value.shape))
    array = value.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise Mistake("bad-type", "not-finite", name=name)
    return array


def too_large(name: str, shape: tuple[int, ...]) -> Mistake:
    """The judge's own budget: more elements, or more attention work, than it recomputes."""
    return Mistake("bad-shape", "too-large", name=name, shape=shape_text(shape), limit=f"{MAX_ELEMENTS:,}", work=f"{MAX_ATTENTION_WORK:,}")


def _dimensions(ndim: tuple[int, ...]) -> str:
    words = {0: "a single number", 1: "a vector", 2: "a 2-D array", 3: "a 3-D array"}
    return " or ".join(words.get(n, f"a {n}-D array") for n in ndim)


def count(values: Values, name: str, low: int, high: int, even: bool = False) -> int:
    """The named value as a whole number in [low, high] (even if asked).

    Not a whole number (NaN included) is bad-type/count; a whole number
    outside the range, or odd where pairs are needed, is bad-value/count.
    """
    value = values[name]
    number = value.reshape(-1)[0] if value.size == 1 and value.dtype.kind in "iuf" else None
    if number is None or not np.isfinite(number) or number != int(number):
        raise Mistake("bad-type", "count", name=name, got=describe(value), low=low, high=high)
    if (even and number % 2) or not low <= number <= high:
        raise Mistake("bad-value", "count", name=name, got=describe(value), low=low, high=high, even=" and even" if even else "")
    return int(number)


def scalar(values: Values, name: str) -> float:
    value = real_array(values, name)
    if value.size != 1:
        raise Mistake("bad-shape", "not-scalar", name=name, shape=shape_text(value.shape))
    return float(value.reshape(()))


def boolean(values: Values, name: str) -> bool:
    value = values[name]
    if value.dtype != bool:
        raise Mistake("bad-type", "not-bool", name=name, got=describe(value))
    if value.size != 1:
        raise Mistake("bad-shape", "not-scalar", name=name, shape=shape_text(value.shape))
    return bool(value.reshape(()))


# Beside a run's names, the judging puts an empty array of the narrowest float type the script's source names
# (np.float32, "f4", np.half: lessons/checker/rerun.py's names_float), when it names one. Angles computed in
# float32 leave q a float64 array all the same, with float32's rounding in it: the learner's precision is that of
# the narrowest type the script computes in, which its arrays' dtypes alone do not always show.
COMPUTED_IN = "(computed in)"


def dtype_roundoff(values: Values, names: tuple[str, ...]) -> float:
    """Unit roundoff of the least precise floating type among the named values and the type the script computes in
    (``COMPUTED_IN``); float64's if none is float."""
    precisions = [np.finfo(values[n].dtype).eps / 2 for n in (*names, COMPUTED_IN) if n in values and values[n].dtype.kind in "fc"]
    return max(precisions, default=np.finfo(np.float64).eps / 2)


# --- the head every exercise shares ---------------------------------------------


class Head(Struct, frozen=True):
    """The learner's tokens and projections, checked for shape, in float64."""

    X: np.ndarray  # (B, T, C) or (T, C)
    Wq: np.ndarray  # (C, hs)
    Wk: np.ndarray  # (C, hs)
    Wv: np.ndarray  # (C, hv)

    @property
    def tokens(self) -> int:
        return self.X.shape[-2]

    def attend(self, X: np.ndarray) -> np.ndarray:
        """The head's outputs for tokens X: (B, T, hv) or (T, hv)."""
        return attention_output(X, self.Wq, self.Wk, self.Wv)

    def attend_unscaled(self, X: np.ndarray) -> np.ndarray:
        """The outputs of a head that leaves out the 1/√d_k on its scores (an own head's commonest slip)."""
        return attention_output(X, self.Wq, self.Wk, self.Wv, scale=1.0)

    def unscaled_mistake(self, name: str, got: np.ndarray, X: np.ndarray, tolerance: float) -> Mistake | None:
        """``mismatch/unscaled`` when ``got`` is what the unscaled head gives on X (and the scale matters: d_k > 1)."""
        width = self.Wq.shape[1]
        if width > 1 and got.shape == self.attend(X).shape and float(np.max(np.abs(got - self.attend_unscaled(X)))) <= tolerance:
            return Mistake("mismatch", "unscaled", name=name, width=width)
        return None


def read_head(values: Values, x_name: str = "X", ndim: tuple[int, ...] = (3,), min_tokens: int = 2) -> Head:
    X = real_array(values, x_name, ndim)
    if X.shape[-2] > ANSWER_MAX_TOKENS or X.shape[-1] > ANSWER_MAX_WIDTH or X.size // (X.shape[-2] * X.shape[-1]) > ANSWER_MAX_BATCH:
        raise too_large(x_name, X.shape)
    if X.shape[-2] < min_tokens:
        raise Mistake("bad-shape", "too-few-tokens", name=x_name, shape=shape_text(X.shape), tokens=min_tokens)
    C = X.shape[-1]
    weights = {w: real_array(values, w, (2,)) for w in ("Wq", "Wk", "Wv")}
    for name, W in weights.items():
        if W.shape[0] != C:
            raise Mistake("bad-shape", "projection-rows", name=name, shape=shape_text(W.shape), x=x_name, width=C)
        if W.shape[1] > ANSWER_MAX_WIDTH:
            raise too_large(name, W.shape)
    T, hs, hv = X.shape[-2], weights["Wq"].shape[1], weights["Wv"].shape[1]
    if X.size * (2 * hs + hv) + (X.size // C) * T * (hs + hv) > MAX_ATTENTION_WORK:  # projections, scores, mixing
        raise too_large(x_name, X.shape)
    if weights["Wk"].shape[1] != weights["Wq"].shape[1]:
        raise Mistake("bad-shape", "key-width", name="Wk", shape=shape_text(weights["Wk"].shape), width=weights["Wq"].shape[1])
    return Head(X, weights["Wq"], weights["Wk"], weights["Wv"])


def read_perm(values: Values, T: int) -> tuple[np.ndarray, ...]:
    """The shuffle as index arrays: one for a list of indices, two for a permutation matrix.

    A matrix P can shuffle as ``P @ X`` (index k ← argmax of row k) or as
    ``P.T @ X``; both readings are returned, and the judge takes the one the
    learner's figures agree with.
    """
    perm = values["perm"]
    if perm.ndim == 2 and perm.shape == (T, T):
        return _matrix_readings(perm, T)
    if perm.dtype.kind == "b" or (perm.dtype.kind not in "iu" and not (perm.dtype.kind == "f" and np.all(np.mod(perm, 1) == 0))):
        raise Mistake("bad-type", "perm-not-indices", name="perm", got=describe(perm), last=T - 1)
    if perm.ndim != 1:
        raise Mistake("bad-shape", "perm-ndim", name="perm", shape=shape_text(perm.shape), tokens=T)
    indices = perm.astype(np.int64)
    if indices.size != T:
        raise Mistake("bad-shape", "perm-length", name="perm", count=indices.size, tokens=T)
    outside = [int(i) for i in indices if not 0 <= i < T]
    if outside:
        raise Mistake("bad-shape", "perm-range", name="perm", value=outside[0], last=T - 1)
    if not is_permutation(indices, T):
        counts = np.bincount(indices, minlength=T)
        raise Mistake(
            "bad-shape",
            "perm-repeats",
            name="perm",
            times="twice" if counts.max() == 2 else "more than once",
            repeated=_listing(np.flatnonzero(counts > 1), "and"),
            absent=_listing(np.flatnonzero(counts == 0), "or"),
        )
    if np.array_equal(indices, np.arange(T)):
        raise Mistake("bad-shape", "perm-identity", name="perm")
    return (indices,)


def _matrix_readings(P: np.ndarray, T: int) -> tuple[np.ndarray, ...]:
    if P.dtype.kind == "c" or not np.all(np.isin(P, (0, 1))) or not (np.all(P.sum(axis=0) == 1) and np.all(P.sum(axis=1) == 1)):
        raise Mistake("bad-shape", "perm-matrix", name="perm", tokens=T)
    rows = np.argmax(P, axis=1).astype(np.int64)  # P @ X puts token rows[k] at slot k
    if np.array_equal(rows, np.arange(T)):
        raise Mistake("bad-shape", "perm-identity", name="perm")
    return (rows, np.argsort(rows))


def _listing(items: np.ndarray, joiner: str) -> str:
    words = [str(int(i)) for i in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {joiner} {words[-1]}"


def read_offset(values: Values, target: tuple[int, ...], x_name: str = "X") -> np.ndarray:
    """pos broadcast to the tokens' shape (a scalar, a per-channel vector or a column is fine)."""
    pos = real_array(values, "pos")
    try:
        return np.broadcast_to(pos, np.broadcast_shapes(pos.shape, target))
    except ValueError:
        raise Mistake("bad-shape", "offset-broadcast", name="pos", shape=shape_text(pos.shape), x=x_name, target=shape_text(target)) from None


def integer_offset(values: Values) -> dict[str, str]:
    """The fields of an offset mistake when pos is stored in an integer array (0.6 truncated to 0), else none."""
    pos = values["pos"]
    return {"dtype": str(pos.dtype)} if pos.dtype.kind in "iub" else {}


def alike(a: np.ndarray, b: np.ndarray, roundoff: float) -> bool:
    """Offsets equal up to the rounding of computing them (sin(2π) is -2.4e-16, not 0): 64 roundings of their size."""
    scale = 1.0 + max(float(np.max(np.abs(a))), float(np.max(np.abs(b))))
    return bool(np.max(np.abs(a - b)) <= 64 * roundoff * scale)


def read_output(values: Values, name: str, expected_shape: tuple[int, ...]) -> np.ndarray:
    """An output array in the shape the checker computes, accepting it without a batch axis of one."""
    out = real_array(values, name)
    if out.shape == expected_shape:
        return out
    if len(expected_shape) == 3 and expected_shape[0] == 1 and out.shape == expected_shape[1:]:
        return out[None]
    raise Mistake("bad-shape", "output-shape", name=name, shape=shape_text(out.shape), wanted=shape_text(expected_shape))


# --- tolerances ----------------------------------------------------------------------


class Precision(Struct, frozen=True):
    """How far a learner's honest computation may sit from the checker's float64 one.

    ``output``: a bound on |learner's output − exact output| for one head,
    derived below; ``roundoff``: the unit roundoff u of the learner's dtype.
    """

    roundoff: float
    output: float

    @property
    def array(self) -> float:
        """Learner's output against the checker's: each may be off by ``output`` (the checker's float64 by less)."""
        return 2 * self.output

    @property
    def gap(self) -> float:
        """A largest |a − b| over two outputs, against the checker's: twice the array tolerance."""
        return 4 * self.output

    def pooled_gap(self, tokens: int) -> float:
        """The same for two sums over ``tokens`` outputs (each term within ``array``, plus the sum's own rounding)."""
        return 4 * tokens * self.output * (1 + tokens * self.roundoff)

    def agrees(self, got: float, expected: float, tolerance: float) -> bool:
        """Within the computation's tolerance, plus the rounding of the figure as reported (see REPORTED_DIGITS)."""
        return abs(got - expected) <= tolerance + max(4 * self.roundoff * abs(expected), float(reported_rounding(expected)))

    def is_noise(self, figure: float, tolerance: float) -> bool:
        return 0 <= figure <= tolerance


# A learner may round a figure they set (round(x, 9), float(f"{x:.7g}")).
# Seven significant digits is about what float32 itself carries, so a figure
# kept to seven digits is a computed one; fewer ("2.38") is a figure copied by
# eye. Rounding to seven digits moves a figure by at most REPORTED_ROUNDING of
# its size; a typed figure is caught by the rerun, whose inputs differ.
REPORTED_DIGITS = 7
REPORTED_ROUNDING = 0.5 * 10.0 ** (1 - REPORTED_DIGITS)


def reported_rounding(expected: np.ndarray | float) -> np.ndarray:
    """How far each entry may sit from ``expected`` once rounded to REPORTED_DIGITS significant digits (same shape)."""
    return REPORTED_ROUNDING * np.abs(np.asarray(expected, dtype=np.float64))


# First-order error bounds counted by hand (Higham, "Accuracy and Stability of
# Numerical Algorithms", §3.1: a dot product of length n is off by at most
# n·u·Σ|terms|) are counted once per step below, on absolute values, so they
# already assume no cancellation helps. This factor covers what first-order
# counting leaves out and the orders in which a learner's own code may add
# (own softmax, einsum, loops). Measured over 3,000 random float32 heads
# (own softmax, B ≤ 3, T ≤ 7, C ≤ 9, offsets up to ±2): the largest error was
# 0.6% of the bound with this factor, and the bound at most 1.1% of the
# outputs' size, far below what any mistake moves them by.
SAFETY = 2


def head_precision(head: Head, signal: np.ndarray | float, roundoff: float) -> Precision:
    """The output bound for attention over ``head.X + signal``, computed in precision ``roundoff``.

    Q = X·Wq, K = X·Wk, V = X·Wv are dot products of length C; a score
    q·k/√hs adds one of length hs, so |δs| ≤ u·(2C + hs + 3)·S with S the
    largest Σ|q||k|/√hs. A score error δ moves a softmax weight w by at most
    2δ·w (relative), so a mix Σ w·v moves by ≤ 2·|δs|·Vmax, plus its own
    rounding and V's: u·(C + 2T + 4)·Vmax.
    """
    X = np.abs(head.X + signal)  # (B, T, C); adding the signal rounds once more (counted in the +3)
    C, T, hs = X.shape[-1], X.shape[-2], head.Wq.shape[1]
    abs_q, abs_k, abs_v = X @ np.abs(head.Wq), X @ np.abs(head.Wk), X @ np.abs(head.Wv)
    largest_score = float(np.max(abs_q @ np.swapaxes(abs_k, -1, -2))) / np.sqrt(hs)
    largest_value = float(np.max(abs_v))
    score_error = roundoff * (2 * C + hs + 3) * largest_score
    bound = largest_value * (2 * score_error + roundoff * (C + 2 * T + 4))
    return Precision(roundoff, SAFETY * bound)


def gap(a: np.ndarray, b: np.ndarray) -> float:
    """max |a − b|, the figure every exercise reports."""
    return float(np.max(np.abs(a - b)))
