"""Each gap the largest signed difference, with no absolute value: an output that moves the other way is missed."""
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

pos = sinusoidal(T, C)                  # family 1: added to the tokens
i = np.arange(T)
bias = -slope * np.abs(i[None, :] - i[:, None])   # family 2: in the scores
mask = np.where(i[None, :] > i[:, None], -np.inf, 0.0)  # family 3: causal


def shuffle_gap(tokens, shuffled, scores_add=None):
    """Largest |head(shuffled) - head(tokens) relisted in the shuffle's order|."""
    out = attention_output(tokens, Wq, Wk, Wv, bias=scores_add)
    out_perm = attention_output(shuffled, Wq, Wk, Wv, bias=scores_add)
    return float((out_perm - out[perm]).max())


gap_none = shuffle_gap(X, X[perm])
gap_added = shuffle_gap(X + pos, X[perm] + pos)   # pos stays in its slots
gap_bias = shuffle_gap(X, X[perm], bias)
gap_mask = shuffle_gap(X, X[perm], mask)

gaps = np.array([gap_none, gap_added, gap_bias, gap_mask])
tells = gaps > 1e-6                     # more than rounding noise

for name, gap, told in zip(["none", "added", "bias", "mask"], gaps, tells):
    print(f"{name:<6} gap {gap:.2e}  tells the shuffle: {told}")
