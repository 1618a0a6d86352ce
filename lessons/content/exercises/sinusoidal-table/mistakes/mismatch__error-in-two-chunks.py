"""shift_error in two chunks of rows, d[:h] and d[h + 1:], so the row at the seam, h = (T − k) // 2, is skipped (a brief-only writer's script, round 10, issue 35)."""
import numpy as np

T, C = 12, 8
k = 3

t = np.arange(T)[:, None]
w = 10000.0 ** (-np.arange(0, C, 2) / C)
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)
M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]
n = T - k
h = n // 2
d = pe[k:] - pe[:-k] @ M.T
shift_error = max(np.abs(d[:h]).max(), np.abs(d[h + 1:]).max())
print(shift_error)
