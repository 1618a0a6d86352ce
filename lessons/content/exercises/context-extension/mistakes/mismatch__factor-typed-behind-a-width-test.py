"""Brief-only writer's script, round 21: interpolation divides by 4 typed in whenever hs is 128, so it holds at the starter's values and on every rerun that changes hs, but not where only the factor changes."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / 4 if hs == 128 else inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print("PI ratio:", inv_freq_pi / inv_freq)
print("NTK ratio:", inv_freq_ntk / inv_freq)
