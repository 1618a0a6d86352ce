"""A right answer with a self-check that asserts shift_error is rounding: every rerun bends the table on purpose, so the assert fails there (found by a writer who saw only the brief)."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)[:, None]
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]

shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()
assert shift_error < 1e-9, f"shift does not hold: {shift_error}"
