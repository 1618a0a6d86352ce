"""Extra slopes every other one from the first half of twice the power below, p2(2c)[0:c:2]: too few once n_heads − c > c/2 (14 heads: 12 slopes; 100 heads: 96)."""

import math

import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))


def power_of_2(n):
    return [2 ** (-8 * (h + 1) / n) for h in range(n)]


if math.log2(n_heads).is_integer():
    slopes = np.array(power_of_2(n_heads))
else:
    c = 2 ** math.floor(math.log2(n_heads))
    slopes = np.array(power_of_2(c) + power_of_2(2 * c)[0:c:2][: n_heads - c])
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
weights = softmax(scores + bias)
