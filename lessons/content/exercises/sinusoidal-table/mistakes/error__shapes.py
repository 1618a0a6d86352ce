"""Multiplies a row of positions by a row of frequencies."""
import numpy as np

T, C = 12, 8
k = 3

w = 10000.0 ** (-np.arange(0, C, 2) / C)
t = np.arange(T)
pe = np.zeros((T, C))
pe[:, 0::2] = np.sin(t * w)

