"""Both orders as one batch of two through attention_output, the signals broadcast over it."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix, sinusoidal
from attnpos.core.experiments import SENTENCE_A, sentence_head

X = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])
slope = 0.5
T, C = X.shape

pos = sinusoidal(T, C)
rows, cols = np.indices((T, T))
bias = -slope * np.abs(cols - rows)
mask = np.full((T, T), -np.inf)
mask[cols <= rows] = 0.0

both = np.stack([X, X[perm]])            # (2, T, C): order A, order B


def gap(tokens, add=None):
    out = attention_output(tokens, Wq, Wk, Wv, bias=add)   # (2, T, hs)
    return np.abs(out[1] - out[0][perm]).max()


gap_none, gap_added, gap_bias, gap_mask = (float(gap(both)), float(gap(both + pos)), float(gap(both, bias)), float(gap(both, mask)))
tells = [g > 1e-6 for g in (gap_none, gap_added, gap_bias, gap_mask)]
