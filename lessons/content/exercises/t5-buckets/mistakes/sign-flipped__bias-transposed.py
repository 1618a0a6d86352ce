"""encoder_bias built with bucket(j - i), then transposed to [head, key, query] (a brief-only writer's script, issue 35)."""
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
    n = num_buckets
    out = np.zeros(delta.shape, dtype=np.int64)
    if bidirectional:
        n = n // 2
        out += (delta > 0).astype(np.int64) * n
        distance = np.abs(delta)
    else:
        distance = -np.minimum(delta, 0)
    exact = n // 2
    small = distance < exact
    large = exact + (np.log(np.maximum(distance, exact) / exact) / np.log(max_distance / exact) * (n - exact)).astype(np.int64)
    large = np.minimum(large, n - 1)
    return out + np.where(small, distance, large)
encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(T)[:, None]; j = np.arange(T)[None, :]
encoder_bias = (table[:, bucket(j - i, True)]).transpose(0, 2, 1)
decoder_bias = table[:, bucket(j - i, False)]
