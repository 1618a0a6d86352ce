"""Every exercise's hypotheses are far apart on the starter's arrays, under the contract's substitutions.

The contract of each exercise lists the hypotheses its judge tells apart
(right, never added, after attention, the inverse reorder, typed, …) and the
substitutions of its rerun. Here every pair is computed on the starter's
arrays (with the solution's own choices, such as its ``pos``), on the script
as written and as the rerun changes it, and a pair that no figure separates
by a wide margin fails, unless the contract says how the source tells it.
A new exercise is covered as soon as it is in the course: it needs a contract.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from attnpos.lessons.checker import CONTRACTS, rerun
from attnpos.lessons.checker.separation import RIGHT, TYPED, every_reading, unseparated
from attnpos.lessons.course.loader import load_course

COURSE = load_course()
# Far apart: no figure within four times its tolerance of one hypothesis is near the other.
MARGIN = 4.0


def solution_values(exercise_id: str, replacements: dict[str, str] | None = None) -> dict[str, np.ndarray]:
    """The solution's names, run here (it is the course's own code): the starter's arrays and the solution's choices.

    With a rerun's ``replacements``, the solution rewritten as the rerun rewrites a script, so that what it builds
    from the replaced inputs (three-families' pos, bias and mask for a longer, wider sentence) follows them.
    """
    source = COURSE.exercises[exercise_id].solution
    if replacements is not None:
        source = rerun.rewrite(source, replacements)
    namespace: dict = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "solution.py", "exec"), namespace)
    return {name: np.asarray(namespace[name]) for name in contract_of(exercise_id).names}


def contract_of(exercise_id: str):
    return CONTRACTS[COURSE.exercises[exercise_id].contract]


def readings(exercise_id: str):
    contract = contract_of(exercise_id)
    first = solution_values(exercise_id)
    reruns = [solution_values(exercise_id, planned.replacements) for planned in contract.reruns]
    replaced = [planned.changed_names for planned in contract.reruns]
    return contract, every_reading(contract.hypotheses, contract.typed, replaced, first, reruns)


@pytest.mark.parametrize("exercise_id", sorted(COURSE.exercises))
def test_every_pair_of_hypotheses_is_far_apart_on_the_starters_arrays(exercise_id):
    assert COURSE.exercises[exercise_id].contract in CONTRACTS, f"{exercise_id} has no contract, so no hypotheses to separate"
    contract, both = readings(exercise_id)
    names = {name for reading in both for name in reading.figures}
    assert RIGHT in names and len(names) > 2, names
    assert {TYPED + name for name in contract.typed} <= names, "a typed name whose right figure is exactly 0 on the starter's arrays"
    for pair in contract.told_by_source:
        assert pair <= names, f"told_by_source names a hypothesis the contract does not have: {set(pair)}"
    assert unseparated(both, contract.told_by_source, MARGIN) == []


# Reruns needed for more than separating, which another rerun now also separates: learned-positions' first is where a
# sequence one token too long must be refused (its second, three rows more in the table, separates as much);
# three-families' first is where sizes typed in stop fitting (two more tokens, four more channels), and where the
# query projection of zeros asks a verdict of each head (its third, perm no shuffle, moves every gap too);
# t5-buckets' first is where T changes (a bias sized by a typed 12 stops fitting) and where buckets typed in are named
# as typed (its second, 128 buckets, max_distance 1597 and offsets to 1700, separates every pair it does, and more);
# rope's first is where a head's out must stay the same as every position moves on, and where apply_rope is asked to
# turn by positions all 0 (its second, two more tokens and gaps between the positions, separates as much);
# sinusoidal-table's first is where a maximum one row short (no hypothesis: too near the right figure for float32) and
# M read off the bent pe[k] are named (its second and third, five cells bent, separate every pair it does);
# context-extension's first is where rope_theta changes, so a base typed in is named (its second, 98 channels and factor
# 2.375, separates every pair it does); alibi's third, other scores of the learner's own shape, is where weights computed
# from scores of the script's own (drawn again from the starter's seed) are named, by their being the first run's: two
# runs compared, no hypothesis.
KEPT_FOR_MORE = {
    ("learned-positions", 1),
    ("three-families", 1),
    ("t5-buckets", 1),
    ("rope", 1),
    ("sinusoidal-table", 1),
    # the covering reruns tell no hypothesis apart: each catches a maximum that leaves out its one row or channel; with
    # them, the other bends' hypotheses are told apart as well, but those are kept to name a maximum over some rows or
    # channels only (the first row's, a T − k typed in, every other t, the seam's)
    ("sinusoidal-table", 2),
    ("sinusoidal-table", 3),
    ("sinusoidal-table", 4),
    *(("sinusoidal-table", 5 + j) for j in range(9)),
    ("context-extension", 1),
    # the wider, uneven head (392), the factor of three decimals (40.625) and the lower base: their float16 exponents are
    # told by the width alone at 100 too; kept for a width held to at most 256 and factors and bases past the others'
    ("context-extension", 2),
    # one input changed alone: for a figure typed behind a test of another input (`if factor == 4.0:`, round 21),
    # which no hypothesis models
    ("context-extension", 3),
    ("context-extension", 4),
    ("context-extension", 5),
    ("alibi", 3),
    # 3584 heads of 5 tokens and one head of 600: for sizes typed or capped past the others' (a table for 1 … 64 heads,
    # a window of 256 keys, a distance clipped at 512), which no hypothesis models
    ("alibi", 4),
    ("alibi", 5),
    # either rerun separates every pair with the first run: the small one is kept for its NaN-poisoned buffers
    # (substitutes.poisoned_for), the larger for caps typed in past the starter's sizes, which no hypothesis models
    ("embedding-backward", 1),
    ("embedding-backward", 2),
    # the larger rerun (B 5, T as long as its 11 rows, C 12): for caps typed past the first rerun's sizes and a
    # gradient that drops the table's last row, which no hypothesis models
    ("learned-positions", 4),
}


@pytest.mark.parametrize("exercise_id", sorted(COURSE.exercises))
def test_one_run_alone_would_not_do_what_the_rerun_does(exercise_id):
    """Every rerun is needed: without any one of them some pair is not told apart (so the test above is not vacuous)."""
    contract, every = readings(exercise_id)
    for left_out in range(1, len(every)):
        if (exercise_id, left_out) in KEPT_FOR_MORE:
            continue
        others = every[:left_out] + every[left_out + 1 :]
        assert unseparated(others, contract.told_by_source) != [], f"rerun {left_out} separates nothing the others do not"


def test_a_checks_runs_fit_the_sandbox_workers_side_by_side():
    from attnpos.lessons.checker import RUNS_PER_CHECK

    assert RUNS_PER_CHECK == 1 + max(len(contract.reruns) for contract in CONTRACTS.values())
