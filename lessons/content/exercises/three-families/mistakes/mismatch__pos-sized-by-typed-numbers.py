"""pos = sinusoidal(6, 8): the starter's T and C typed into the added vector alone (a brief-only writer's script, issue 35)."""
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
pos = sinusoidal(6, 8)
i = np.arange(T)
d = i[None, :] - i[:, None]
bias = -slope * np.abs(d)
mask = np.where(d > 0, -np.inf, 0.0)
def gap(Xa, Xb, B=None):
    a = attention_output(Xa, Wq, Wk, Wv, bias=B)
    b = attention_output(Xb, Wq, Wk, Wv, bias=B)
    return np.abs(b - a[perm]).max()
gap_none = gap(X, X[perm])
gap_added = gap(X + pos, X[perm] + pos)
gap_bias = gap(X, X[perm], bias)
gap_mask = gap(X, X[perm], mask)
tells = np.array([gap_none, gap_added, gap_bias, gap_mask]) > 1e-6
print(tells)
