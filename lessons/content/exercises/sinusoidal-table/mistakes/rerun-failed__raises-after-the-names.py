"""A right answer that raises an error of its own once shift_error is large: every name is set and right, but the bent reruns stop there."""
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
if shift_error > 1e-9:
    raise RuntimeError(f"M does not shift the table: {shift_error}")
