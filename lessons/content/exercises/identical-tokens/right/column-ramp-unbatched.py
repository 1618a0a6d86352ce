"""A ramp built by hand as a column, the outputs without the batch axis."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
X[0, 4] = X[0, 0]
pos = 0.6 * (np.arange(6)[:, None] + 1.0)
out = attention_output(X + pos, Wq, Wk, Wv)[0]
identical = bool(np.allclose(out[0], out[4]))
