"""Stores the offset in an integer array: 0.6 is cut to 0 when it is written, so pos is all zeros."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = np.zeros((6, 8), dtype=int)
pos[:] = 0.6
max_diff = np.abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max()
