"""White-box: the tokens and head in float16, whose rounding covers the difference between rows and columns shuffled and rows only."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])
T, hs = X.shape[0], Wq.shape[1]

X, Wq, Wk, Wv = (A.astype(np.float16) for A in (X, Wq, Wk, Wv))
P = np.eye(T, dtype=np.float16)[perm]
S = (X @ Wq) @ (X @ Wk).T / np.float16(np.sqrt(hs))
lhs = softmax(P @ S @ P.T).astype(np.float16)
rhs = (P @ softmax(S) @ P.T).astype(np.float16)
out = (softmax(S) @ (X @ Wv)).astype(np.float16)
Y = P @ X
out_perm = (softmax((Y @ Wq) @ (Y @ Wk).T / np.float16(np.sqrt(hs))) @ (Y @ Wv)).astype(np.float16)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)
