"""Sets X to the shuffled tokens once out is computed: every array is right for the tokens it was computed from (found by a writer who saw only the brief)."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

T = X.shape[0]
hs = Wq.shape[1]
P = np.eye(T)[perm]
S = (X @ Wq) @ (X @ Wk).T / np.sqrt(hs)
lhs = softmax(P @ S @ P.T)
rhs = P @ softmax(S) @ P.T
def head(Z):
    return softmax((Z @ Wq) @ (Z @ Wk).T / np.sqrt(hs)) @ (Z @ Wv)
out = head(X)
X_orig = X
X = P @ X          # the shuffled tokens
out_perm = head(X)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)
print(np.allclose(lhs, rhs), np.allclose(out_perm, P @ out), np.allclose(pooled, pooled_perm))
