"""own attention with einsum"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

def attn(x):
    q = np.einsum("btc,ch->bth", x, Wq)
    k = np.einsum("btc,ch->bth", x, Wk)
    v = np.einsum("btc,ch->bth", x, Wv)
    s = np.einsum("bih,bjh->bij", q, k) / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w /= w.sum(axis=-1, keepdims=True)
    return np.einsum("bij,bjh->bih", w, v)

out = attn(X)
out_perm = attn(X[:, perm])
naive_diff = np.abs(out_perm - out).max()
print(naive_diff)
