"""T5's relative position buckets, and the bias they index."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
# the offsets Δ = key slot − query slot your buckets are read at
offsets = np.arange(-200, 201)
# one learned scalar per head and per bucket (drawn at random here)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))

# TODO: encoder_buckets, same shape as offsets: the bidirectional bucket of each offset
# TODO: decoder_buckets, same shape: the causal bucket of each offset
# TODO: encoder_bias and decoder_bias, shape (n_heads, T, T):
#       table[h, bucket(j - i)] for query slot i and key slot j
#       (the decoder's may carry the causal mask, -inf where j > i, or not)
