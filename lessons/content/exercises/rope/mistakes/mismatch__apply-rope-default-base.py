"""apply_rope has the base as a default argument, 10000 typed in; the script passes rope_theta, so q and k are right (brief-only round 14, w31)."""

import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))  # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)  # the slot of each token
hs = Wq.shape[1]

inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    freqs = np.outer(positions, 1.0 / theta ** (np.arange(0, d, 2) / d))
    emb = np.concatenate([freqs, freqs], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


q = apply_rope(X @ Wq, positions, rope_theta)
k = apply_rope(X @ Wk, positions, rope_theta)
v = X @ Wv
out = softmax(q @ k.T / np.sqrt(hs)) @ v
