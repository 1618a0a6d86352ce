"""pe filled through another name, and shift_error measured on a second table built apart from it: the checker's bend of pe never reaches the figure (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
pe = np.zeros((T, C))
table = pe
for t in range(T):
    table[t, 0::2] = np.sin(t * w)
    table[t, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

ref = np.zeros((T, C))
ref[:, 0::2] = np.sin(np.arange(T)[:, None] * w)
ref[:, 1::2] = np.cos(np.arange(T)[:, None] * w)
shift_error = float(np.max(np.abs(ref[k:] - ref[:-k] @ M.T)))
