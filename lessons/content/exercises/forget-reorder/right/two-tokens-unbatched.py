"""Two tokens, unscaled projections, the outputs without the batch axis."""
import numpy as np
from attnpos.core import attention_output
rng = np.random.RandomState(0)
X = rng.randn(1, 2, 8)
Wq, Wk, Wv = (rng.randn(8, 8) for _ in range(3))
perm = np.array([1, 0])
out = attention_output(X, Wq, Wk, Wv)[0]
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)[0]
naive_diff = np.abs(out_perm - out).max()
