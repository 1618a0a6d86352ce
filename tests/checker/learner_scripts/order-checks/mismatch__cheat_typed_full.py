"""types all three full-precision figures of an honest run"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

pos = slot_ramp(6, 8)
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = 8.881784197001252e-16
pooled_gap = 8.881784197001252e-16
pooled_gap_pos = 8.589131114209607
