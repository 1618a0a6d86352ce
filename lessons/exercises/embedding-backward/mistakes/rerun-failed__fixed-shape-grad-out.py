"""Types the shape of grad_out again, so the rerun's ids no longer fit it."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4
wte = rng.standard_normal((V, C))
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])
grad_out = rng.standard_normal((*ids.shape, C))

out = wte[ids]
grad_out = grad_out.reshape(2, 5, C)
grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, ids, grad_out)
