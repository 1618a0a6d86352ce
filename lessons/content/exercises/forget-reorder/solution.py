"""Forget to reorder: compare the runs slot by slot."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)          # the lesson's seed
# drawn first: 1 sequence, 6 tokens, width 8
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

out = attention_output(X, Wq, Wk, Wv)
out_perm = attention_output(X[:, perm], Wq, Wk, Wv)

# Row k of out_perm is the output of token perm[k]; row k of out
# is the output of token k. Without reordering out we subtract
# the outputs of two different tokens, so the gap is of order 1.
# Attention is still equivariant: out_perm equals out[:, perm]
# up to rounding.
naive_diff = float(np.abs(out_perm - out).max())
print(f"naive_diff = {naive_diff:.2f}")
