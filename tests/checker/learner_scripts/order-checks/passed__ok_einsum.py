"""own attention with einsum"""
import numpy as np
from attnpos.core import attention_output, sentence_matrix, slot_ramp
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

def attend(x):
    q, k, v = (np.einsum("tc,cd->td", x, W) for W in (Wq, Wk, Wv))
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(q.shape[1])
    w = np.exp(s - s.max(1, keepdims=True)); w /= w.sum(1, keepdims=True)
    return np.einsum("ij,jd->id", w, v)
pos = slot_ramp(6, 8)
out_a, out_b = attend(X_a), attend(X_a[perm])
relist_gap = np.abs(out_b - out_a[perm]).max()
pooled_gap = np.abs(np.einsum("td->d", out_b) - np.einsum("td->d", out_a)).max()
pooled_gap_pos = np.abs(np.einsum("td->d", attend(X_a[perm] + pos)) - np.einsum("td->d", attend(X_a + pos))).max()
