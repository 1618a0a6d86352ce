"""A head whose value projection is all zeros: every output row is zero, so rows 0 and 4 are equal whatever the offsets."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
Wv[:] = 0
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token

pos = 0.6 * (np.arange(6)[:, None] + 1.0) * np.ones(8)
out = attention_output(X + pos, Wq, Wk, Wv)
identical = True
