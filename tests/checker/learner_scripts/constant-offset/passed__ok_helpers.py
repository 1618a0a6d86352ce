"""helper functions for the runs and gap"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = np.full((6, 8), 0.6)

def run(x, offset):
    return attention_output(x + offset, Wq, Wk, Wv)

def shuffle_gap(x, p, offset):
    return np.abs(run(x[:, p], offset) - run(x, offset)[:, p]).max()

max_diff = shuffle_gap(X, perm, pos)
print(f"{max_diff:.1e}")
