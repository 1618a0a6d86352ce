"""Logs the table through a function of its own while it is still being filled: the table is finished only at its last fill, so the checker's bend comes after it (round 19's probe was told that it typed a size)."""
import numpy as np

T, C = 12, 8
k = 3

log = []


def note(label, table):
    log.append((label, float(table[-1, 1])))


w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
note("zeros", pe)
pe[:, 0::2] = np.sin(t * w)
note("sines", pe)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()
print(log, shift_error)
