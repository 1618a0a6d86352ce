"""hs, rope_theta and factor set again to the starter's values below its lines: the reruns' values never reach the arrays."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

hs, rope_theta, factor = 128, 10000.0, 4.0  # to be sure of the values

exponents = np.arange(0, hs, 2) / hs  # 2i / hs, i = 0 ... 63
inv_freq = 1.0 / rope_theta**exponents  # (hs/2,)
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents

print("PI  / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
