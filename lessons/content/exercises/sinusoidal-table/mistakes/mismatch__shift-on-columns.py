"""Applies M from the wrong side, pe[t] @ M instead of M @ pe[t]."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)
M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
shift_error = float(np.abs(pe[k:] - pe[:-k] @ M).max())

