"""White-box: the bare head's gap typed as the 0 that theory predicts: rounding on the shuffles, but the rerun whose perm is no shuffle gives the bare head a real gap (once a documented limit)."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix, sinusoidal
from attnpos.core.experiments import SENTENCE_A, sentence_head

X = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])
slope = 0.5
T, C = X.shape
pos = sinusoidal(T, C)
i = np.arange(T)
bias = -slope * np.abs(i[None, :] - i[:, None])
mask = np.where(i[None, :] > i[:, None], -np.inf, 0.0)


def shuffle_gap(tokens, shuffled, add=None):
    out = attention_output(tokens, Wq, Wk, Wv, bias=add)
    return float(np.abs(attention_output(shuffled, Wq, Wk, Wv, bias=add) - out[perm]).max())


gap_none = 0.0
gap_added = shuffle_gap(X + pos, X[perm] + pos)
gap_bias = shuffle_gap(X, X[perm], bias)
gap_mask = shuffle_gap(X, X[perm], mask)
tells = np.array([gap_none, gap_added, gap_bias, gap_mask]) > 1e-6
