"""own softmax and attention in loops"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

import math
def attend(x):
    T = x.shape[0]
    q, k, v = x @ Wq, x @ Wk, x @ Wv
    res = np.zeros((T, v.shape[1]))
    for i in range(T):
        s = [q[i] @ k[j] / math.sqrt(q.shape[1]) for j in range(T)]
        m = max(s)
        e = [math.exp(z - m) for z in s]
        tot = sum(e)
        for j in range(T):
            res[i] += e[j] / tot * v[j]
    return res

def pooled(o):
    acc = np.zeros(o.shape[1])
    for row in o:
        acc += row
    return acc

pos = np.array([[0.6 * (t + 1)] * 8 for t in range(6)])
out_a = attend(X_a)
out_b = attend(X_a[perm])
relist_gap = max(abs(out_b[k] - out_a[perm[k]]).max() for k in range(6))
pooled_gap = abs(pooled(out_b) - pooled(out_a)).max()
pooled_gap_pos = abs(pooled(attend(X_a[perm] + pos)) - pooled(attend(X_a + pos))).max()
