"""The word vectors in float32."""
import numpy as np
from attnpos.core import attention_output, sinusoidal, slot_ramp, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head
X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7).astype(np.float32)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(out_b.sum(0) - out_a.sum(0)).max()

pos = slot_ramp(6, 8)
pooled_gap_pos = np.abs(attention_output(X_a[perm] + pos, Wq, Wk, Wv).sum(0) - attention_output(X_a + pos, Wq, Wk, Wv).sum(0)).max()
