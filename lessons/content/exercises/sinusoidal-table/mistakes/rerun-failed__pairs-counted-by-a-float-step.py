"""Counts the pairs by a float step, np.arange(0, 1, 2 / C): rounding gives one exponent too many at some widths (98)."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

w = 10000.0 ** (-np.arange(0, 1, 2 / C))   # (C/2,) one frequency per pair, by a float step
t = np.arange(T)[:, None]                  # (T, 1) positions from 0
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)                # even channels: sine
pe[:, 1::2] = np.cos(t * w)                # odd channels: cosine, same w

# sin(a + b) = sin a cos b + cos a sin b; cos(a + b) = cos a cos b - sin a sin b
M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = float(np.abs(pe[k:] - pe[:-k] @ M.T).max())
print(f"shift_error = {shift_error:.1e}")  # rounding: M does not depend on t
