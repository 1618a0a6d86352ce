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

half = hs // 2
inv_freq = np.array([rope_theta ** (-2 * i / hs) for i in range(half)])


def rotate_token(vec, pos):
    res = np.empty_like(vec)
    for i in range(half):
        a, b = vec[i], vec[i + half]
        ang = pos * inv_freq[i]
        res[i] = a * np.cos(ang) - b * np.sin(ang)
        res[i + half] = a * np.sin(ang) + b * np.cos(ang)
    return res


qp = X @ Wq
kp = X @ Wk
q = np.zeros_like(qp)
k = np.zeros_like(kp)
for t in range(len(positions)):
    q[t] = rotate_token(qp[t], positions[t])
    k[t] = rotate_token(kp[t], positions[t])
v = X @ Wv
scores = np.zeros((6, 6))
for a in range(6):
    for b in range(6):
        scores[a, b] = q[a] @ k[b] / np.sqrt(hs)
out = softmax(scores) @ v
