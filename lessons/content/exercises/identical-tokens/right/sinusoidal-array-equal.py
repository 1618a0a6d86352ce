"""Sinusoidal positions with a batch axis, the verdict from np.array_equal."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
X[0, 4] = X[0, 0]
pos = sinusoidal(6, 8)[None]
out = attention_output(X + pos, Wq, Wk, Wv)
identical = np.array_equal(out[0, 0], out[0, 4])
