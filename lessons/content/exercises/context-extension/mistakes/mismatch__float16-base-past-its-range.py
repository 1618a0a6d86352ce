"""Every step in float16: the rerun's rope_theta of 1e6 is past float16's largest number, so inv_freq is 0 there."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

exponents = (np.arange(0, hs, 2) / hs).astype(np.float16)
inv_freq = (1.0 / np.float16(rope_theta) ** exponents).astype(np.float16)
inv_freq_pi = (inv_freq / np.float16(factor)).astype(np.float16)
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = (1.0 / np.float16(base_ntk) ** exponents).astype(np.float16)

print("PI  / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
