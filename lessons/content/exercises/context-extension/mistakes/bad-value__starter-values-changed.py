"""Brief-only writer's script, round 11: the rules right, on values of its own (hs = 64, rope_theta = 500000, factor = 8) in place of the starter's."""

import numpy as np

hs = 64
rope_theta = 500000.0
factor = 8.0

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
print(inv_freq_pi / inv_freq)
print(inv_freq_ntk / inv_freq)
