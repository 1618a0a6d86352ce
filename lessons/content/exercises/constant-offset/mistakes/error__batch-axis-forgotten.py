"""Indexes token 4 as out[4], forgetting the batch axis of one in front: (1, 6, 8)."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = 0.6
in_order = attention_output(X + pos, Wq, Wk, Wv)
print("token 4:", in_order[4])
max_diff = np.abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - in_order[:, perm]).max()
