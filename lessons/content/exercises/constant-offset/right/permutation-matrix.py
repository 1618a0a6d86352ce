"""The shuffle as a permutation matrix P, applied on both sides."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

from attnpos.core import permutation_matrix
P = permutation_matrix(perm)
perm = P
pos = 0.6
max_diff = np.abs(attention_output(P @ X + pos, Wq, Wk, Wv) - P @ attention_output(X + pos, Wq, Wk, Wv)).max()
