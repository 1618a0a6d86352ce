"""Orders A and B of one sentence: what can attention tell?"""
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

# Check 1: order B's outputs are order A's, relisted.
relist_gap = float(np.abs(out_b - out_a[perm]).max())

# Check 2: a sum over tokens cannot see the listing, so it
# cannot tell A from B.
pooled_gap = float(
    np.abs(out_b.sum(axis=0) - out_a.sum(axis=0)).max())

# Check 3: a per-slot signal stays in its slots; the words move.
# (6, 8): slot t holds 0.6*(t+1) in every channel
pos = 0.6 * (np.arange(6.0)[:, None] + 1.0) * np.ones((1, 8))
pooled_a = attention_output(X_a + pos, Wq, Wk, Wv).sum(axis=0)
pooled_b = attention_output(
    X_a[perm] + pos, Wq, Wk, Wv).sum(axis=0)
pooled_gap_pos = float(np.abs(pooled_b - pooled_a).max())

print(f"check 1, relisted outputs: {relist_gap:.1e}")
print(f"check 2, pooled readout:   {pooled_gap:.1e}")
print(f"check 3, with position:    {pooled_gap_pos:.2f}")
