"""Brief-only writer's script, round 19: every array right, but the ratios are printed only for the starter's width,
so the checker's reruns (another hs) print nothing."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

exponents = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents
if hs == 128:
    print(inv_freq_pi / inv_freq)
    print(inv_freq_ntk / inv_freq)
