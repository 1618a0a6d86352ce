"""An unclosed bracket."""
import numpy as np
out = (1, 2
