"""Ids clipped to 15, a largest id typed in: on a table of more rows, larger ids look up (and add into) row 15."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

safe = np.minimum(ids, 15)
out = wte[safe]
grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, safe, grad_out)
