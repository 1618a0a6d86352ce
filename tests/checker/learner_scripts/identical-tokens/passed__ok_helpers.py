"""helper functions for ramp, attention and verdict"""
import numpy as np
from attnpos.core import attention_output, slot_ramp

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token

def ramp(T, C, step=0.6):
    return np.array([[step * (t + 1)] * C for t in range(T)])

def same_rows(a, i, j):
    return bool(np.allclose(a[0, i], a[0, j]))

pos = ramp(6, 8)
out = attention_output(X + pos, Wq, Wk, Wv)
identical = same_rows(out, 0, 4)
