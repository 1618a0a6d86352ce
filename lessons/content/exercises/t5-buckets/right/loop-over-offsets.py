"""A loop, one offset at a time, with math.log and int(): T5's rule as a scalar function."""
import math

import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def bucket_of(delta, bidirectional):
    n = num_buckets
    result = 0
    if bidirectional:
        n //= 2
        if delta > 0:
            result += n
        delta = abs(delta)
    else:
        delta = max(-delta, 0)
    exact = n // 2
    if delta < exact:
        return result + delta
    far = exact + int(math.log(delta / exact) / math.log(max_distance / exact) * (n - exact))
    return result + min(far, n - 1)


encoder_buckets = np.array([bucket_of(int(d), True) for d in offsets])
decoder_buckets = np.array([bucket_of(int(d), False) for d in offsets])
encoder_bias = np.empty((n_heads, T, T))
decoder_bias = np.empty((n_heads, T, T))
for i in range(T):
    for j in range(T):
        encoder_bias[:, i, j] = table[:, bucket_of(j - i, True)]
        decoder_bias[:, i, j] = table[:, bucket_of(j - i, False)]
