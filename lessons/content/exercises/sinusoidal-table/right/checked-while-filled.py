"""Right: pe allocated, its shape printed and asserted, then filled in place (slices and ufunc out=), its row lengths
asserted once full, and measured under another name bound to the same array (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

w = 10000.0 ** (-np.arange(0, C, 2) / C)   # (C/2,) one frequency per pair
angles = np.arange(T)[:, None] * w         # (T, C/2)
pe = np.empty((T, C))
print("allocated", pe.shape)
assert pe.shape == (T, C)
np.sin(angles, out=pe[:, 0::2])            # even channels: sine
pe[:, 1::2] = np.cos(angles)               # odd channels: cosine, same w
assert np.allclose(np.linalg.norm(pe, axis=1), np.sqrt(C / 2)), "every row has length sqrt(C/2)"
table = pe

M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = float(np.abs(table[k:] - table[:-k] @ M.T).max())
print(f"shift_error = {shift_error:.1e}")
