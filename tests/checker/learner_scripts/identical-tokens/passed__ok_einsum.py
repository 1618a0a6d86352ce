"""own attention with einsum"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token

pos = slot_ramp(6, 8)
x = X + pos
q = np.einsum("btc,cd->btd", x, Wq)
k = np.einsum("btc,cd->btd", x, Wk)
v = np.einsum("btc,cd->btd", x, Wv)
s = np.einsum("bid,bjd->bij", q, k) / np.sqrt(8.0)
w = np.exp(s - s.max(-1, keepdims=True))
w = w / w.sum(-1, keepdims=True)
out = np.einsum("bij,bjd->bid", w, v)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
