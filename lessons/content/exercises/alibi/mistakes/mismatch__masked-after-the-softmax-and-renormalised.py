"""The starter's softmax over the scores plus the unmasked bias, then the later keys set to 0 and each row renormalised:
equal in exact arithmetic, but a later key far above its row takes the whole softmax, and the row left is 0 / 0."""
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
lin = -slopes[:, None, None] * (i - j)
bias = np.where(j <= i, lin, -np.inf)
w = softmax(scores + lin) * (j <= i)
weights = w / w.sum(axis=-1, keepdims=True)
