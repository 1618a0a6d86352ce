"""batch of 3, default_rng, other perm"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.default_rng(11)
X = rng.standard_normal((3, 6, 8))
Wq, Wk, Wv = (0.5 * rng.standard_normal((8, 8)) for _ in range(3))
perm = np.array([5, 4, 3, 2, 1, 0])
pos = np.full(8, 1.7)
a = attention_output(X + pos, Wq, Wk, Wv)
b = attention_output(X[:, perm] + pos, Wq, Wk, Wv)
max_diff = float(np.abs(b - a[:, perm]).max())
print(max_diff)
