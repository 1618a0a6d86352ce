"""shift_error in a loop that compares only the cosine entries pe[t + k, 2i + 1] (a brief-only writer's script, round 10, issue 35)."""
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
for tt in range(T - k):
    moved = M @ pe[tt]
    for i in range(C // 2):
        shift_error = max(shift_error, abs(pe[tt + k, 2*i + 1] - moved[2*i + 1]))
print(shift_error)
