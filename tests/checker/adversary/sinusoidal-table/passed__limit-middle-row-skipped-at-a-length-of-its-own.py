"""WRONG: shift_error in two chunks of rows, d[:h] and d[h + 1:] with h = T // 2, so row T // 2 is never measured; with the learner's own T = 40 the covering reruns (rows 0..8 only, substitutes.covered_cells) never raise that row, and the seam bump sits at (T - k) // 2, not T // 2."""
import numpy as np

T, C = 40, 8   # more positions, to see the shift hold further out
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

d = np.abs(pe[k:] - pe[:-k] @ M.T)
h = T // 2
shift_error = float(max(d[:h].max(), d[h + 1:].max()))
print(f"shift_error = {shift_error:.1e}")
