"""Buckets read from a lookup table over distances 0 to 200, a size typed from the starter's offsets: any offset past
200 is out of the table (a sixth brief-only round)."""
import math

import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def lookup(n):
    exact = n // 2
    rows = [d if d < exact else min(exact + int(math.log(d / exact) / math.log(max_distance / exact) * (n - exact)), n - 1) for d in range(201)]
    return np.array(rows)


def bucket(delta, bidirectional):
    if bidirectional:
        n = num_buckets // 2
        return lookup(n)[np.abs(delta)] + np.where(delta > 0, n, 0)
    return lookup(num_buckets)[np.maximum(-delta, 0)]


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = table[:, bucket(j - i, False)]
