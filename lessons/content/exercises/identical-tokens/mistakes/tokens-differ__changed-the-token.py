"""Edits X instead of the offsets, so slots 0 and 4 no longer hold one token."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
# the projections first
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)        # then the tokens
token = rng.randn(8)          # then one more token
X[0, 0] = token               # at slot 0
X[0, 4] = token               # and again at slot 4

X[0, 4] += 0.6
pos = 0.6
out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
