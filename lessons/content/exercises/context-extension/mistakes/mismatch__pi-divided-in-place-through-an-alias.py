"""Divides the PI frequencies in place through a second name for inv_freq, so inv_freq is divided too."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

exponents = np.arange(0, hs, 2) / hs  # 2i / hs, i = 0 ... 63
inv_freq = 1.0 / rope_theta**exponents  # (hs/2,)

# Position m becomes m / s, and (m / s) * theta = m * (theta / s):
# interpolating the positions divides every frequency by s.
inv_freq_pi = inv_freq  # the same array, not a copy
inv_freq_pi /= factor

# NTK-aware: a new base, so that pair 0 keeps its frequency and
# the last pair, theta^(-(hs-2)/hs), is divided by exactly s.
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents

ends = [0, -1]  # the first and the last pair
print("PI  ratio:", inv_freq_pi[ends] / inv_freq[ends])
print("NTK ratio:", inv_freq_ntk[ends] / inv_freq[ends])
