"""Brief-only writer's script, round 10, issue 35: the NTK ratio printed after a loop that set only the second half of the pairs (1 at pairs 0-31); the loop finished after."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = inv_freq.copy()
for i in range(hs // 4, hs // 2):
    inv_freq_ntk[i] = base_ntk ** (-2 * i / hs)
print(inv_freq_pi / inv_freq)
print(inv_freq_ntk / inv_freq)
for i in range(hs // 4):
    inv_freq_ntk[i] = base_ntk ** (-2 * i / hs)
