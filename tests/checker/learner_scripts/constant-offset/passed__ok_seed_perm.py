"""seed 0 and a 3-cycle permutation"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(0)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([1, 2, 0, 3, 4, 5])
pos = 2.5
a = attention_output(X + pos, Wq, Wk, Wv)
b = attention_output(X[:, perm] + pos, Wq, Wk, Wv)
max_diff = np.abs(b - a[:, perm]).max()
