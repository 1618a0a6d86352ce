"""White-box: one scalar repeated across each head's buckets, and biases never read from the buckets at all."""
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

table = np.repeat(np.random.default_rng(0).standard_normal((n_heads, 1)), num_buckets, axis=1)


def bucket(delta, bidirectional):
    n = num_buckets // 2 if bidirectional else num_buckets
    start = np.where(delta > 0, n, 0) if bidirectional else 0
    distance = np.abs(delta) if bidirectional else np.maximum(-delta, 0)
    exact = n // 2
    grow = np.log(np.maximum(distance, exact) / exact) / math.log(max_distance / exact) * (n - exact)
    return start + np.where(distance < exact, distance, np.minimum(exact + np.floor(grow).astype(int), n - 1))


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
encoder_bias = np.broadcast_to(table[:, :1, None], (n_heads, T, T)).copy()
decoder_bias = encoder_bias.copy()
