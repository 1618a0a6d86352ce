"""Allocates far too much."""
import numpy as np

T, C = 12, 8
k = 3

huge = np.ones((1 << 31,))

