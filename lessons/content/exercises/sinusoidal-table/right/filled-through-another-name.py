"""Right: the table filled through another name for the same array (P = pe), and its error measured on P (brief-only
round 10): the rerun bends pe past the writes made through P."""
import numpy as np

T, C = 12, 8
k = 3

t = np.arange(T)[:, None]
w = 10000.0 ** (-np.arange(0, C, 2) / C)
pe = np.zeros((T, C))
P = pe
P[:, 0::2] = np.sin(t * w)
P[:, 1::2] = np.cos(t * w)
M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]
shift_error = np.abs(P[k:] - P[:-k] @ M.T).max()
print(shift_error)
