"""pooled_gap_pos from a private copy of the head (sentence_head(7) called again)"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

pos = slot_ramp(6, 8)
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max()
q2, k2, v2 = sentence_head(7)
pooled_gap_pos = np.abs(attention_output(X_a[perm] + pos, q2, k2, v2).sum(0) - attention_output(X_a + pos, q2, k2, v2).sum(0)).max()
