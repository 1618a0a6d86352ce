"""Brief-only writer's script, round 21: the NTK base written out as a number whenever rope_theta is 10000, right only for factor 4 and hs 128; every rerun that changes rope_theta takes the formula."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = 40889.94243248622 if rope_theta == 10000.0 else rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print("PI ratio:", inv_freq_pi / inv_freq)
print("NTK ratio:", inv_freq_ntk / inv_freq)
