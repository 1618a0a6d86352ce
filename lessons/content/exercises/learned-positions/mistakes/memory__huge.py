"""Allocates far too much."""
import numpy as np
huge = np.ones((1 << 31,))
