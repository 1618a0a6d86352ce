"""P as a True/False matrix (arange == perm[:, None]): P @ X == X[perm] all the same (found by a writer who saw only the brief)."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

T = X.shape[0]
hs = Wq.shape[1]
P = (np.arange(T)[None, :] == perm[:, None])
S = (X @ Wq) @ (X @ Wk).T / np.sqrt(hs)
lhs = softmax(P @ S @ P.T)
rhs = P @ softmax(S) @ P.T
def head(Z):
    return softmax((Z @ Wq) @ (Z @ Wk).T / np.sqrt(hs)) @ (Z @ Wv)
out = head(X)
out_perm = head(P @ X)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)
print("lhs == rhs:", np.allclose(lhs, rhs))
print("out_perm == P @ out:", np.allclose(out_perm, P @ out))
print("pooled_perm == pooled:", np.allclose(pooled_perm, pooled))
