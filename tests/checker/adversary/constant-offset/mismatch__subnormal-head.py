"""White-box: a value projection of 1e-320 (subnormal) and a typed max_diff of 0.0.

The checker computes in float64, where the rerun's gap is still above its tolerance: the typed 0 does not follow.
"""
import numpy as np

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
Wv = np.full((8, 8), 1e-320)
perm = np.array([3, 0, 5, 1, 4, 2])

pos = 0.6
max_diff = 0.0
