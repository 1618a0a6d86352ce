"""Puts each gradient into its row with =, so a later use of an id replaces the earlier one."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4
wte = rng.standard_normal((V, C))
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])
grad_out = rng.standard_normal((*ids.shape, C))

out = wte[ids]
grad_wte = np.zeros_like(wte)
for b in range(ids.shape[0]):
    for t in range(ids.shape[1]):
        grad_wte[ids[b, t]] = grad_out[b, t]
