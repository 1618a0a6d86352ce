"""A buffered += per position, skipping every position where two sentences share an id: no starter column has one (a brief-only writer's script, issue 35)."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

out = wte[ids]
grad_wte = np.zeros_like(wte)
for t in range(ids.shape[1]):
    if np.unique(ids[:, t]).size == ids.shape[0]:
        grad_wte[ids[:, t]] += grad_out[:, t]
