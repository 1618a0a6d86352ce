"""float32 throughout"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
Wq, Wk, Wv = (np.float32(0.5) * rng.randn(8, 8).astype(np.float32) for _ in range(3))
X = rng.randn(1, 6, 8).astype(np.float32)
token = rng.randn(8).astype(np.float32)
X[0, 0] = token
X[0, 4] = token
pos = (np.float32(0.6) * np.arange(1, 7, dtype=np.float32))[:, None] * np.ones((6, 8), np.float32)
out = attention_output(X + pos, Wq, Wk, Wv).astype(np.float32)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print(out.dtype, identical)
