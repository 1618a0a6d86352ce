"""White-box: check 2 copied from check 1; noise comes in multiples of the unit roundoff, and here both are 8.88e-16 on both runs (documented limit)."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

# (6, 8): the cat sat on the mat
X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
# X_a[perm]: mat the on sat cat the
perm = np.array([5, 0, 3, 2, 1, 4])
out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = float(np.abs(out_b - out_a[perm]).max())
pooled_gap = relist_gap          # "also noise", never summed
pos = 0.6 * (np.arange(6.0)[:, None] + 1.0) * np.ones((1, 8))
pooled_a = attention_output(X_a + pos, Wq, Wk, Wv).sum(axis=0)
pooled_b = attention_output(X_a[perm] + pos, Wq, Wk, Wv).sum(axis=0)
pooled_gap_pos = float(np.abs(pooled_b - pooled_a).max())
