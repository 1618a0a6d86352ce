"""A loop that never ends."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix
from attnpos.core.experiments import SENTENCE_A, sentence_head

# (6, 8): the cat sat on the mat
X_a = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
# X_a[perm]: mat the on sat cat the
perm = np.array([5, 0, 3, 2, 1, 4])

while True:
    pass
