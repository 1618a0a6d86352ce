"""The base copied into a name of its own, base = 10000.0, and inv_freq computed from it rather than from rope_theta."""

import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))  # (T, C): six tokens
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)  # the slot of each token
hs = Wq.shape[1]

base = 10000.0
inv_freq = 1.0 / base ** (np.arange(0, hs, 2) / hs)


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x, positions):
    freqs = np.outer(positions, inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


q = apply_rope(X @ Wq, positions)
k = apply_rope(X @ Wk, positions)
out = softmax(q @ k.T / np.sqrt(hs)) @ (X @ Wv)
