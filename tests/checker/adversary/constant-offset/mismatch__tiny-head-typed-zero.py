"""White-box: a value projection of 1e-300 so that every figure is nearly zero, and a typed 0.0."""
import numpy as np

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
Wv = Wv * 1e-300
pos = 0.6
max_diff = 0.0
