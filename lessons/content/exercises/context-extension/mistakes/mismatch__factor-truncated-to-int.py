"""Brief-only writer's script, round 10, issue 35: factor truncated to an integer (s = int(factor)); right only for whole-number factors like 4 and 8."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
s = int(factor)
inv_freq_pi = inv_freq / s
base_ntk = rope_theta * s ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print(inv_freq_pi / inv_freq)
print(inv_freq_ntk / inv_freq)
