"""Right: the table built as `table`, pe bound to that same array, and the error measured on `table` (found by a writer
who saw only the brief): the checker bends the array in place, so both names see the bend."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

w = 10000.0 ** (-np.arange(0, C, 2) / C)   # (C/2,) one frequency per pair
angles = np.arange(T)[:, None] * w         # (T, C/2)
table = np.zeros((T, C))
table[:, 0::2] = np.sin(angles)
table[:, 1::2] = np.cos(angles)
pe = table

M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = float(np.abs(table[k:] - table[:-k] @ M.T).max())
