"""np.take for order B, pos as (1, 6, 8)"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

pos = slot_ramp(6, 8)[None]
xb = np.take(X_a, perm, axis=0)
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(xb, Wq, Wk, Wv)
relist_gap = np.abs(out_b - np.take(out_a, perm, axis=0)).max()
pooled_gap = np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max()
pooled_gap_pos = np.abs(attention_output(xb + pos, Wq, Wk, Wv).sum(axis=(0, 1)) - attention_output(X_a + pos, Wq, Wk, Wv).sum(axis=(0, 1))).max()
