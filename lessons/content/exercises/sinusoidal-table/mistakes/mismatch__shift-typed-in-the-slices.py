"""The table and M right, but shift_error compares pe[3:] with pe[:-3]: the starter's k typed into the slices, so on
any other k the rows compared are 3 apart while M turns by k."""
import numpy as np

T, C = 12, 8
k = 3

t = np.arange(T)[:, None]  # (T, 1)
w = 10000.0 ** (-np.arange(0, C, 2) / C)  # (C/2,)
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
shift_error = np.abs(pe[3:] - pe[:-3] @ M.T).max()
