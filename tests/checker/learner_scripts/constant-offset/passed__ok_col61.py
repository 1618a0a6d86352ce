"""column-shaped pos (6, 1), all 0.6"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = np.full((6, 1), 0.6)

a = attention_output(X + pos, Wq, Wk, Wv)
b = attention_output(X[:, perm] + pos, Wq, Wk, Wv)
# every token gets the same offset wherever it sits, so the shuffle only relists
max_diff = np.abs(b - a[:, perm]).max()
print(max_diff)
