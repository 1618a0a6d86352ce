"""float32 throughout"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7).astype(np.float32)
Wq, Wk, Wv = (w.astype(np.float32) for w in sentence_head(7))
perm = np.array([5, 0, 3, 2, 1, 4])
out_a = attention_output(X_a, Wq, Wk, Wv).astype(np.float32)
out_b = attention_output(X_a[perm], Wq, Wk, Wv).astype(np.float32)
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max()
pos = (np.float32(0.6) * np.arange(1, 7, dtype=np.float32))[:, None] * np.ones((6, 8), np.float32)
pa = attention_output(X_a + pos, Wq, Wk, Wv).astype(np.float32)
pb = attention_output(X_a[perm] + pos, Wq, Wk, Wv).astype(np.float32)
pooled_gap_pos = np.abs(pb.sum(axis=0) - pa.sum(axis=0)).max()
print(relist_gap, pooled_gap, pooled_gap_pos)
