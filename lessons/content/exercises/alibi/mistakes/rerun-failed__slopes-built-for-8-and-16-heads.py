"""Hard-codes the 8-head and 16-head slope lists (right for 8 < H < 16 only) (a brief-only writer's script, issue 35)."""
import numpy as np

from attnpos.core import softmax

n_heads = 12
T = 7
# content scores q.k / sqrt(hs): one (T, T) matrix per head
scores = np.random.default_rng(0).standard_normal((n_heads, T, T))

s8 = [2.0 ** -(h + 1) for h in range(8)]
s16 = [2.0 ** (-0.5 * (h + 1)) for h in range(16)]
slopes = np.array((s8 + s16[0::2])[:n_heads])
i = np.arange(T)[:, None]
j = np.arange(T)[None, :]
bias = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
weights = softmax(scores + bias)
