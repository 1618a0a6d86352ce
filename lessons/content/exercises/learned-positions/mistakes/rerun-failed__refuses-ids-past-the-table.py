"""Also refuses ids that reach the position table's length (`ids.max() >= wpe.shape[0]`): token ids taken for positions, so a vocabulary larger than max_len (GPT-2: 50257 against 1024) breaks valid input."""
import numpy as np

rng = np.random.default_rng(7)
V, C, max_len = 6, 4, 8              # 6 symbols; Hugging Face would call max_len max_position_embeddings
wte = rng.standard_normal((V, C))     # token table
wpe = 0.02 * rng.standard_normal((max_len, C))  # position table: rows 0 ... max_len - 1
ids = rng.integers(0, V, size=(3, 5))  # (B, T) = (3, 5)
grad_out = rng.standard_normal((*ids.shape, wpe.shape[1]))  # dLoss/d(x), (B, T, C)


def add_positions(ids, wte, wpe):
    """x = tok_emb + pos_emb, shape (B, T, C); a clear error when T > max_len."""
    T = ids.shape[-1]
    if ids.max() >= wpe.shape[0]:
        raise ValueError(f"token id {ids.max()} has no row in the position table of {wpe.shape[0]} rows")
    if T > wpe.shape[0]:
        raise ValueError(f"{T} tokens, but the position table has only {wpe.shape[0]} rows")
    tok_emb = wte[ids]                 # (B, T, C)
    pos_emb = wpe[np.arange(T)]        # (T, C): positions 0 ... T-1, the same for every sequence
    return tok_emb + pos_emb           # broadcast over the batch


x = add_positions(ids, wte, wpe)

# Every sequence used rows 0 ... T-1 once each, so row t collects grad_out[b, t]
# summed over the batch; rows T ... max_len-1 took no part and get zero.
T = ids.shape[-1]
grad_wpe = np.zeros_like(wpe)
grad_wpe[:T] = grad_out.sum(axis=0)

# Leave this as it is: what add_positions does with 10 tokens, 2 past the table.
long_ids = rng.integers(0, V, size=(1, max_len + 2))
try:
    too_long = add_positions(long_ids, wte, wpe)
except (ValueError, IndexError) as error:
    too_long = np.zeros(0)  # it refused, as it should
    print("10 tokens:", error)
