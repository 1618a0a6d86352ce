"""A table of both ratios, a row per pair, from a loop over names of their own."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

exponents = np.arange(0, hs, 2) / hs  # 2i / hs, i = 0 ... 63
inv_freq = 1.0 / rope_theta**exponents  # (hs/2,)

# Position m becomes m / s, and (m / s) * theta = m * (theta / s):
# interpolating the positions divides every frequency by s.
inv_freq_pi = inv_freq / factor

# NTK-aware: a new base, so that pair 0 keeps its frequency and
# the last pair, theta^(-(hs-2)/hs), is divided by exactly s.
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents

pi_ratio = inv_freq_pi / inv_freq
ntk_ratio = inv_freq_ntk / inv_freq
print("pair   PI     NTK")
for i, (a, b) in enumerate(zip(pi_ratio, ntk_ratio)):
    print(f"{i:4d}  {a:.3f}  {b:.3f}")
