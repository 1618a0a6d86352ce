"""A batch of three, a head 4 wide for queries and keys, the shuffle a tuple."""
import numpy as np
from attnpos.core import attention_output
rng = np.random.RandomState(5)
X = rng.randn(3, 6, 8)
Wq, Wk = 0.5 * rng.randn(8, 4), 0.5 * rng.randn(8, 4)
Wv = 0.5 * rng.randn(8, 8)
perm = (1, 2, 3, 4, 5, 0)
out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
naive_diff = np.abs(out_perm - out).max()
