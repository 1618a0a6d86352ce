"""setup and comparison in helper functions"""
import numpy as np
from attnpos.core import attention_output


def make_setup(seed=42):
    rng = np.random.RandomState(seed)
    X = rng.randn(1, 6, 8)
    Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
    return X, Wq, Wk, Wv


def largest_gap(a, b):
    return np.abs(a - b).max()


X, Wq, Wk, Wv = make_setup()
perm = np.array([3, 0, 5, 1, 4, 2])
out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
naive_diff = largest_gap(out_perm, out)
print(naive_diff)
