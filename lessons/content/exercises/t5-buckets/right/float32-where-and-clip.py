"""float32 arithmetic, np.errstate around a log that meets 0, and the cap with np.clip."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets)).astype(np.float32)


def bucket(delta, bidirectional):
    n = num_buckets // 2 if bidirectional else num_buckets
    upper = (delta > 0) * n if bidirectional else 0
    distance = np.abs(delta) if bidirectional else -np.minimum(delta, 0)
    exact = n // 2
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) = -inf, masked by the where below
        grow = np.log(distance.astype(np.float32) / np.float32(exact)) / np.float32(np.log(max_distance / exact)) * np.float32(n - exact)
        far = np.clip(exact + np.nan_to_num(grow, neginf=0.0).astype(np.int64), 0, n - 1)
    return upper + np.where(distance < exact, distance, far)


encoder_buckets = bucket(offsets, True)
decoder_buckets = bucket(offsets, False)
rel = np.arange(T)[None, :] - np.arange(T)[:, None]
encoder_bias = table[:, bucket(rel, True)]
decoder_bias = table[:, bucket(rel, False)]
