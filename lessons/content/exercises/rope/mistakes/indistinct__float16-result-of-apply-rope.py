"""Angles in float64, but apply_rope's result cast to float16: q and k keep about three digits."""
import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))      # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)              # the slot of each token
hs = Wq.shape[1]

inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)

def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)

def apply_rope(x, positions):
    freqs = np.outer(positions, inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return (x * np.cos(emb) + rotate_half(x) * np.sin(emb)).astype(np.float16)

q = apply_rope(X @ Wq, positions)
k = apply_rope(X @ Wk, positions)
v = X @ Wv
out = softmax(q @ k.T / np.sqrt(hs)) @ v
