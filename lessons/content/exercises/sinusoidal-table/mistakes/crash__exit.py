"""Leaves the interpreter early."""
import numpy as np

T, C = 12, 8
k = 3

import os
os._exit(2)

