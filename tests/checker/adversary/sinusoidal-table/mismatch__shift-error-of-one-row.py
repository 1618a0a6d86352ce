"""shift_error only at t = 0 (M @ pe[0] vs pe[k]), not the max over all t (a brief-only writer's script, issue 35)."""
import numpy as np

T, C = 12, 8   # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3          # the shift to check

t = np.arange(T)[:, None]
w = 10000.0 ** (-np.arange(0, C, 2) / C)
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)
pe[:, 1::2] = np.cos(t * w)
M = np.zeros((C, C))
for i, wi in enumerate(w):
    c, s = np.cos(k * wi), np.sin(k * wi)
    M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]
shift_error = np.abs(pe[k] - M @ pe[0]).max()
