"""RoPE in one head, half-split (Hugging Face's rotate_half)."""
import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))      # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)              # the slot of each token
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

inv_freq = np.power(rope_theta, -np.arange(hs // 2) * 2.0 / hs)


def rotate_half(x):
    return np.concatenate([-x[..., hs // 2:], x[..., :hs // 2]], axis=-1)


def rot_matrix(pos):
    R = np.zeros((hs, hs))
    for i, f in enumerate(inv_freq):
        c, s = np.cos(pos * f), np.sin(pos * f)
        j = i + hs // 2
        R[i, i], R[i, j] = c, -s
        R[j, i], R[j, j] = s, c
    return R


def apply_rope(x, positions):
    Rs = np.stack([rot_matrix(p) for p in positions])
    return np.einsum('tij,tj->ti', Rs, x)


q = apply_rope(X @ Wq, positions)
k = apply_rope(X @ Wk, positions)
v = X @ Wv
out = softmax(q @ k.T / np.sqrt(hs)) @ v
