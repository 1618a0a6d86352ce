"""P from np.eye, a softmax of one's own, and the mean as the readout's check."""
import numpy as np

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])


def row_softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


T = len(perm)
P = np.eye(T)[perm]
q, k, v = X @ Wq, X @ Wk, X @ Wv
S = q @ k.T / np.sqrt(q.shape[1])
lhs = row_softmax(P @ S @ P.T)
rhs = P @ row_softmax(S) @ P.T
out = row_softmax(S) @ v
Xp = P @ X
out_perm = row_softmax((Xp @ Wq) @ (Xp @ Wk).T / np.sqrt(q.shape[1])) @ (Xp @ Wv)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)
for label, a, b in [("lhs, rhs", lhs, rhs), ("out_perm, P @ out", out_perm, P @ out), ("pooled_perm, pooled", pooled_perm, pooled)]:
    print(label, np.allclose(a, b))
print("means:", pooled.mean(), pooled_perm.mean())
