"""own attention in explicit loops"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

import math
pos = 0.6

def attend(x):
    T = x.shape[1]
    res = np.zeros((1, T, Wv.shape[1]))
    for i in range(T):
        q = x[0, i] @ Wq
        sc = np.array([q @ (x[0, j] @ Wk) for j in range(T)]) / math.sqrt(Wq.shape[1])
        w = np.exp(sc - sc.max()); w = w / w.sum()
        for j in range(T):
            res[0, i] += w[j] * (x[0, j] @ Wv)
    return res

a = attend(X + pos)
b = attend(X[:, perm] + pos)
max_diff = max(abs(b[0, k, c] - a[0, perm[k], c]) for k in range(6) for c in range(8))
print(max_diff)
