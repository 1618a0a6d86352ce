"""forget-reorder: comparing the shuffled run with the original slot by slot gives a large gap.

``naive_diff`` is a large figure, so a typed copy of it must be told from a
computed one: the rerun scales ``Wv`` by a power of two, which scales every
output and so the right figure exactly; a typed one stays as it was.
"""

from __future__ import annotations

import numpy as np

from attnpos.core import permute_tokens
from attnpos.lessons.checking.contracts.common import (
    Contract,
    Runs,
    close,
    figure_mistake,
    first_reading,
    follows_scaling,
    matching,
)
from attnpos.lessons.checking.substitutes import VALUE_SCALE
from attnpos.lessons.checking.values import Values, dtype_roundoff, gap, head_precision, read_head, read_output, read_perm, scalar
from attnpos.lessons.checking.verdicts import Mistake, Passed

NAMES = ("X", "Wq", "Wk", "Wv", "perm", "out", "out_perm", "naive_diff")
CHANGED = f"`Wv` multiplied by 2^{int(np.log2(VALUE_SCALE))}"


def _judge_run(values: Values, first_figure: float | None) -> Passed:
    """One run on its own terms; ``first_figure`` (the first run's naive_diff) marks a rerun."""
    head = read_head(values)
    readings = read_perm(values, head.tokens)
    expected_out = head.attend(head.X)
    out = read_output(values, "out", expected_out.shape)
    out_perm = read_output(values, "out_perm", expected_out.shape)
    naive_diff = scalar(values, "naive_diff")
    precision = head_precision(head, 0.0, dtype_roundoff(values, NAMES))

    def with_perm(perm: np.ndarray) -> Passed:
        inverse = np.argsort(perm)
        if not close(out, expected_out, precision.array):
            if close(out, permute_tokens(expected_out, perm), precision.array):
                raise Mistake("wrong-comparison", "reordered-out", name="out")
            raise _array_mistake("out", out, expected_out, first_figure)
        expected_perm = head.attend(permute_tokens(head.X, perm))
        if not close(out_perm, expected_perm, precision.array):
            if close(out_perm, head.attend(permute_tokens(head.X, inverse)), precision.array):
                raise Mistake("wrong-comparison", "inverse-shuffle", name="out_perm")
            raise _array_mistake("out_perm", out_perm, expected_perm, first_figure)
        right = gap(expected_perm, expected_out)
        cause = matching(naive_diff, {
            "right": right,
            "reordered": gap(expected_perm, permute_tokens(expected_out, perm)),
            "inverse": gap(expected_perm, permute_tokens(expected_out, inverse)),
        }, precision, precision.gap)
        if cause == "right":
            return Passed()
        if cause is not None:
            raise figure_mistake("wrong-comparison", cause, "naive_diff", right, naive_diff)
        if first_figure is not None and naive_diff == first_figure:
            raise figure_mistake("mismatch", "typed", "naive_diff", right, naive_diff)
        raise figure_mistake("mismatch", "figure", "naive_diff", right, naive_diff)

    return first_reading(readings, with_perm)


def _array_mistake(name: str, got: np.ndarray, expected: np.ndarray, first_figure: float | None) -> Mistake:
    cause = "array" if first_figure is None else "unrelated-array"
    return Mistake("mismatch", cause, name=name, got=f"{gap(got, expected):.3g}")


def judge(runs: Runs) -> Passed:
    try:
        _judge_run(runs.first, None)
    except Mistake as mistake:
        if mistake.cause == "reordered":
            first_figure = scalar(runs.first, "naive_diff")
            # Rounding noise, as the reordered comparison gives; an honest one grows with Wv in the rerun, a typed one does not.
            rerun_figure = scalar(runs.second(CHANGED), "naive_diff")
            if not follows_scaling(first_figure, rerun_figure, VALUE_SCALE, 0.0):
                raise figure_mistake("mismatch", "typed", "naive_diff", rerun_figure, first_figure) from None
        raise
    return _judge_run(runs.second(CHANGED), scalar(runs.first, "naive_diff"))


FORGET_REORDER = Contract(
    names=NAMES,
    replacements={"Wv": "scaled(Wv)"},
    changed=CHANGED,
    judge=judge,
    diagnoses=("wrong-comparison", "mismatch"),
)
