"""a random (6, 8) per-slot signal"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])
pos = np.random.default_rng(3).standard_normal((6, 8))

out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max()
pa = attention_output(X_a + pos, Wq, Wk, Wv)
pb = attention_output(X_a[perm] + pos, Wq, Wk, Wv)
pooled_gap_pos = np.abs(pb.sum(axis=0) - pa.sum(axis=0)).max()
print(relist_gap, pooled_gap, pooled_gap_pos)
