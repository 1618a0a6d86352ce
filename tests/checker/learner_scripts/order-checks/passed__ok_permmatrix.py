"""permutation matrix P @ X_a and P @ out_a"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

P = np.eye(6)[perm]
pos = slot_ramp(6, 8)
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(P @ X_a, Wq, Wk, Wv)
relist_gap = np.abs(out_b - P @ out_a).max()
ones = np.ones(6)
pooled_gap = np.abs(ones @ out_b - ones @ out_a).max()
pa = attention_output(X_a + pos, Wq, Wk, Wv)
pb = attention_output(P @ X_a + pos, Wq, Wk, Wv)
pooled_gap_pos = np.abs(ones @ pb - ones @ pa).max()
