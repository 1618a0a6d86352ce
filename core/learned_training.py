"""Training a small learned position table by gradient descent, to watch which rows learn.

The task is a stand-in for what the rest of a model asks of the table: slot t
should hold a target vector (here the sinusoidal row t, so the learned rows
can be compared with something familiar). Each step draws a batch of
sequences of lengths 2 to 8; every token at slot t adds its gradient into row
t by the same scatter-add as a token table. Rows 8 and beyond are never
looked up, so they never move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from attnpos.core.position import learned_table, sinusoidal

TABLE_ROWS = 16  # max_len of the table
TABLE_WIDTH = 8  # C
SHORTEST, LONGEST = 2, 8  # training sequence lengths, both included
BATCH = 4
STEPS = 3000
LEARNING_RATE = 0.05
TRAINING_SEED = 0


@dataclass(frozen=True)
class TrainedTable:
    """A table before and after training, and what each row went through."""

    before: np.ndarray = field(repr=False)  # (max_len, C) the initial table
    after: np.ndarray = field(repr=False)  # (max_len, C) after training
    target: np.ndarray = field(repr=False)  # (max_len, C) what slot t is asked to hold
    gradients: np.ndarray = field(repr=False)  # (max_len,) tokens whose gradient reached each row
    steps: int
    longest: int  # the longest training sequence

    @property
    def row_error(self) -> np.ndarray:
        """(max_len,) ‖after[t] − target[t]‖: small where training reached, large beyond."""
        return np.linalg.norm(self.after - self.target, axis=1)

    @property
    def untouched(self) -> bool:
        """Whether every row from ``longest`` on is bit-for-bit its initial value."""
        return bool(np.array_equal(self.after[self.longest :], self.before[self.longest :]))


def training_lengths(steps: int, batch: int, shortest: int, longest: int, seed: int) -> np.ndarray:
    """(steps, batch) sequence lengths drawn uniformly from shortest … longest."""
    return np.random.default_rng(seed).integers(shortest, longest + 1, size=(steps, batch))


def train_position_table(
    steps: int = STEPS,
    max_len: int = TABLE_ROWS,
    C: int = TABLE_WIDTH,
    batch: int = BATCH,
    shortest: int = SHORTEST,
    longest: int = LONGEST,
    learning_rate: float = LEARNING_RATE,
    seed: int = TRAINING_SEED,
) -> TrainedTable:
    """Gradient descent on loss = mean over tokens of ½‖wpe[t] − target[t]‖².

    Every token at slot t sends the gradient (wpe[t] − target[t]) / N (N the
    tokens of its step) into row t by scatter-add. The tokens of one slot
    send the same vector, so the scatter-add of a step is counts[t] / N
    times it; the counts of every step are scattered up front (np.add.at)
    and each step is then one line of NumPy, a few thousand steps in tens of
    milliseconds. Fixed seed, so the figures repeat.
    """
    wpe = learned_table(max_len, C, seed=seed)  # (max_len, C), N(0, 0.02²)
    before = wpe.copy()
    target = sinusoidal(max_len, C)  # (max_len, C)
    lengths = training_lengths(steps, batch, shortest, longest, seed + 1)  # (steps, B)
    step_of, _, slot = np.nonzero(np.arange(longest)[None, None, :] < lengths[:, :, None])  # one entry per token
    counts = np.zeros((steps, max_len))  # (steps, max_len) tokens at each slot, per step
    np.add.at(counts, (step_of, slot), 1.0)
    rates = learning_rate * counts / lengths.sum(axis=1, keepdims=True)  # (steps, max_len) lr · counts / N
    for rate in rates:
        wpe -= rate[:, None] * (wpe - target)
    return TrainedTable(before, wpe, target, counts.sum(axis=0).astype(np.int64), steps, longest)
