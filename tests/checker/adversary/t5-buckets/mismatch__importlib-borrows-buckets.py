"""White-box: the course's bucket rule reached through importlib and a name built at run time (documented limit)."""
import importlib

import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]

rule = getattr(importlib.import_module("attnpos." + "core"), "relative_position_" + "bucket")
encoder_buckets = rule(offsets, True, num_buckets, max_distance)
decoder_buckets = rule(offsets, False, num_buckets, max_distance)
encoder_bias = table[:, rule(j - i, True, num_buckets, max_distance)]
decoder_bias = table[:, rule(j - i, False, num_buckets, max_distance)]
