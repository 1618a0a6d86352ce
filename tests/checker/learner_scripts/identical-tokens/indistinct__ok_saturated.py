"""a huge ramp (step 60) that saturates the softmax: rows 0 and 4 come out equal, so a typed True could not be told from it (once passed as "passed/saturated"; now indistinct)"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token
pos = slot_ramp(6, 8, step=60.0)

out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print(identical)
