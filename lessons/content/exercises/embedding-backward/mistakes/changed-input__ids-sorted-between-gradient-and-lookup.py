"""ids sorted in place (through a reshape view) between the gradient and the lookup: out fits the sorted ids, grad_wte those given (brief-only round 16)."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, ids, grad_out)
flat = ids.reshape(-1)      # a view of ids
flat.sort()                 # sorts ids itself
out = wte[ids]
