"""shift_error over the channel pairs in a loop that starts at 1, range(1, C // 2), so pair 0 is left out (a brief-only writer's script, round 10, issue 35)."""
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
shift_error = 0.0
for i in range(1, C // 2):
    d = pe[k:, 2*i:2*i+2] - (pe[:-k] @ M.T)[:, 2*i:2*i+2]
    shift_error = max(shift_error, np.abs(d).max())
print(shift_error)
