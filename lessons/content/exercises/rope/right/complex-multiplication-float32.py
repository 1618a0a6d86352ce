"""Each pair turned as a complex number (first half real, second imaginary), the angles in float32, scores by einsum."""
import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))      # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)              # the slot of each token
hs = Wq.shape[1]

inv_freq = (rope_theta ** (-np.arange(0, hs, 2, dtype=np.float32) / hs)).astype(np.float32)


def apply_rope(x, positions):
    h = x.shape[-1] // 2
    turn = np.exp(1j * np.multiply.outer(positions, inv_freq).astype(np.float32))  # (T, hs/2)
    z = (x[..., :h] + 1j * x[..., h:]) * turn
    return np.concatenate([z.real, z.imag], axis=-1)


q = apply_rope(np.einsum("tc,ch->th", X, Wq), positions)
k = apply_rope(np.einsum("tc,ch->th", X, Wk), positions)
v = X @ Wv
out = softmax(np.einsum("th,sh->ts", q, k) / np.sqrt(hs), axis=-1) @ v
