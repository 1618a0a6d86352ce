"""float32 throughout"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8).astype(np.float32)
Wq, Wk, Wv = (np.float32(0.5) * rng.randn(8, 8).astype(np.float32) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = np.full(8, 0.6, dtype=np.float32)

a = attention_output(X + pos, Wq, Wk, Wv).astype(np.float32)
b = attention_output(X[:, perm] + pos, Wq, Wk, Wv).astype(np.float32)
max_diff = np.abs(b - a[:, perm]).max()
print(max_diff.dtype, max_diff)
