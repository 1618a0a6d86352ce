"""Its own head, without dividing the scores by sqrt(d_k)."""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)
token = rng.randn(8)
X[0, 0] = token
X[0, 4] = token
pos = 0.6 * (np.arange(6)[:, None] + 1.0) * np.ones(8)
tokens = X + pos
scores = (tokens @ Wq) @ (tokens @ Wk).transpose(0, 2, 1)
weights = np.exp(scores - scores.max(-1, keepdims=True))
out = (weights / weights.sum(-1, keepdims=True)) @ (tokens @ Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
