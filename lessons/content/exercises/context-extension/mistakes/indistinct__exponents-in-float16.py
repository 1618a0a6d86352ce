"""Brief-only writer's script, round 11: exponents stored in float16, exact only where hs is a power of two (at hs = 98 about 2e-3 off); the arrays are float64."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer


e = (np.arange(0, hs, 2) / hs).astype(np.float16).astype(np.float64)
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print(inv_freq_pi / inv_freq)
print(inv_freq_ntk / inv_freq)
