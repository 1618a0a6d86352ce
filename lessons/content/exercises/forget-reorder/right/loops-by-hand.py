"""Attention written with Python loops, the figure a plain float."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

def attend_by_hand(X):
    T = X.shape[1]
    out = np.zeros_like(X)
    for i in range(T):
        q = X[0, i] @ Wq
        scores = np.array([q @ (X[0, j] @ Wk) for j in range(T)]) / np.sqrt(8)
        w = np.exp(scores - scores.max())
        w /= w.sum()
        out[0, i] = sum(w[j] * (X[0, j] @ Wv) for j in range(T))
    return out
out = attend_by_hand(X)
out_perm = attend_by_hand(X[:, perm])
naive_diff = float(abs(out_perm - out).max())
