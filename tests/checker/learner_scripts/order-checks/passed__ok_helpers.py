"""helper functions"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

def attn(x, offset=0.0):
    return attention_output(x + offset, Wq, Wk, Wv)

def pooled_diff(a, b):
    return float(np.abs(a.sum(axis=0) - b.sum(axis=0)).max())

pos = slot_ramp(6, 8)
out_a, out_b = attn(X_a), attn(X_a[perm])
relist_gap = float(np.abs(out_b - out_a[perm]).max())
pooled_gap = pooled_diff(out_b, out_a)
pooled_gap_pos = pooled_diff(attn(X_a[perm], pos), attn(X_a, pos))
