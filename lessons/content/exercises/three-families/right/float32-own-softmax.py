"""Float32 throughout, with a softmax and a head of one's own."""
import numpy as np

from attnpos.core import sentence_matrix, sinusoidal
from attnpos.core.experiments import SENTENCE_A, sentence_head

X = sentence_matrix(list(SENTENCE_A), 8, seed=7).astype(np.float32)
Wq, Wk, Wv = (W.astype(np.float32) for W in sentence_head(7))
perm = np.array([5, 0, 3, 2, 1, 4])
slope = np.float32(0.5)
T, C = X.shape

pos = sinusoidal(T, C).astype(np.float32)
offset = np.arange(T)[None, :] - np.arange(T)[:, None]      # (T, T) j - i
bias = (-slope * np.abs(offset)).astype(np.float32)
mask = np.where(offset > 0, np.float32(-np.inf), np.float32(0))


def softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def head(tokens, add=0):
    scores = (tokens @ Wq) @ (tokens @ Wk).T / np.float32(np.sqrt(Wq.shape[1]))
    return softmax(scores + add) @ (tokens @ Wv)


def gap(tokens, shuffled, add=0):
    return float(np.max(np.abs(head(shuffled, add) - head(tokens, add)[perm])))


gap_none = gap(X, X[perm])
gap_added = gap(X + pos, X[perm] + pos)
gap_bias = gap(X, X[perm], bias)
gap_mask = gap(X, X[perm], mask)
tells = np.array([gap_none, gap_added, gap_bias, gap_mask]) > 1e-6
print(tells)
