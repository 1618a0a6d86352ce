"""Brief-only writer's script (issue 35): both ratios printed at pair 0 only, where the NTK ratio is 1 whatever the base."""

import numpy as np

hs = 128
rope_theta = 10000.0
factor = 4.0

exponents = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents

print("pair 0, PI ratio:", inv_freq_pi[0] / inv_freq[0])
print("pair 0, NTK ratio:", inv_freq_ntk[0] / inv_freq[0])
