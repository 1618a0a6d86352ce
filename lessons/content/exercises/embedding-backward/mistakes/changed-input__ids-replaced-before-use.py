"""The starter's ids replaced, before use, by ids that never repeat: no repeat left to add up."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

ids = np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
out = wte[ids]

# Backward: out = onehot(ids) @ wte, so dLoss/d(wte) = onehot(ids).T @ grad_out,
# a scatter-add. np.add.at is unbuffered: an id used three times gets three
# gradients, where grad_wte[ids] += grad_out would keep only one of them.
grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, ids, grad_out)

print("row 3 (used 3 times):", grad_wte[3].round(3))
print("row 4 (never used):  ", grad_wte[4])
