"""A window per head: keys more than ln(100)/slopes[h] back masked with −inf; no key that far back at the starter's
T = 7, so only a rerun shows it."""
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

slopes = np.array(get_slopes(n_heads))
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
window = np.log(100) / slopes
keep = (j <= i)[None] & ((i - j)[None] <= window[:, None, None])
bias = np.where(keep, -slopes[:, None, None] * (i - j), -np.inf)
weights = softmax(scores + bias)
