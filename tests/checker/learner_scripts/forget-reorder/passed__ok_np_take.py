"""shuffle with np.take along axis 1, Wv drawn separately"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq = 0.5 * rng.randn(8, 8)
Wk = 0.5 * rng.randn(8, 8)
Wv = 0.5 * rng.randn(8, 8)
perm = np.array([3, 0, 5, 1, 4, 2])

out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(np.take(X, perm, axis=1), Wq, Wk, Wv)
naive_diff = np.abs(np.subtract(out_perm, out)).max()
print(naive_diff)
