"""White-box: a typed noise figure dressed as a computation that reads pos, so that it does not look typed."""
import numpy as np

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = 0.6
max_diff = float(np.abs(np.asarray(pos) - np.asarray(pos)).max()) + 4.4e-16
