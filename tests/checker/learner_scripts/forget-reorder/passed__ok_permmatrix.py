"""permutation matrix P @ X instead of index arrays"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

P = np.eye(6)[perm]            # row k of P picks token perm[k]
out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(P @ X, Wq, Wk, Wv)
naive_diff = np.max(np.abs(out_perm - out))
print(naive_diff)
