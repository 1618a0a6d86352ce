"""The causal mask put on the first head alone: a loop over the heads that stops after head 0, so heads 1 … 11 keep
−m·(i − j), positive, on every later key and each of their queries sees the future."""

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
bias = -slopes[:, None, None] * (i - j)  # (H, T, T)
later = np.broadcast_to(j > i, (T, T))
for h in range(1):  # meant to be range(n_heads)
    bias[h][later] = -np.inf
weights = softmax(scores + bias)
