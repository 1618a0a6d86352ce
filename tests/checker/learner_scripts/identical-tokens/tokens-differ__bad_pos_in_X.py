"""writes the offsets into X itself (X += pos) and then attends to X + pos"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token

pos = slot_ramp(6, 8)
X += pos
out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
