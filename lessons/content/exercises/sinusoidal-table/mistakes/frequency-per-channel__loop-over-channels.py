"""Loops over channels and uses the channel number j as 2i."""
import numpy as np

T, C = 12, 8
k = 3

pe = np.zeros((T, C))
for t in range(T):
    for j in range(C):
        angle = t / 10000.0 ** (2 * j / C)
        pe[t, j] = np.sin(angle) if j % 2 == 0 else np.cos(angle)

M = np.zeros((C, C))
for i in range(C // 2):
    wi = 10000.0 ** (-2 * i / C)
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
shift_error = float(np.abs(pe[k:] - pe[:-k] @ M.T).max())
