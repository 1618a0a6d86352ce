"""The one-hot rows built with np.eye(10), the starter's V typed in: the rerun's ids in the larger table's new rows have none."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

hot = np.eye(10)[ids]  # (B, T, 10)
out = hot @ wte[:10]
grad_wte = np.zeros_like(wte)
grad_wte[:10] = np.einsum("btv,btc->vc", hot, grad_out)
