"""rotate_half splits axis 1 with np.hstack and x[:, d // 2:]: the last axis of a (T, hs) x only, not of a batch (B, T, hs)."""

import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))  # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)  # the slot of each token
hs = Wq.shape[1]

# TODO: inv_freq, one frequency per channel pair:
#       rope_theta ** (-2i / hs) for i = 0 ... hs/2 - 1
# TODO: rotate_half(x): (x1, x2) -> (-x2, x1) on the two
#       halves of the last axis
# TODO: apply_rope(x, positions): x * cos + rotate_half(x) * sin,
#       the angles positions * inv_freq repeated over both halves
# TODO: q, k: X @ Wq and X @ Wk, each rotated by positions;
#       v = X @ Wv is not rotated
# TODO: out = softmax(q @ k.T / sqrt(hs)) @ v   (no mask)

inv_freq = 1 / (rope_theta ** (np.arange(0, hs, 2, dtype=np.float64) / hs))


def rotate_half(x):
    d = x.shape[-1]
    return np.hstack([-x[:, d // 2 :], x[:, : d // 2]])


def apply_rope(x, positions):
    emb = np.tile(positions[:, None] * inv_freq, 2)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


q_proj, k_proj, v = X @ Wq, X @ Wk, X @ Wv
q = apply_rope(q_proj, positions)
k = apply_rope(k_proj, positions)
out = softmax((q @ k.T) * hs**-0.5) @ v
