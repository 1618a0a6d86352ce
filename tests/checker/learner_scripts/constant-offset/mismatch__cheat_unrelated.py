"""max_diff from an unrelated pair of arrays (no pos involved)"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = 0.6
Y = np.random.RandomState(1).randn(1, 6, 8)
max_diff = np.abs(attention_output(Y[:, perm], Wq, Wk, Wv) - attention_output(Y, Wq, Wk, Wv)[:, perm]).max()
