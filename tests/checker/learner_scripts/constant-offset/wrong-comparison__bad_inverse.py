"""reorders the in-order run by np.argsort(perm)"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = 0.6
a = attention_output(X + pos, Wq, Wk, Wv)
b = attention_output(X[:, perm] + pos, Wq, Wk, Wv)
max_diff = np.abs(b - a[:, np.argsort(perm)]).max()
