"""Right arrays, and a self-check of interpolation over every position of the longer context, L·factor of them by
hs/2 pairs: 8 MB at the starter's values, and past the run's memory at the rerun's factor and head width."""
import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

L = 4096  # the trained context
L_new = int(L * factor)
inv_freq = rope_theta ** (-np.arange(0, hs, 2) / hs)  # (hs/2,)
inv_freq_pi = inv_freq / factor
positions = np.arange(L_new, dtype=np.float64)  # (L',)
assert np.allclose(np.outer(positions / factor, inv_freq), np.outer(positions, inv_freq_pi))  # (L', hs/2) twice
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = base_ntk ** (-np.arange(0, hs, 2) / hs)

print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
