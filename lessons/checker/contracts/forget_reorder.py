"""forget-reorder: comparing the shuffled run with the original slot by slot gives a large gap.

``naive_diff`` is a large figure, so a typed copy of it must be told from a
computed one: the rerun gives the script other tokens ``X`` of the same
shape and a shuffle by one slot, so the right figure changes and a typed one
stays as it was. The new shuffle also parts the inverse reorder from no
reorder: wherever perm swaps two tokens or leaves one in place the two pair
the same rows, and on the starter's arrays the largest gap fell where they
agree, which scaling ``Wv``, the first design, kept.
"""

from __future__ import annotations

import numpy as np

from attnpos.core import permute_tokens
from attnpos.lessons.checker.contracts.common import (
    THAT_RUN,
    WHOSE,
    Contract,
    Question,
    Rerun,
    Runs,
    close,
    figure_mistake,
    first_reading,
    matching,
    worst_entry,
)
from attnpos.lessons.checker.separation import Hypotheses, inverse_mistakes
from attnpos.lessons.checker.values import Values, dtype_roundoff, gap, head_precision, read_head, read_output, read_perm, scalar
from attnpos.lessons.checker.verdicts import Mistake, Passed

NAMES = ("X", "Wq", "Wk", "Wv", "perm", "out", "out_perm", "naive_diff")
CHANGED = "other tokens in place of `X`, of the same shape and size, and `perm` moving every token one slot on"
TYPED = Question("typed_in", ("naive_diff",))  # a noise-sized figure typed in, not a reordered comparison


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
            raise head.unscaled_mistake("out", out, head.X, precision.array) or _array_mistake("out", out, expected_out, first_figure)
        expected_perm = head.attend(permute_tokens(head.X, perm))
        if not close(out_perm, expected_perm, precision.array):
            if close(out_perm, head.attend(permute_tokens(head.X, inverse)), precision.array):
                raise Mistake("wrong-comparison", "inverse-shuffle", name="out_perm")
            shuffled = permute_tokens(head.X, perm)
            raise head.unscaled_mistake("out_perm", out_perm, shuffled, precision.array) or _array_mistake("out_perm", out_perm, expected_perm, first_figure)
        right = gap(expected_perm, expected_out)
        cause = matching(
            naive_diff,
            {
                "right": right,
                "reordered": gap(expected_perm, permute_tokens(expected_out, perm)),
                "inverse": gap(expected_perm, permute_tokens(expected_out, inverse)),
            },
            precision,
            precision.gap,
        )
        if cause == "right":
            return Passed()
        if cause is not None:
            raise figure_mistake("wrong-comparison", cause, "naive_diff", right, naive_diff, first_figure is not None)
        if first_figure is not None and naive_diff == first_figure:
            raise figure_mistake("mismatch", "typed", "naive_diff", right, naive_diff, True)
        raise figure_mistake("mismatch", "figure", "naive_diff", right, naive_diff, first_figure is not None)

    return first_reading(readings, with_perm)


def _array_mistake(name: str, got: np.ndarray, expected: np.ndarray, first_figure: float | None) -> Mistake:
    cause = "array" if first_figure is None else "unrelated-array"
    return Mistake("mismatch", cause, name=name, **worst_entry(name, got, expected, WHOSE if first_figure is None else THAT_RUN))


def judge(runs: Runs) -> Passed:
    try:
        _judge_run(runs.first, None)
    except Mistake as mistake:
        if mistake.cause == "reordered" and runs.says(TYPED):
            # A noise-sized number typed in, not a reordered comparison: say so, with the figure the arrays give.
            raise Mistake("mismatch", "typed-noise", name="naive_diff", got=mistake.fields["got"], expected=mistake.fields["expected"]) from None
        raise
    return _judge_run(runs.second(CHANGED), scalar(runs.first, "naive_diff"))


def hypotheses(values: Values) -> Hypotheses:
    """What out, out_perm and naive_diff are on one run's inputs, right and under each mistake the judge names."""
    head = read_head(values)
    perm = read_perm(values, head.tokens)[0]
    inverse = np.argsort(perm)
    precision = head_precision(head, 0.0, dtype_roundoff(values, NAMES))
    out, out_perm = head.attend(head.X), head.attend(permute_tokens(head.X, perm))
    return Hypotheses.of(
        {"out": out, "out_perm": out_perm, "naive_diff": gap(out_perm, out)},
        inverse_mistakes(
            perm,
            {
                "reordered": {"naive_diff": gap(out_perm, permute_tokens(out, perm))},
                "inverse": {"naive_diff": gap(out_perm, permute_tokens(out, inverse))},
                "reordered-out": {"out": permute_tokens(out, perm), "naive_diff": gap(out_perm, permute_tokens(out, perm))},
                "inverse-shuffle": {"out_perm": head.attend(permute_tokens(head.X, inverse))},
            },
            ("inverse", "inverse-shuffle"),
        ),
        {"out": precision.array, "out_perm": precision.array, "naive_diff": precision.gap},
    )


FORGET_REORDER = Contract(
    names=NAMES,
    reruns=(Rerun({"X": "redrawn(X)", "perm": "shifted(perm)"}, CHANGED),),
    judge=judge,
    diagnoses=("wrong-comparison", "mismatch"),
    hypotheses=hypotheses,
    typed=("naive_diff", "out", "out_perm"),
    questions=(TYPED,),
    described={
        "reordered": "out reordered by perm before comparing",
        "inverse": "out reordered by the inverse of perm",
        "reordered-out": "out already reordered",
        "inverse-shuffle": "X shuffled by the inverse of perm",
        "typed-naive_diff": "a naive_diff typed in",
        "typed-out": "an out from other arrays",
        "typed-out_perm": "an out_perm from other arrays",
        "stale-X": "figures from a copy of X made before the checker changed it",
    },
)
