"""Brief-only writer's script (issue 35, round 16): both ratios printed for pairs 0 to 4 only, never the last pair, where NTK
divides by exactly the factor."""

import numpy as np

hs = 128
rope_theta = 10000.0
factor = 4.0

exponents = np.arange(0, hs, 2) / hs
inv_freq = 1 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1 / base_ntk**exponents
print("PI / trained:", inv_freq_pi[:5] / inv_freq[:5])
print("NTK / trained:", inv_freq_ntk[:5] / inv_freq[:5])
