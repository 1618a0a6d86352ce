"""ALiBi: a slope per head for any head count, the causal bias."""
import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
# content scores q.k / sqrt(hs): one (T, T) matrix per head
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))

# TODO: slopes, shape (n_heads,), by the official rule for any
#       head count (heads from 0: with 8 heads, head 0 gets 1/2)
# TODO: bias, shape (n_heads, T, T): -slopes[h] * (i - j) for a
#       key j at or before the query i, and -inf for a later key
# TODO: weights = softmax(scores + bias) over the keys

import math


def get_slopes(n):
    def get_slopes_power_of_2(n):
        start = (2 ** (-2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    else:
        closest_power_of_2 = 2 ** math.floor(math.log2(n))
        return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2 * closest_power_of_2)[0::2][:n - closest_power_of_2]


slopes = np.array(get_slopes(n_heads))

i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)

weights = softmax(scores + bias)
