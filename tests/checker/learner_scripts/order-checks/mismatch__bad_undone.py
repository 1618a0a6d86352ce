"""check 3 left undone: pooled_gap_pos = pooled_gap"""
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
pooled_gap_pos = pooled_gap   # TODO check 3
