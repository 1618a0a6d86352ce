"""The weights made with −inf at every later key, and then the bias's −inf replaced by −100 (to plot it, say): the
weights are right, but the bias the script leaves masks with a number too small to hide a key."""
import math

import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
# content scores q.k / sqrt(hs): one (T, T) matrix per head
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))


def get_slopes(n):
    def power_of_2(n):
        start = 2 ** (-8 / n)
        return [start ** (h + 1) for h in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]


slopes = np.array(get_slopes(n_heads))  # (H,)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)  # (H, T, T)
weights = softmax(scores + bias)
bias[np.isinf(bias)] = -100.0  # finite, for a heat map
