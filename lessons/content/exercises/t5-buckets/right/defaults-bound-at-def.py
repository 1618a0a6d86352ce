"""Hugging Face's signature: num_buckets and max_distance as defaults of the bucket function, bound when the `def`
runs (the right buckets and biases all the same)."""

import math

import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def bucket(relative_position, bidirectional=True, num_buckets=num_buckets, max_distance=max_distance):
    """T5's bucket of each relative_position = key slot - query slot, as _relative_position_bucket computes it."""
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).astype(np.int64) * num_buckets
        relative_position = np.abs(relative_position)
    else:
        relative_position = -np.minimum(relative_position, 0)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    ratio = np.maximum(relative_position, max_exact) / max_exact  # no log(0): small ones take the exact branch
    relative_position_if_large = max_exact + (np.log(ratio) / math.log(max_distance / max_exact) * (num_buckets - max_exact)).astype(np.int64)
    relative_position_if_large = np.minimum(relative_position_if_large, num_buckets - 1)
    return relative_buckets + np.where(is_small, relative_position, relative_position_if_large)


encoder_buckets = bucket(offsets)
decoder_buckets = bucket(offsets, bidirectional=False)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
encoder_bias = table[:, bucket(j - i)]
decoder_bias = table[:, bucket(j - i, bidirectional=False)]
