"""float32 throughout, a head of one's own."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
X = X.astype(np.float32)
X[0, 4] = X[0, 0]
Wq, Wk, Wv = (W.astype(np.float32) for W in (Wq, Wk, Wv))

def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def head(X):
    q, k, v = X @ Wq, X @ Wk, X @ Wv
    return softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])) @ v
pos = (0.6 * np.arange(1, 7, dtype=np.float32))[:, None] * np.ones(8, dtype=np.float32)
out = head(X + pos)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
