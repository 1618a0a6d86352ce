"""One angle for every pair: the mean frequency."""

import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))
Wq, Wk, Wv = (0.5 * rng.standard_normal((16, 8)) for _ in range(3))
positions = np.arange(6)
hs = Wq.shape[1]
theta = (1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)).mean()


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x, positions):
    angle = np.outer(positions, np.full(hs // 2, theta))
    emb = np.concatenate([angle, angle], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


q = apply_rope(X @ Wq, positions)
k = apply_rope(X @ Wk, positions)
out = softmax(q @ k.T / np.sqrt(hs)) @ (X @ Wv)
