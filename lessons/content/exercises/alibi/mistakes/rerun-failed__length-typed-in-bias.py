"""Bias built on np.arange(7), the starter's T typed in (a brief-only writer's script, issue 35)."""
import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
# content scores q.k / sqrt(hs): one (T, T) matrix per head
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))

import math
def get_slopes(n):
    def pow2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return pow2(n)
    closest = 2 ** math.floor(math.log2(n))
    return pow2(closest) + get_slopes(2 * closest)[0::2][: n - closest]
slopes = np.array(get_slopes(n_heads))
i = np.arange(7)[:, None]
j = np.arange(7)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
weights = softmax(scores + bias)
