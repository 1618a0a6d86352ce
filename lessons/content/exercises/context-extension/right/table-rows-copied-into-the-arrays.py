"""Brief-only writer's script, round 14: the three rules as rows of one (3, hs/2) table, copied into the arrays; the ratios printed from the table's rows."""

import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer

e = np.linspace(0.0, 1.0, hs // 2, endpoint=False)
base_ntk = rope_theta * factor ** (hs / (hs - 2))
bases = np.array([rope_theta, rope_theta, base_ntk])[:, None]
scale = np.array([1.0, 1.0 / factor, 1.0])[:, None]
table = scale / bases ** e[None, :]  # (3, hs/2)
inv_freq, inv_freq_pi, inv_freq_ntk = table[0].copy(), table[1].copy(), table[2].copy()
ratios = table[1:] / table[0]
print("PI / trained:", np.round(ratios[0], 4))
print("NTK / trained:", np.round(ratios[1], 4))
