"""P from the inverse shuffle's columns, `np.eye(T)[:, np.argsort(perm)]`: right while perm is a permutation, not where it repeats tokens (a brief-only writer's script, round 10, issue 35)."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

T = X.shape[0]
P = np.eye(T)[:, np.argsort(perm)]
hs = Wq.shape[1]
S = (X @ Wq) @ (X @ Wk).T / np.sqrt(hs)
lhs = softmax(P @ S @ P.T)
rhs = P @ softmax(S) @ P.T
def head(Z):
    s = (Z @ Wq) @ (Z @ Wk).T / np.sqrt(Wq.shape[1])
    return softmax(s) @ (Z @ Wv)
out = head(X)
out_perm = head(X[perm])
ones = np.ones(T)
pooled = ones @ out
pooled_perm = ones @ out_perm
print("lhs vs rhs:", np.abs(lhs - rhs).max())
print("out_perm vs P @ out:", np.allclose(out_perm, P @ out))
print("pooled vs pooled_perm:", np.allclose(pooled, pooled_perm))
