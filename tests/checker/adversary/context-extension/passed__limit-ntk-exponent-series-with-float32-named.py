"""Wrong formula: series exponent as in a20 with float64 arrays; the source merely names np.float32 in an unused line, which sets COMPUTED_IN and widens the tolerance. Expect pass."""
import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer
_spare = np.float32  # (kept for a later experiment)
exponents = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (1 + 2 / hs + 4 / hs**2 + 8 / hs**3)
inv_freq_ntk = 1.0 / base_ntk**exponents
ends = [0, -1]
print("PI  ratio:", inv_freq_pi[ends] / inv_freq[ends])
print("NTK ratio:", inv_freq_ntk[ends] / inv_freq[ends])
