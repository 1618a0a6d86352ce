"""both orders batched as a (2, 6, 8) stack, then split into out_a, out_b"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

pos = slot_ramp(6, 8)
both = attention_output(np.stack([X_a, X_a[perm]]), Wq, Wk, Wv)
out_a, out_b = both[0], both[1]
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled = both.sum(axis=1)
pooled_gap = np.abs(pooled[1] - pooled[0]).max()
both_pos = attention_output(np.stack([X_a, X_a[perm]]) + pos, Wq, Wk, Wv)
pp = both_pos.sum(axis=1)
pooled_gap_pos = np.abs(pp[1] - pp[0]).max()
print(relist_gap, pooled_gap, pooled_gap_pos)
