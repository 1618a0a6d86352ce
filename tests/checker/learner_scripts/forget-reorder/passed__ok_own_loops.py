"""own softmax and attention written with loops"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

import math

def softmax_row(r):
    m = max(r)
    e = [math.exp(v - m) for v in r]
    s = sum(e)
    return [v / s for v in e]

def my_attention(x):
    B, T, C = x.shape
    res = np.zeros((B, T, Wv.shape[1]))
    for b in range(B):
        q = x[b] @ Wq
        k = x[b] @ Wk
        v = x[b] @ Wv
        for i in range(T):
            scores = [float(q[i] @ k[j]) / math.sqrt(Wk.shape[1]) for j in range(T)]
            w = softmax_row(scores)
            for j in range(T):
                res[b, i] += w[j] * v[j]
    return res

out = my_attention(X)
out_perm = my_attention(X[:, perm])
naive_diff = 0.0
for i in range(6):
    for c in range(8):
        naive_diff = max(naive_diff, abs(out_perm[0, i, c] - out[0, i, c]))
print(naive_diff)
