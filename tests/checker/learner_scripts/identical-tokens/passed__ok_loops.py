"""own softmax and attention in loops"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token

import math
pos = slot_ramp(6, 8)
x = X + pos

def softmax(v):
    m = v.max()
    e = np.exp(v - m)
    return e / e.sum()

out = np.zeros((1, 6, 8))
for i in range(6):
    q = x[0, i] @ Wq
    scores = np.array([q @ (x[0, j] @ Wk) for j in range(6)]) / math.sqrt(8)
    w = softmax(scores)
    out[0, i] = sum(w[j] * (x[0, j] @ Wv) for j in range(6))
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print(identical)
