"""Positions kept as uint8: past 255 they wrap round to 0, which no sequence of 256 tokens or fewer shows."""

import math

import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))


def get_slopes(n):
    def power_of_2(n):
        start = 2 ** (-8 / n)
        # head h (from 0) gets 2^(-8(h+1)/n)
        return [start ** (h + 1) for h in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))  # 8 for 12 heads
    extra = get_slopes(2 * closest)[0::2][: n - closest]
    return power_of_2(closest) + extra


slopes = np.array(get_slopes(n_heads))  # (H,)
pos = np.arange(T, dtype=np.uint8).astype(np.int64)
i = pos[:, None]
j = pos[None, :]
m = slopes[:, None, None]  # (H, 1, 1)
bias = np.where(j <= i, -m * (i - j), -np.inf)
weights = softmax(scores + bias)
