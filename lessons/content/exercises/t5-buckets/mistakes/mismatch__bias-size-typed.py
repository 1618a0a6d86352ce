"""Builds the biases on np.arange(12), the starter's T typed in, so they keep their size when T changes (found by a writer who saw only the brief)."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
# the offsets Δ = key slot − query slot your buckets are read at
offsets = np.arange(-200, 201)
# one learned scalar per head and per bucket (drawn at random here)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))

def bucket(delta, bidirectional):
    delta = np.asarray(delta)
    if bidirectional:
        n = num_buckets // 2
        start = np.where(delta > 0, n, 0)
        distance = np.abs(delta)
    else:
        n = num_buckets
        start = 0
        distance = np.maximum(-delta, 0)
    exact = n // 2
    large = exact + np.floor(np.log(np.maximum(distance, exact) / exact) / np.log(max_distance / exact) * (n - exact)).astype(int)
    large = np.minimum(large, n - 1)
    return start + np.where(distance < exact, distance, large)
encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(12)[:, None]
j = np.arange(12)[None, :]
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = table[:, bucket(j - i, False)]
