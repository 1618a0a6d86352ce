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

slopes = np.array([0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125,
                   0.00390625, 0.70710678, 0.35355339, 0.1767767, 0.08838835])

i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)

weights = softmax(scores + bias)
