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

pos = np.arange(T)[:, None]
freqs = np.exp(-np.log(10000.0) * np.arange(0, C, 2) / C)
ang = pos * freqs
pe = np.stack([np.sin(ang), np.cos(ang)], axis=-1).reshape(T, C)
blocks = [np.array([[np.cos(k * f), np.sin(k * f)], [-np.sin(k * f), np.cos(k * f)]]) for f in freqs]
M = np.zeros((C, C))
for j, blk in enumerate(blocks):
    M[2 * j:2 * j + 2, 2 * j:2 * j + 2] = blk
shift_error = np.max(np.abs(pe[k:].T - M @ pe[:-k].T))
