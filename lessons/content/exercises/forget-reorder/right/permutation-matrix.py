"""The shuffle as a 0/1 permutation matrix P, applied as P @ X."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

from attnpos.core import permutation_matrix
P = permutation_matrix(perm)
perm = P
out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(P @ X, Wq, Wk, Wv)
naive_diff = np.abs(out_perm - out).max()
