"""a sinusoidal per-slot signal instead of the ramp (differs at slots 0 and 4)"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token

t = np.arange(6)[:, None]
i = np.arange(8)[None, :]
angle = t / (10000 ** ((i // 2 * 2) / 8))
pos = np.where(i % 2 == 0, np.sin(angle), np.cos(angle))
out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print(identical)
