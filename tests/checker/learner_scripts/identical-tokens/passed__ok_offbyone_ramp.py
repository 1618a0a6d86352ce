"""off-by-one ramp 0.6 * t (slot 0 gets zero): still differs at slots 0 and 4"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token
pos = 0.6 * np.arange(6)[:, None] * np.ones((6, 8))

out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print(identical)
