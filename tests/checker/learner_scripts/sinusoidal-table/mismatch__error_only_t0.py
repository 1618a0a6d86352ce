"""The sinusoidal position table of Vaswani et al. (2017), and its shift."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

# TODO: pe = the (T, C) table, pairs interleaved:
#       pe[t, 2i] = sin(t * w_i), pe[t, 2i + 1] = cos(t * w_i),
#       with w_i = 10000 ** (-2i / C) for pair i = 0 ... C/2 - 1
# TODO: M = the (C, C) matrix with pe[t + k] = M @ pe[t] for every t:
#       one 2x2 rotation block per pair, built from cos(k * w_i), sin(k * w_i)
# TODO: shift_error = largest |pe[t + k] - M @ pe[t]| over t = 0 ... T - k - 1

t = np.arange(T)[:, None]
w = 10000.0 ** (-np.arange(0, C, 2) / C)
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)

M = np.zeros((C, C))
for i in range(C // 2):
    c, s = np.cos(k * w[i]), np.sin(k * w[i])
    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]

shift_error = np.abs(pe[k] - M @ pe[0]).max()
