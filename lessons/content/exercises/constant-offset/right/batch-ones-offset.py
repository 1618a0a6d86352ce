"""A batch of three and a narrow head, the offset a vector of ones."""
import numpy as np
from attnpos.core import attention_output
rng = np.random.RandomState(5)
X = rng.randn(3, 6, 8)
Wq, Wk = 0.5 * rng.randn(8, 4), 0.5 * rng.randn(8, 4)
Wv = 0.5 * rng.randn(8, 8)
perm = (1, 2, 3, 4, 5, 0)
pos = np.ones(8)
max_diff = np.abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max()
