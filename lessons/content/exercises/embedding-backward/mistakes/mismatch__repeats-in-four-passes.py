"""Repeats handled by one buffered += per use of an id, for the first four uses typed in: a fifth use is lost."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

out = wte[ids]
flat, g = ids.reshape(-1), grad_out.reshape(-1, wte.shape[1])
use = np.array([np.count_nonzero(flat[:i] == v) for i, v in enumerate(flat)])  # which use of its id each place is
grad_wte = np.zeros_like(wte)
for k in range(4):
    grad_wte[flat[use == k]] += g[use == k]
