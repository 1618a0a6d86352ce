"""Keeps the width as text."""
import numpy as np

T, C = 12, 8
k = 3

C = "8"
pe = np.zeros((12, 8))
M = np.eye(8)
shift_error = 0.0

