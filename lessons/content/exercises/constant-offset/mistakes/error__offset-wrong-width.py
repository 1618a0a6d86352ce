"""An offset of width 6 cannot be added to tokens of width 8."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = np.full(6, 0.6)
in_order = attention_output(X + pos, Wq, Wk, Wv)
max_diff = 0.0
