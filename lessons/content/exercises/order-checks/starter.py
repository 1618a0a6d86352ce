"""Orders A and B of one sentence: what can attention tell?"""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

# (6, 8): the cat sat on the mat
X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
# X_a[perm]: mat the on sat cat the
perm = np.array([5, 0, 3, 2, 1, 4])

# TODO: out_a, out_b = attention outputs of order A and of order B
# TODO: check 1: relist_gap = largest
#       |out_b - out_a relisted in B's order|
# TODO: check 2: pooled_gap = largest
#       |sum of out_b over tokens - sum of out_a|
# TODO: check 3: pos = a (6, 8) signal that differs per slot,
#       added to both orders before attention;
#       pooled_gap_pos = the pooled comparison again
