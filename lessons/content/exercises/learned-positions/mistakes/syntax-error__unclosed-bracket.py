"""An unclosed bracket."""
import numpy as np
wpe = np.zeros((8, 4)
