"""An unclosed bracket."""
import numpy as np
pe = np.zeros((12, 8)
