"""Stretch RoPE's frequencies to a context factor times longer."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

# TODO: inv_freq, shape (hs/2,): the trained frequencies,
#       rope_theta ** (-2i / hs)
# TODO: inv_freq_pi: position interpolation, positions m * L / L',
#       written as frequencies (Hugging Face's "linear" scaling)
# TODO: base_ntk = rope_theta * factor ** (hs / (hs - 2))
# TODO: inv_freq_ntk: the frequencies at that base
# TODO: print inv_freq_pi / inv_freq and inv_freq_ntk / inv_freq:
#       which pairs does each rule change, and by how much?
