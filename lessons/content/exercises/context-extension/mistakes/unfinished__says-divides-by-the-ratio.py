"""Brief-only writer's script, round 14: prints that PI divides every pair by 0.250, the ratio, where it divides by 4."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk ** (np.arange(0, hs, 2) / hs)
r_pi = inv_freq_pi / inv_freq
r_ntk = inv_freq_ntk / inv_freq
print(f"PI divides every pair by {r_pi[0]:.3f}")
print(f"NTK divides pair 0 by {r_ntk[0]:.3f} and the last pair by {r_ntk[-1]:.3f}")
