"""Each direction written out with np.select, and a decoder bias that carries the causal mask."""
import numpy as np

num_buckets = 32
max_distance = 128
n_heads = 4
T = 12
offsets = np.arange(-200, 201)
table = np.random.default_rng(0).standard_normal((n_heads, num_buckets))


def within(distance, n):
    """Bucket of a non-negative distance among n buckets of one direction."""
    exact = n // 2
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) where the exact branch is taken anyway
        grow = exact + (np.log(distance / exact) / np.log(max_distance / exact) * (n - exact)).astype(np.int64)
    return np.select([distance < exact, grow < n], [distance, grow], n - 1)


def encoder(delta):
    half = num_buckets // 2
    return np.where(delta > 0, half, 0) + within(np.abs(delta), half)


def decoder(delta):
    return within(np.maximum(-delta, 0), num_buckets)


encoder_buckets = encoder(offsets)
decoder_buckets = decoder(offsets)
i, j = np.indices((T, T))
encoder_bias = table[:, encoder(j - i)]
decoder_bias = np.where(j > i, -np.inf, table[:, decoder(j - i)])   # the mask carried along
