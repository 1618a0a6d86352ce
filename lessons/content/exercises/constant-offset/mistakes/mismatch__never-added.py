"""Defines the offset but attends to X alone."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = 0.6
in_order = attention_output(X, Wq, Wk, Wv)
shuffled = attention_output(X[:, perm], Wq, Wk, Wv)
max_diff = np.abs(shuffled - in_order[:, perm]).max()
