"""A per-channel bincount that stops at 8 channels typed in: a wider table loses its later channels."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

out = wte[ids]
grad_wte = np.zeros_like(wte)
for c in range(min(wte.shape[1], 8)):
    grad_wte[:, c] = np.bincount(ids.reshape(-1), weights=grad_out[..., c].reshape(-1), minlength=len(wte))
