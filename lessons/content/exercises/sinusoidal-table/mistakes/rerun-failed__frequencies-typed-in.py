"""The four frequencies typed in (1, 0.1, 0.01, 0.001) rather than computed from C: right for C = 8 only (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

w = np.array([1.0, 0.1, 0.01, 0.001])
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()
