"""What every contract shares: the two runs of an answer, and comparing figures with hypotheses."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from attnpos.lessons.checking.values import Precision
from attnpos.lessons.checking.verdicts import RUN_DIAGNOSES, Mistake, Passed, figure_pair


@dataclass(frozen=True)
class Runs:
    """An answer as the checker saw it: the script run as written, and rerun with other inputs."""

    first: Mapping[str, np.ndarray]
    rerun: Mapping[str, np.ndarray] | None  # None when the rerun could not give the names
    rerun_failure: str  # why not, in a few words ("" when it could)
    source: str

    def second(self, changed: str) -> Mapping[str, np.ndarray]:
        """The rerun's values; a Mistake when the script could not be rerun with ``changed``."""
        if self.rerun is None:
            raise Mistake("rerun-failed", changed=changed, failure=self.rerun_failure)
        return self.rerun


@dataclass(frozen=True)
class Contract:
    """The names an exercise's answer must define, its rerun, its judge, and every diagnosis it can give."""

    names: tuple[str, ...]
    replacements: dict[str, str]  # name → "function(learner names…)" in checking.substitutes, for the rerun
    changed: str  # what the rerun changes, as the learner is told: "`pos` set to a per-slot signal"
    judge: Callable[[Runs], Passed]
    diagnoses: tuple[str, ...]  # besides passed, the run diagnoses and rerun-failed

    @property
    def every_diagnosis(self) -> tuple[str, ...]:
        """Every id a check of this exercise can end in, passed first."""
        return ("passed", *RUN_DIAGNOSES, "rerun-failed", *self.diagnoses)


def close(got: np.ndarray, expected: np.ndarray, tolerance: float) -> bool:
    return got.shape == expected.shape and bool(np.max(np.abs(got - expected)) <= tolerance)


def matching(figure: float, hypotheses: dict[str, float], precision: Precision, tolerance: float) -> str | None:
    """The first hypothesis (in the order given) that the learner's figure agrees with."""
    for cause, value in hypotheses.items():
        if precision.agrees(figure, value, tolerance):
            return cause
    return None


def figure_mistake(diagnosis: str, cause: str, name: str, expected: float, got: float) -> Mistake:
    shown_expected, shown_got = figure_pair(expected, got)
    return Mistake(diagnosis, cause, name=name, expected=shown_expected, got=shown_got)


def first_reading(readings: tuple[np.ndarray, ...], judge: Callable[[np.ndarray], Passed]) -> Passed:
    """Judge with each reading of perm (a permutation matrix has two); the first that passes wins, else the first's mistake."""
    first: Mistake | None = None
    for perm in readings:
        try:
            return judge(perm)
        except Mistake as mistake:
            first = first or mistake
    assert first is not None
    raise first


def follows_scaling(first: float, rerun: float, scale: float, noise: float) -> bool:
    """Whether a rounding-noise figure moved with the value matrix, as gaps between outputs must.

    Scaling Wv by a power of two scales every output, so an honest noise
    figure comes back about ``scale`` times larger (exactly, unless the
    arithmetic took another path; a factor of 16 either way allows for
    that); a typed or copied figure comes back unchanged. A figure that was
    exactly 0 must stay within the rerun's ``noise``.
    """
    if first == 0:
        return 0 <= rerun <= noise
    return rerun == 0 or scale / 16 <= rerun / first <= scale * 16
