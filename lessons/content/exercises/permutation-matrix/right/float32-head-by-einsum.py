"""The head run in float32 (its tokens and weights cast), by einsum; P, S, lhs and rhs in float64."""
import numpy as np

from attnpos.core import softmax

rng = np.random.default_rng(2)
X = rng.standard_normal((5, 4))            # (T, C): five tokens of your own
Wq, Wk, Wv = (rng.standard_normal((4, 4)) for _ in range(3))
perm = np.array([2, 0, 4, 1, 3])           # slot k of the shuffle holds token perm[k]

T = len(perm)
P = np.zeros((T, T))
P[np.arange(T), perm] = 1
hs = Wk.shape[-1]
S = np.einsum("ic,jc->ij", X @ Wq, X @ Wk) / np.sqrt(hs)
lhs = softmax(np.einsum("ia,ab,jb->ij", P, S, P))
rhs = np.einsum("ia,ab,jb->ij", P, softmax(S), P)


def head(Z):
    Z, Wq32, Wk32, Wv32 = (a.astype(np.float32) for a in (Z, Wq, Wk, Wv))
    s = np.einsum("ic,jc->ij", Z @ Wq32, Z @ Wk32) / np.float32(np.sqrt(hs))
    return softmax(s) @ (Z @ Wv32)


out = head(X)
out_perm = head(P @ X)
pooled = out.sum(axis=0)
pooled_perm = out_perm.sum(axis=0)


def show(label, a, b):
    print(label, np.abs(a - b).max())


show("lhs vs rhs:", lhs, rhs)
show("out_perm vs P @ out:", out_perm, P @ out)
show("pooled_perm vs pooled:", pooled_perm, pooled)
