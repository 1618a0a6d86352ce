"""rhs = P softmax(S) pinv(P): the pseudo-inverse in place of Pᵀ, the same only while P is a permutation."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

T, hs = X.shape[0], Wq.shape[1]
P = np.zeros((T, T))
P[np.arange(T), perm] = 1.0                # row k picks token perm[k]


def head(tokens):
    scores = (tokens @ Wq) @ (tokens @ Wk).T / np.sqrt(hs)
    return scores, softmax(scores) @ (tokens @ Wv)


S, out = head(X)
lhs = softmax(P @ S @ P.T)
rhs = P @ softmax(S) @ np.linalg.pinv(P)
_, out_perm = head(P @ X)
pooled = out.sum(axis=0)                   # invariant: the same for any order
pooled_perm = out_perm.sum(axis=0)

print("largest |lhs - rhs|:", np.abs(lhs - rhs).max())
print("out_perm is P @ out:", np.allclose(out_perm, P @ out))
print("pooled_perm is pooled:", np.allclose(pooled_perm, pooled))
