"""White-box: a head of its own in float16, whose rounding is as large as a gap."""
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


X, Wq, Wk, Wv, pos, bias = (A.astype(np.float16) for A in (X, Wq, Wk, Wv, pos, bias))
mask = mask.astype(np.float16)


def head(tokens, add=0):
    scores = (tokens @ Wq) @ (tokens @ Wk).T / np.float16(np.sqrt(8)) + add
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ (tokens @ Wv)


def gap(tokens, shuffled, add=0):
    return float(np.abs(head(shuffled, add) - head(tokens, add)[perm]).max())


gap_none = gap(X, X[perm])
gap_added = gap(X + pos, X[perm] + pos)
gap_bias = gap(X, X[perm], bias)
gap_mask = gap(X, X[perm], mask)
tells = np.array([gap_none, gap_added, gap_bias, gap_mask]) > 1e-2
