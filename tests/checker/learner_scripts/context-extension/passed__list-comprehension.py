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

inv_freq = np.array([rope_theta ** (-2 * i / hs) for i in range(hs // 2)])
inv_freq_pi = np.array([f / factor for f in inv_freq])
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = np.array([base_ntk ** (-2 * i / hs) for i in range(hs // 2)])
for i in (0, hs // 2 - 1):
    print(i, inv_freq_pi[i] / inv_freq[i], inv_freq_ntk[i] / inv_freq[i])
