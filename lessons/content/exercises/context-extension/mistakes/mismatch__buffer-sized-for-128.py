"""Brief-only writer's script, round 12: a buffer of 64 pairs, enough for hs = 128 or narrower; a wider head gets 64 pairs only."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

buf = np.empty(64)
n = min(hs // 2, buf.size)
buf[:n] = np.arange(n) * 2 / hs
e = buf[:n]
inv_freq = 1 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1 / base_ntk**e
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
