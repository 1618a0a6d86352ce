"""Averages the gradients of a repeated id instead of adding them."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4
wte = rng.standard_normal((V, C))
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])
grad_out = rng.standard_normal((*ids.shape, C))

out = wte[ids]
grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, ids, grad_out)
counts = np.bincount(ids.ravel(), minlength=V)[:, None]
grad_wte = np.where(counts > 0, grad_wte / np.maximum(counts, 1), 0.0)
