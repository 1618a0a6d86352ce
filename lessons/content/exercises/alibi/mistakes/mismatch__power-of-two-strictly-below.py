"""Power below computed from n-1 (2**floor(log2(n-1))), so a power-of-two count is split wrongly (8 heads -> 4 + 4) (a brief-only writer's script, issue 35)."""
import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
# content scores q.k / sqrt(hs): one (T, T) matrix per head
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))

import math
def pow2(n):
    return [2 ** (-8 * (h + 1) / n) for h in range(n)]
p = 2 ** math.floor(math.log2(n_heads - 1))
slopes = np.array(pow2(p) + pow2(2 * p)[0::2][: n_heads - p])
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
weights = softmax(scores + bias)
