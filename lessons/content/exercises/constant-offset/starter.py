"""A constant offset: one vector added at every slot."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

# TODO: pos = an offset, the same at every slot (not all zero)
# TODO: attend to X + pos and to X[:, perm] + pos
# TODO: max_diff = largest |shuffled run
#       - in-order run reordered by perm|
# TODO: print max_diff and explain in a comment why it is tiny
