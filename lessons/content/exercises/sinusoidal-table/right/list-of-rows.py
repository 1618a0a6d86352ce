"""Right: pe built as a Python list of rows, appended in a loop, then made an array (found by a writer who saw only the brief)."""
import math

import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

pe = []
for t in range(T):
    row = []
    for i in range(C // 2):
        w_i = 10000 ** (-2 * i / C)
        row += [math.sin(t * w_i), math.cos(t * w_i)]
    pe.append(row)
pe = np.array(pe)

M = np.zeros((C, C))
for i in range(C // 2):
    w_i = 10000 ** (-2 * i / C)
    c, s = math.cos(k * w_i), math.sin(k * w_i)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = float(np.abs(pe[k:] - pe[:-k] @ M.T).max())
