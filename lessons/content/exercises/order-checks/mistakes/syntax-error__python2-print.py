"""Prints the first check with Python 2's print statement."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])

out_a = attention_output(X_a, Wq, Wk, Wv)
out_b = attention_output(X_a[perm], Wq, Wk, Wv)
relist_gap = float(np.abs(out_b - out_a[perm]).max())
print "check 1:", relist_gap
