"""The later keys masked by -1000, added as a triangle of its own: exp(-1000) underflows to 0 in float64, so they get
no weight while the scores stay close together, but a later key scoring more than about 255 above the keys its query
sees comes through (the brief's -1e4 hides one scoring up to about 9,250 above)."""
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
        # head h (from 0) gets 2^(-8(h+1)/n)
        return [start ** (h + 1) for h in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))   # 8 for 12 heads
    extra = get_slopes(2 * closest)[0::2][: n - closest]
    return power_of_2(closest) + extra


slopes = np.array(get_slopes(n_heads))       # (H,)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
distance = (i - j).astype(float)             # how far back j is
m = slopes[:, None, None]                    # (H, 1, 1)
bias = -m * np.maximum(distance, 0) + np.triu(np.full((T, T), -1000.0), k=1)  # (H, T, T): exp(-1000) is 0
weights = softmax(scores + bias)             # before the softmax

print(np.round(slopes, 4))
