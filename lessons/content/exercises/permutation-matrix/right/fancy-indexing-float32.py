"""float32 arrays, and the shuffle applied by indexing where the matrix is not needed."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4)).astype(np.float32)
Wq, Wk, Wv = (rng.standard_normal((4, 4)).astype(np.float32) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])

T, hs = X.shape[0], Wq.shape[1]
P = np.eye(T, dtype=np.float32)[perm]
S = (X @ Wq) @ (X @ Wk).T / np.float32(np.sqrt(hs))
lhs = softmax(S[perm][:, perm])            # P S Pᵀ by indexing
rhs = softmax(S)[perm][:, perm]
out = softmax(S) @ (X @ Wv)
Xs = X[perm]
out_perm = softmax((Xs @ Wq) @ (Xs @ Wk).T / np.float32(np.sqrt(hs))) @ (Xs @ Wv)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)
gaps = {"lhs - rhs": np.abs(lhs - rhs).max(), "out_perm - P @ out": np.abs(out_perm - out[perm]).max(), "pooled_perm - pooled": np.abs(pooled_perm - pooled).max()}
for check, gap in gaps.items():
    print(f"largest |{check}|: {gap:.2e}")
