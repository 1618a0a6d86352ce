"""The decoder bias read at the encoder's buckets, with a right causal mask (a brief-only writer's script, issue 35)."""
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
    far = exact + np.floor(np.log(np.maximum(distance, exact) / exact) / np.log(max_distance / exact) * (n - exact))
    far = np.minimum(far, n - 1)
    return (start + np.where(distance < exact, distance, far)).astype(int)
encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(T)[:, None]; j = np.arange(T)[None, :]
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = np.where(j <= i, table[:, bucket(j - i, True)], -np.inf)
