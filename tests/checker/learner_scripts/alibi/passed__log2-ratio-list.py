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


def pow2_slopes(n):
    r = 2.0 ** (-8.0 / n)
    out = [r]
    while len(out) < n:
        out.append(out[-1] * r)
    return out


if (n_heads & (n_heads - 1)) == 0:
    slope_list = pow2_slopes(n_heads)
else:
    below = 1 << (n_heads.bit_length() - 1)
    slope_list = pow2_slopes(below) + pow2_slopes(2 * below)[::2][: n_heads - below]
slopes = np.asarray(slope_list)

i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)

weights = softmax(scores + bias)
