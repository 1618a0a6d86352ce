"""hs typed as 128 and 126 everywhere (right only while hs = 128; brief says compute from the names) (a brief-only writer's script, issue 35)."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.arange(0, 128, 2) / 128
inv_freq = 1.0 / rope_theta**e
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (128 / 126)
inv_freq_ntk = 1.0 / base_ntk**e
print("PI / trained:", inv_freq_pi[[0, -1]] / inv_freq[[0, -1]])
print("NTK / trained:", inv_freq_ntk[[0, -1]] / inv_freq[[0, -1]])
