"""Brief-only writer's script, round 11: the two ratios printed as a two-column table by np.savetxt to stdout."""

import sys

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**e
np.savetxt(sys.stdout, np.column_stack([inv_freq_pi / inv_freq, inv_freq_ntk / inv_freq]), fmt="%.4f")
