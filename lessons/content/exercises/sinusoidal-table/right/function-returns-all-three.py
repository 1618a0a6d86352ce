"""Right: pe, M and shift_error built and measured inside one function, bound by one statement (a brief-only writer's script, round 10, issue 35)."""
import numpy as np

T, C = 12, 8
k = 3


def build(T, C, k):
    w = 10000.0 ** (-np.arange(0, C, 2) / C)
    t = np.arange(T)[:, None]
    pe = np.zeros((T, C))
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)
    M = np.zeros((C, C))
    for i, wi in enumerate(w):
        c, s = np.cos(k * wi), np.sin(k * wi)
        M[2*i:2*i+2, 2*i:2*i+2] = [[c, s], [-s, c]]
    err = np.abs(pe[k:] - pe[:-k] @ M.T).max()
    return pe, M, err


pe, M, shift_error = build(T, C, k)
print(shift_error)
