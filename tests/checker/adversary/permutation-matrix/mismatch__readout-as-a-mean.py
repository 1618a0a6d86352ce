"""White-box: the readout as a mean over the tokens: invariant too, but not the sum the brief asks for."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])
T, hs = X.shape[0], Wq.shape[1]

P = np.eye(T)[perm]
S = (X @ Wq) @ (X @ Wk).T / np.sqrt(hs)
lhs = softmax(P @ S @ P.T)
rhs = P @ softmax(S) @ P.T
out = softmax(S) @ (X @ Wv)
Y = P @ X
out_perm = softmax((Y @ Wq) @ (Y @ Wk).T / np.sqrt(hs)) @ (Y @ Wv)
pooled = out.mean(axis=0)
pooled_perm = out_perm.mean(axis=0)
