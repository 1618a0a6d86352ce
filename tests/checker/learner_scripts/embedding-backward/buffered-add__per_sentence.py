"""A token embedding, forward and backward, for a batch of two sentences."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

# TODO: out = the looked-up rows, shape (B, T, C): row ids[b, t] of wte
# TODO: grad_wte = dLoss/d(wte), shape (V, C): every grad_out[b, t]
#       added into row ids[b, t]; repeats add up, unused rows stay 0

out = wte[ids]
grad_wte = np.zeros_like(wte)
for b in range(ids.shape[0]):
    grad_wte[ids[b]] += grad_out[b]
