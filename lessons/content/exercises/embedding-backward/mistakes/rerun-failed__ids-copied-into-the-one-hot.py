"""A one-hot of a typed-in copy of the starter ids: the rerun's grad_out, one sentence more, no longer fits it."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)


seen = ((3, 7, 3, 1, 3), (7, 2, 2, 9, 0))
out = wte[ids]
one_hot = np.eye(V)[np.array(seen)].reshape(-1, V)  # (B·T, V)
grad_wte = one_hot.T @ grad_out.reshape(-1, C)
