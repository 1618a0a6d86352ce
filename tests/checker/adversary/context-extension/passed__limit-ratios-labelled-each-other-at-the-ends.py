"""Wrong: the two ratios printed at pairs 0 and -1 under each other's labels. Expect might pass: _judge_labels reads only whole prints."""
import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer
exponents = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk**exponents
ends = [0, -1]
print("NTK ratio:", inv_freq_pi[ends] / inv_freq[ends])
print("PI  ratio:", inv_freq_ntk[ends] / inv_freq[ends])
