"""M's loop over pairs runs over range(3 + 1), the starter's 4 pairs typed as a sum: the 3 is no k (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)
M = np.zeros((C, C))
for i in range(3 + 1):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]
shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()
