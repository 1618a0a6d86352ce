"""One head, three families of position: which lets it tell a sentence from its shuffle?"""
import numpy as np

from attnpos.core import attention_output, sentence_matrix, sinusoidal
from attnpos.core.experiments import SENTENCE_A, sentence_head

# (6, 8): the cat sat on the mat
X = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
# X[perm]: mat the on sat cat the
perm = np.array([5, 0, 3, 2, 1, 4])
slope = 0.5
T, C = X.shape

# TODO: the three signals, one of each family
#   pos:  (T, C) a vector per slot, added to the tokens (sinusoidal)
#   bias: (T, T) -slope * |j - i|, added to the scores
#   mask: (T, T) 0 where j <= i, -inf where the key is ahead
# TODO: gap_none, gap_added, gap_bias, gap_mask: for each, the largest
#   |outputs of the shuffle - outputs of the sentence relisted|
# TODO: tells: four booleans, which gaps are more than rounding
