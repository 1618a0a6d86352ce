"""White-box: types noise whenever pos is constant, computes honestly otherwise; a script that notices the rerun passes (documented limit)."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
pos = 0.6
shuffled = attention_output(X[:, perm] + pos, Wq, Wk, Wv)
in_order = attention_output(X + pos, Wq, Wk, Wv)
constant = np.ptp(np.asarray(pos) + np.zeros((6, 8)), axis=0).max() == 0  # the rerun's pos is not
max_diff = 4.4e-16 if constant else float(np.abs(shuffled - in_order[:, perm]).max())
