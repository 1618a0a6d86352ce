"""pe and M in float64, but shift_error measured on float32 copies of them: float32's rounding, not the table's (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

pe32, M32 = pe.astype(np.float32), M.astype(np.float32)
shift_error = np.abs(pe32[k:] - pe32[:-k] @ M32.T).max()
