"""S divided by √ of the values' width, Wv.shape[1], which is the queries' width in the starter (a brief-only writer's script, round 10, issue 35)."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

T = X.shape[0]
P = np.eye(T)[perm]
hs = Wv.shape[1]
S = (X @ Wq) @ (X @ Wk).T / np.sqrt(hs)
lhs = softmax(P @ S @ P.T)
rhs = P @ softmax(S) @ P.T
def head(Z):
    return softmax((Z @ Wq) @ (Z @ Wk).T / np.sqrt(Wv.shape[1])) @ (Z @ Wv)
out = softmax(S) @ (X @ Wv)
out_perm = head(P @ X)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)
print(np.allclose(lhs, rhs), np.allclose(out_perm, P @ out), np.allclose(pooled, pooled_perm))
