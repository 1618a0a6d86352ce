"""float32 throughout"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8).astype(np.float32)
Wq, Wk, Wv = (np.float32(0.5) * rng.randn(8, 8).astype(np.float32) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

out = attention_output(X, Wq, Wk, Wv).astype(np.float32)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv).astype(np.float32)
naive_diff = np.float32(np.abs(out_perm - out).max())
print(out.dtype, naive_diff)
# large: the rows compared belong to different tokens
