"""The log ratio in float32, as Hugging Face's PyTorch T5 computes it (float32 distances, Python's math.log for the
denominator), truncated with astype: T5's buckets at every size the checker tries."""
import math

import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def bucket(delta, bidirectional):
    n = num_buckets // 2 if bidirectional else num_buckets
    start = (delta > 0).astype(np.int64) * n if bidirectional else 0
    distance = np.abs(delta) if bidirectional else np.maximum(-delta, 0)
    exact = n // 2
    ratio = np.maximum(distance, exact).astype(np.float32) / exact  # float32, as relative_position.float() is
    large = exact + (np.log(ratio) / math.log(max_distance / exact) * (n - exact)).astype(np.int64)
    return start + np.where(distance < exact, distance, np.minimum(large, n - 1))


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = table[:, bucket(j - i, False)]
