"""The log ratio in float16: T5's buckets at the starter's sizes and the first rerun's, but at 128 buckets and a
max_distance past 1,500 its rounding floors some offsets into the neighbouring bucket (a sixth brief-only round)."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def bucket(delta, bidirectional):
    n = num_buckets // 2 if bidirectional else num_buckets
    start = np.where(delta > 0, n, 0) if bidirectional else 0
    distance = np.abs(delta) if bidirectional else np.maximum(-delta, 0)
    exact = n // 2
    ratio = np.maximum(distance, exact).astype(np.float16) / np.float16(exact)
    grow = np.log(ratio) / np.float16(np.log(max_distance / exact)) * np.float16(n - exact)
    far = np.minimum(exact + np.floor(grow).astype(int), n - 1)
    return start + np.where(distance < exact, distance, far)


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
encoder_bias = table[:, bucket(j - i, True)]
decoder_bias = table[:, bucket(j - i, False)]
