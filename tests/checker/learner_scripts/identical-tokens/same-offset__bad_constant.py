"""a constant offset 0.6 at every slot"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token
pos = np.full((6, 8), 0.6)

out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print(identical)
