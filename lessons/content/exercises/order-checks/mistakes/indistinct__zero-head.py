"""A head whose value projection is all zeros, with checks 1 and 2 typed as 0: every output is zero, so every check gives 0, even check 3."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
Wv = np.zeros_like(Wv)
perm = np.array([5, 0, 3, 2, 1, 4])

out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = 0.0
pooled_gap = 0.0
pos = 0.6 * (np.arange(6.0)[:, None] + 1.0) * np.ones((1, 8))
pooled_a = attention_output(X_a + pos, Wq, Wk, Wv).sum(axis=0)
pooled_b = attention_output(X_a[perm] + pos, Wq, Wk, Wv).sum(axis=0)
pooled_gap_pos = float(np.abs(pooled_b - pooled_a).max())
