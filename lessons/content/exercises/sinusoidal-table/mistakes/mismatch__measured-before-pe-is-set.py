"""The table built under another name and its error measured there, pe set last: the checker's bend of pe comes after the measurement (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

w = 10000.0 ** (-np.arange(0, C, 2) / C)   # (C/2,) one frequency per pair
t = np.arange(T)[:, None]                  # (T, 1) positions from 0
table = np.zeros((T, C))
table[:, 0::2] = np.sin(t * w)
table[:, 1::2] = np.cos(t * w)

# sin(a + b) = sin a cos b + cos a sin b; cos(a + b) = cos a cos b - sin a sin b
M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = float(np.abs(table[k:] - table[:-k] @ M.T).max())
pe = table
print(f"shift_error = {shift_error:.1e}")  # rounding: M does not depend on t
