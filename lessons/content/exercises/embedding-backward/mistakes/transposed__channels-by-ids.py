"""Builds the gradient as onehot-transposed the wrong way round: (C, V)."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4
wte = rng.standard_normal((V, C))
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])
grad_out = rng.standard_normal((*ids.shape, C))

out = wte[ids]
onehot = (ids[..., None] == np.arange(V)).astype(float)   # (B, T, V)
grad_wte = np.einsum("btc,btv->cv", grad_out, onehot)
