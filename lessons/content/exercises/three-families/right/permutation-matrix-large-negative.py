"""The shuffle as a permutation matrix (P @ X), and -1e9 for the hidden keys instead of -inf."""
import numpy as np

from attnpos.core import attention_output, sentence_matrix, sinusoidal
from attnpos.core.experiments import SENTENCE_A, sentence_head

X = sentence_matrix(list(SENTENCE_A), 8, seed=7)
Wq, Wk, Wv = sentence_head(7)
perm = np.array([5, 0, 3, 2, 1, 4])
slope = 0.5
T, C = X.shape
P = np.eye(T)[perm]                      # P @ X == X[perm]

pos = sinusoidal(T, C)
bias = -slope * np.abs(np.subtract.outer(np.arange(T), np.arange(T)))
mask = np.triu(np.full((T, T), -1e9), k=1)

gaps = {}
for name, tokens, add in [("none", X, None), ("added", X + pos, None), ("bias", X, bias), ("mask", X, mask)]:
    shuffled = P @ X + (pos if name == "added" else 0)
    out = attention_output(tokens, Wq, Wk, Wv, bias=add)
    gaps[name] = float(np.abs(attention_output(shuffled, Wq, Wk, Wv, bias=add) - P @ out).max())

gap_none, gap_added, gap_bias, gap_mask = gaps["none"], gaps["added"], gaps["bias"], gaps["mask"]
tells = np.array(list(gaps.values())) > 1e-6
