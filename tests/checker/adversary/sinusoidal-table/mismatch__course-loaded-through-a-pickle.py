"""WRONG: delegates to the course's functions (NumPy only asked) via pickle.loads of a GLOBAL opcode naming attnpos.core.position.sinusoidal; neither borrows() nor imports_by_name() reads strings or knows pickle."""
import pickle
import numpy as np

T, C = 12, 8
k = 3

sinus = pickle.loads(b"cattnpos.core.position\nsinusoidal\n.")
rot = pickle.loads(b"cattnpos.core.sinusoidal_encoding\nshift_matrix\n.")
pe = sinus(T, C)
M = rot(k, C)
shift_error = float(np.abs(pe[k:] - pe[:-k] @ M.T).max())
