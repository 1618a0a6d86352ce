"""A (1, 6, 8) offset, the gap found slot by slot in a loop."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = np.full((1, 6, 8), 2.5)
a = attention_output(X + pos, Wq, Wk, Wv)
b = attention_output(X[:, perm] + pos, Wq, Wk, Wv)
max_diff = 0.0
for k, p in enumerate(perm):
    max_diff = max(max_diff, np.abs(b[0, k] - a[0, p]).max())
