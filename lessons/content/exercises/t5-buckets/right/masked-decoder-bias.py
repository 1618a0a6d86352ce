"""Both directions from one rule written with np.select, and a decoder bias that carries the causal mask."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def bucket(delta, bidirectional):
    n = num_buckets // 2 if bidirectional else num_buckets
    distance = np.abs(delta) if bidirectional else np.clip(-delta, 0, None)
    exact = n // 2
    scaled = np.log(np.maximum(distance, 1) / exact) / np.log(max_distance / exact) * (n - exact)
    far = np.minimum(exact + scaled.astype(np.int64), n - 1)  # non-negative where it is chosen: astype truncates
    within = np.select([distance < exact], [distance], far)
    return within + (n * (delta > 0) if bidirectional else 0)


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
ahead = np.arange(T)[None, :] - np.arange(T)[:, None]  # (T, T) key − query
mask = np.triu(np.full((T, T), -np.inf), k=1)
encoder_bias = table[:, bucket(ahead, True)]
decoder_bias = table[:, bucket(ahead, False)] + mask
