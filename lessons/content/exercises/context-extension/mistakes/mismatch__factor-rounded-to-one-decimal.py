"""Brief-only writer's script, round 11: the factor rounded to one decimal (s = round(factor, 1)); right only for factors of one decimal, like 4 and 2.5."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer


s = round(factor, 1)
e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / s
base_ntk = rope_theta * s ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print(inv_freq_pi / inv_freq)
print(inv_freq_ntk / inv_freq)
