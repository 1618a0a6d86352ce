"""Brief-only writer's script, round 11: both ratios printed at the last pair only, where both are 0.25, so pair 0, where NTK keeps the trained frequency, is never shown."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer


e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print("last pair:", (inv_freq_pi / inv_freq)[-1], (inv_freq_ntk / inv_freq)[-1])
