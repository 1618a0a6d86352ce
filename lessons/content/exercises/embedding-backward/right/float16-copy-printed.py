"""Right in float64; a float16 copy of grad_wte is only printed, and how much float16 would lose: neither is read."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

out = wte[ids]                    # forward: a row lookup, (B, T, C)

# Backward: out = onehot(ids) @ wte, so dLoss/d(wte) = onehot(ids).T @ grad_out,
# a scatter-add. np.add.at is unbuffered: an id used three times gets three
# gradients, where grad_wte[ids] += grad_out would keep only one of them.
grad_wte = np.zeros_like(wte)
np.add.at(grad_wte, ids, grad_out)

print("row 3 (used 3 times):", grad_wte[3].round(3))
print("row 4 (never used):  ", grad_wte[4])
print(grad_wte.astype(np.float16))
print("float16 would lose up to", np.abs(grad_wte - grad_wte.astype(np.float16)).max())
