"""Two copies of one token: can position tell them apart?"""
import numpy as np

from attnpos.core import attention_output

rng = np.random.RandomState(42)
# the projections first
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
X = rng.randn(1, 6, 8)        # then the tokens
token = rng.randn(8)          # then one more token
X[0, 0] = token               # at slot 0
X[0, 4] = token               # and again at slot 4

slots = np.arange(6)[:, None]                  # (6, 1)
# (6, 8): slot t holds 0.6*(t+1) in every channel
pos = np.repeat(0.6 * (slots + 1.0), 8, axis=1)

# position enters before attention
out = attention_output(X + pos, Wq, Wk, Wv)
identical = bool(np.allclose(out[0, 0], out[0, 4]))
print("rows 0 and 4 identical?", identical)
print("largest |out[0] - out[4]| =",
      f"{np.abs(out[0, 0] - out[0, 4]).max():.2f}")
