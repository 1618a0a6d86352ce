"""Stretch RoPE's frequencies to a context factor times longer."""
import numpy as np

hs = 128              # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0          # s = L' / L: a context 4 times longer

# TODO: inv_freq, shape (hs/2,): the trained frequencies,
#       rope_theta ** (-2i / hs)
# TODO: inv_freq_pi: position interpolation, positions m * L / L',
#       written as frequencies (Hugging Face's "linear" scaling)
# TODO: base_ntk = rope_theta * factor ** (hs / (hs - 2))
# TODO: inv_freq_ntk: the frequencies at that base
# TODO: print inv_freq_pi / inv_freq and inv_freq_ntk / inv_freq:
#       which pairs does each rule change, and by how much?

dim = hs
base = rope_theta
inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
inv_freq_pi = inv_freq / factor          # "linear" rope_scaling
base_ntk = base * factor ** (dim / (dim - 2))
inv_freq_ntk = 1.0 / (base_ntk ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
np.set_printoptions(precision=4)
print(inv_freq_pi / inv_freq)
print(inv_freq_ntk / inv_freq)
