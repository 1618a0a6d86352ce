"""out_perm shuffles X by the inverse permutation"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, np.argsort(perm)], Wq, Wk, Wv)
naive_diff = np.abs(out_perm - out).max()
print(naive_diff)
