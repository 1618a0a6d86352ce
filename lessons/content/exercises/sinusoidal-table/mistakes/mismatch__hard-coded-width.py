"""Types the width 8 into the table and M, so the rerun's wider C does not reach them."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, 8, 2) / 8)
t = np.arange(12)[:, None]
pe = np.zeros((12, 8))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((8, 8))
for i in range(4):
    wi = 10000.0 ** (-2 * i / 8)
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
shift_error = float(np.abs(pe[k:] - pe[:-k] @ M.T).max())
