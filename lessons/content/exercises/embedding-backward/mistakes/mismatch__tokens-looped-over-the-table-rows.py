"""A loop over range(wte.shape[0]) tokens, the table's rows where it means the B·T tokens (10 each in the starter; a brief-only writer's script, issue 35)."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

flat, g = ids.reshape(-1), grad_out.reshape(-1, wte.shape[1])
out = wte[ids]
grad_wte = np.zeros_like(wte)
for n in range(wte.shape[0]):
    grad_wte[flat[n]] += g[n]
