"""Softmax commutes with a shuffle: P softmax(S) Pᵀ, and what a readout keeps."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

# TODO: P, shape (T, T): the permutation matrix with P @ X == X[perm]
# TODO: S = (X Wq)(X Wk)ᵀ / sqrt(hs), the head's scores, shape (T, T)
# TODO: lhs = softmax(P S Pᵀ) and rhs = P softmax(S) Pᵀ: the same matrix
# TODO: out = softmax(S) (X Wv), and out_perm = the head's outputs on P @ X
# TODO: pooled = out summed over the tokens, pooled_perm = the same for out_perm
# TODO: print your three checks (np.allclose): lhs against rhs, out_perm against P @ out, pooled_perm against pooled
