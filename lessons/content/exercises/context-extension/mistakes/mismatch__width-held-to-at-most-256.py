"""Brief-only writer's script, round 14: the exponents counted to at most 256 channels (min(hs, 256)): 128 pairs where the second rerun's 392 channels need 196."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

ex = np.arange(0, min(hs, 256), 2) / hs
inv_freq = 1.0 / rope_theta**ex
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**ex
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
