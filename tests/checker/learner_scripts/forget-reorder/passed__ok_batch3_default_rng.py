"""batch of 3, np.random.default_rng"""
import numpy as np
from attnpos.core import attention_output

rng = np.random.default_rng(2024)
X = rng.standard_normal((3, 6, 8))
Wq = 0.5 * rng.standard_normal((8, 8))
Wk = 0.5 * rng.standard_normal((8, 8))
Wv = 0.5 * rng.standard_normal((8, 8))
perm = rng.permutation(6)
while (perm == np.arange(6)).all():
    perm = rng.permutation(6)

out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
naive_diff = float(np.abs(out_perm - out).max())
print(perm, naive_diff)
