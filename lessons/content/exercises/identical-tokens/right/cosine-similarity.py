"""The verdict from the cosine similarity of rows 0 and 4 (no row is ever all zeros, not even in a rerun)."""
import numpy as np
from attnpos.core import attention_output, slot_ramp
rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
X[0, 4] = X[0, 0]
pos = slot_ramp(6, 8)
out = attention_output(X + pos, Wq, Wk, Wv)
a, b = out[0, 0], out[0, 4]
identical = bool(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)) > 1 - 1e-9)
