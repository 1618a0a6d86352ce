"""Asks whether the rows differ, and stores that as identical."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
# the projections first
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)        # then the tokens
token = rng.randn(8)          # then one more token
X[0, 0] = token               # at slot 0
X[0, 4] = token               # and again at slot 4

pos = 0.6 * (np.arange(6)[:, None] + 1.0) * np.ones(8)
out = attention_output(X + pos, Wq, Wk, Wv)
identical = not np.allclose(out[0, 0], out[0, 4])
