"""Forget to reorder: compare the runs slot by slot."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)          # the lesson's seed
# drawn first: 1 sequence, 6 tokens, width 8
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

# TODO: out = the attention output of X
# TODO: out_perm = the attention output of X with its tokens
#       shuffled by perm
# TODO: naive_diff = the largest |out_perm - out|,
#       WITHOUT reordering out
# TODO: explain in a comment why naive_diff is large
