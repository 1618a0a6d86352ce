"""Concatenates all sines, then all cosines (the tensor2tensor layout)."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.concatenate([np.sin(t * w), np.cos(t * w)], axis=1)

M = np.zeros((C, C))
for i in range(C // 2):
    wi = 10000.0 ** (-2 * i / C)
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
shift_error = float(np.abs(pe[k:] - pe[:-k] @ M.T).max())
