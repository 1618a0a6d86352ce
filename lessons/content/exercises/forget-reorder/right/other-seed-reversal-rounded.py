"""Another seed and a reversal for the shuffle; the figure rounded to 9 decimals."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(3)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([5, 4, 3, 2, 1, 0])
out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
naive_diff = round(float(np.abs(out_perm - out).max()), 9)
