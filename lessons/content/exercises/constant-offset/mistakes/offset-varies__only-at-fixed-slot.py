"""An offset that differs only at slot 4, the slot perm leaves in place: this shuffle cannot show it, the gap stays at noise."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = np.full((6, 8), 0.6)
pos[4] = 1.5
max_diff = np.abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max()
