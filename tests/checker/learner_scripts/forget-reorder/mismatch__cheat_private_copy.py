"""figure computed from a private redraw of the weights, not from Wv"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
_r = np.random.RandomState(42)
_X = _r.randn(1, 6, 8)
_q, _k, _v = (0.5 * _r.randn(8, 8) for _ in range(3))
naive_diff = np.abs(attention_output(_X[:, perm], _q, _k, _v) - attention_output(_X, _q, _k, _v)).max()
