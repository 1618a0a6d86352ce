"""White-box: the decoder's bias masked with -1e9 instead of -inf: the numbers are not the table's (told as a mismatch; the brief asks for -inf)."""
import math

import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]


def bucket(delta, bidirectional):
    n = num_buckets // 2 if bidirectional else num_buckets
    start = np.where(delta > 0, n, 0) if bidirectional else 0
    distance = np.abs(delta) if bidirectional else np.maximum(-delta, 0)
    exact = n // 2
    grow = np.log(np.maximum(distance, exact) / exact) / math.log(max_distance / exact) * (n - exact)
    return start + np.where(distance < exact, distance, np.minimum(exact + np.floor(grow).astype(int), n - 1))


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = np.where(j > i, -1e9, table[:, bucket(j - i, False)])
