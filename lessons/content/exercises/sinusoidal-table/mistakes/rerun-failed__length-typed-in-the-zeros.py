"""The table made with its length typed in, np.zeros((12, C)): right for the starter's T = 12, and on any other T the
sines and cosines of T positions do not fit in its 12 rows."""

import numpy as np

T, C = 12, 8
k = 3

t = np.arange(T)[:, None]  # (T, 1)
w = 10000.0 ** (-np.arange(0, C, 2) / C)  # (C/2,)
pe = np.zeros((12, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

c, s = np.cos(k * w), np.sin(k * w)
M = np.zeros((C, C))
for i in range(C // 2):
    M[2 * i, 2 * i], M[2 * i, 2 * i + 1] = c[i], s[i]
    M[2 * i + 1, 2 * i], M[2 * i + 1, 2 * i + 1] = -s[i], c[i]
shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()
