"""Brief-only writer's script, round 22: shift_error measured on the table, and then the table built again from scratch below it, so the pe the script ends with is not the one the figure describes."""

import numpy as np

T, C = 12, 8  # 12 positions, counted from 0; width 8 (four channel pairs)
k = 3  # the shift to check


def build(T, C):
    freqs = 10000.0 ** (-np.arange(0, C, 2) / C)
    angles = np.arange(T)[:, None] * freqs
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table, freqs


pe, freqs = build(T, C)
M = np.zeros((C, C))
for i, w in enumerate(freqs):
    c, s = np.cos(k * w), np.sin(k * w)
    M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
shift_error = np.abs(pe[k:] - pe[:-k] @ M.T).max()
print(f"shift_error = {shift_error:.2e}")
pe, _ = build(T, C)  # built again "to be safe"
