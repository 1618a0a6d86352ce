"""Brief-only writer's script, round 14: the width held to at least 64 (max(hs, 64)): 32 pairs where the rerun's 32 channels need 16."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

ex = np.arange(0, max(hs, 64), 2) / max(hs, 64)
inv_freq = 1.0 / rope_theta**ex
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**ex
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
