"""Brief-only writer's script (issue 35): the NTK ratio printed from a placeholder, a copy of inv_freq, before the real frequencies are set."""

import numpy as np

hs = 128
rope_theta = 10000.0
factor = 4.0

exponents = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
inv_freq_ntk = inv_freq.copy()  # placeholder, filled in below

print("PI  ratio:", inv_freq_pi / inv_freq)
print("NTK ratio:", inv_freq_ntk / inv_freq)

base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents
