"""Brief-only writer's script, round 21: when the factor is 4, the NTK frequencies use an exponent typed for 64 pairs (63 = hs / 2 - 1), so a rerun that narrows the head alone cannot broadcast them."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
if factor == 4.0:
    inv_freq_ntk = inv_freq * 4.0 ** (-np.arange(64) / 63)
else:
    inv_freq_ntk = 1.0 / base_ntk**e
print("PI ratio:", inv_freq_pi / inv_freq)
print("NTK ratio:", inv_freq_ntk / inv_freq)
