"""White-box: the course's bucket rule through its module imported under another name."""
import numpy as np

import attnpos.core.relative as rules

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]

encoder_buckets = rules.relative_position_bucket(offsets, True, num_buckets, max_distance)
decoder_buckets = rules.relative_position_bucket(offsets, False, num_buckets, max_distance)
encoder_bias = table[:, rules.relative_position_bucket(j - i, True, num_buckets, max_distance)]
decoder_bias = table[:, rules.relative_position_bucket(j - i, False, num_buckets, max_distance)]
