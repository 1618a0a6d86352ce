"""Brief-only writer's script, round 21: both ratios printed from placeholder arrays of ones, before the lines that compute the frequencies, so the print shows 1 at every pair."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

inv_freq = np.ones(hs // 2)
inv_freq_pi = np.ones(hs // 2)
inv_freq_ntk = np.ones(hs // 2)
print("PI ratio:", inv_freq_pi / inv_freq)
print("NTK ratio:", inv_freq_ntk / inv_freq)

inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk ** (np.arange(0, hs, 2) / hs)
