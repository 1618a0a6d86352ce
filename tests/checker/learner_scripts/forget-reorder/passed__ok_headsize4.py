"""Wq, Wk, Wv of shape (8, 4): head size differs from C"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 4) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

out = attention_output(X, Wq, Wk, Wv)          # (1, 6, 4)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
naive_diff = np.abs(out_perm - out).max()
print(out.shape, naive_diff)
