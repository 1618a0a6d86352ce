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
#       (accepted too, as the brief says: +slopes[h] * j under that mask,
#       and -1e9 for -inf: both give exactly the same weights)
# TODO: weights = softmax(scores + bias) over the keys
