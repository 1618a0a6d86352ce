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

ex = np.linspace(0, 1, hs // 2, endpoint=False)
inv_freq = rope_theta ** -ex
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = base_ntk ** -ex

print("PI ratio: ", (inv_freq_pi / inv_freq)[[0, -1]])
print("NTK ratio:", (inv_freq_ntk / inv_freq)[[0, -1]])
