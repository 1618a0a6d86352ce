"""Brief-only writer's script, round 14: the base held to at most 600000 (min(rope_theta, 6e5)): wrong on the rerun's 1000000."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

theta = min(rope_theta, 6e5)
inv_freq = 1.0 / theta ** (np.arange(0, hs, 2) / hs)
inv_freq_pi = inv_freq / factor
base_ntk = theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk ** (np.arange(0, hs, 2) / hs)
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
