"""Reading the names of the table exercises (embedding-backward, sinusoidal-table, learned-positions).

Tables, integer ids, whole numbers and arrays of a shape the exercise
fixes; each problem a Mistake with its own sentence (lessons/checker/verdicts.py).
"""

from __future__ import annotations

import math

import numpy as np

from attnpos.lessons.checker.separation import COARSEST_ROUNDOFF
from attnpos.lessons.checker.values import ANSWER_MAX_WIDTH, Values, describe, real_array
from attnpos.lessons.checker.verdicts import Mistake, shape_text

MAX_ROWS = 4096  # no exercise table needs more; beyond it the checker would only waste time


def read_table(values: Values, name: str) -> np.ndarray:
    """A (rows, C) table as float64."""
    table = real_array(values, name, (2,))
    if table.shape[0] > MAX_ROWS or table.shape[1] > ANSWER_MAX_WIDTH:
        raise Mistake("bad-shape", "too-large", name=name, shape=shape_text(table.shape))
    return table


def read_ids(values: Values, name: str, rows: int, ndim: tuple[int, ...] = (2,)) -> np.ndarray:
    """Whole-number ids that index a table of ``rows`` rows, as int64."""
    ids = values[name]
    if ids.dtype.kind == "b" or ids.dtype.kind not in "iuf" or (ids.dtype.kind == "f" and not np.all(np.mod(ids, 1) == 0)):
        raise Mistake("bad-type", "ids-not-whole", name=name, got=describe(ids))
    if ids.ndim not in ndim:
        raise Mistake("bad-shape", "ndim", name=name, shape=shape_text(ids.shape), wanted="a (B, T) array")
    if ids.size == 0 or ids.size > MAX_ROWS * 16:
        raise Mistake("bad-shape", "empty" if ids.size == 0 else "too-large", name=name, shape=shape_text(ids.shape))
    whole = ids.astype(np.int64)
    outside = whole[(whole < 0) | (whole >= rows)]
    if outside.size:
        raise Mistake("bad-shape", "ids-range", name=name, value=int(outside[0]), last=rows - 1)
    return whole


def read_whole(values: Values, name: str, low: int, high: int) -> int:
    """A whole number between low and high, both included."""
    value = values[name]
    if value.dtype.kind == "b" or value.dtype.kind not in "iuf" or value.size != 1 or (value.dtype.kind == "f" and float(value.reshape(())) % 1):
        raise Mistake("bad-type", "not-whole", name=name, got=describe(value))
    number = int(value.reshape(()))
    if not low <= number <= high:
        raise Mistake("bad-value", "whole-range", name=name, value=number, low=low, high=high)
    return number


def read_shaped(values: Values, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """A real array of exactly ``shape`` (one of shape[1:] is taken for a batch of one)."""
    if values[name].dtype == bool:
        raise Mistake("bad-type", "bools", name=name)
    array = real_array(values, name)
    if array.shape == shape:
        return array
    if len(shape) == 3 and shape[0] == 1 and array.shape == shape[1:]:
        return array[None]
    raise Mistake("bad-shape", "array-shape", name=name, shape=shape_text(array.shape), wanted=shape_text(shape))


def rounding(roundoff: float, size: float) -> float:
    """64 roundings of numbers of magnitude ``size``; without bound for a dtype coarser than float32 (float16).

    The course's figures need float32's precision at least (separation.COARSEST_ROUNDOFF):
    below it every hypothesis agrees with every other, and the verdict is `indistinct`.
    """
    return math.inf if roundoff > COARSEST_ROUNDOFF else 64 * roundoff * size


def tolerance(roundoff: float, terms: int, size: float) -> float:
    """How far an honest sum of ``terms`` numbers of magnitude ``size`` may round, with room for any order of adding."""
    return rounding(roundoff, (1 + terms) * (1 + size))


def close(got: np.ndarray, expected: np.ndarray, tol: float) -> bool:
    return got.shape == expected.shape and bool(np.max(np.abs(got - expected), initial=0.0) <= tol)
