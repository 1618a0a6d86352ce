"""Scaled dot-product self-attention, written out so every step can be read.

Shapes follow nanoGPT: B batch, T tokens, C model width, hs head size.
Inputs of shape (T, C) are treated as a batch of one and returned without the
batch axis, so a lesson can work with a single sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis`` that neither overflows nor returns NaN.

    Subtracting the row maximum first keeps every exponent at or below zero,
    so logits of ±1e300 still give weights in [0, 1] that sum to 1.
    Rows that are entirely -inf (fully masked) come back as all zeros.
    """
    x = np.asarray(x, dtype=np.float64)
    row_max = np.max(x, axis=axis, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    # x - row_max can overflow to -inf for logits of opposite huge signs; exp(-inf) is 0.
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x - row_max)
    total = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


@dataclass(frozen=True)
class Attention:
    """What one attention head computed: the mixed outputs and the weights that mixed them."""

    out: np.ndarray  # (B, T, hs) or (T, hs)
    weights: np.ndarray  # (B, T, T) or (T, T); row i says how much token i reads from each j


def causal_mask(T: int) -> np.ndarray:
    """(T, T) additive mask: 0 where j <= i, -inf where a token would read the future."""
    upper = np.triu(np.ones((T, T), dtype=bool), k=1)
    return np.where(upper, -np.inf, 0.0)


def attend(
    Q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray,
    *,
    causal: bool = False,
    bias: np.ndarray | None = None,
    scale: float | None = None,
) -> Attention:
    """Mix the values V by the softmax of query-key scores.

    Q, K: (..., T, hs); V: (..., T, hv). ``scale`` multiplies the scores and
    defaults to 1/sqrt(hs); a larger scale sharpens rows towards a copy of one
    value, a smaller one flattens them towards the plain average.
    ``bias`` is added to the scores, broadcasting against (..., T, T) (ALiBi
    uses this). Returns outputs (..., T, hv) and weights (..., T, T).
    """
    hs = Q.shape[-1]
    if scale is None:
        scale = 1.0 / np.sqrt(hs)
    scores = (Q @ np.swapaxes(K, -1, -2)) * scale  # (..., T, T)
    if bias is not None:
        scores = scores + bias
    if causal:
        scores = scores + causal_mask(scores.shape[-1])
    weights = softmax(scores, axis=-1)  # (..., T, T)
    return Attention(out=weights @ V, weights=weights)  # (..., T, hv)


def self_attention(
    X: np.ndarray,
    Wq: np.ndarray,
    Wk: np.ndarray,
    Wv: np.ndarray,
    *,
    causal: bool = False,
    bias: np.ndarray | None = None,
    scale: float | None = None,
) -> Attention:
    """One head of self-attention over the rows of X.

    X: (B, T, C) or (T, C); Wq, Wk: (C, hs); Wv: (C, hv).
    The same three matrices project every row, whatever its position:
    that sharing is why the head cannot see order.
    Returns outputs (B, T, hv) and weights (B, T, T), or (T, hv) and (T, T)
    for an unbatched X.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (2, 3):
        raise ValueError(f"X must be (T, C) or (B, T, C), got shape {X.shape}")
    Q, K, V = X @ Wq, X @ Wk, X @ Wv  # each (B, T, hs)
    return attend(Q, K, V, causal=causal, bias=bias, scale=scale)


def attention_output(
    X: np.ndarray,
    Wq: np.ndarray,
    Wk: np.ndarray,
    Wv: np.ndarray,
    *,
    causal: bool = False,
    bias: np.ndarray | None = None,
    scale: float | None = None,
) -> np.ndarray:
    """Just the outputs of :func:`self_attention`: (B, T, hv) or (T, hv)."""
    return self_attention(X, Wq, Wk, Wv, causal=causal, bias=bias, scale=scale).out


def layer_norm(X: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """(..., T, C) -> (..., T, C): each token's vector to mean 0 and variance 1, on its own.

    No learned gain or bias (they would act on every token alike). It reads one
    row at a time, so it cannot see where a token stands.
    """
    mean = X.mean(axis=-1, keepdims=True)  # (..., T, 1)
    var = X.var(axis=-1, keepdims=True)  # (..., T, 1)
    return (X - mean) / np.sqrt(var + eps)


def multi_head_attention(X: np.ndarray, heads: list[tuple[np.ndarray, np.ndarray, np.ndarray]], Wo: np.ndarray, *, causal: bool = False) -> np.ndarray:
    """Several heads side by side, concatenated and projected back: (..., T, C) -> (..., T, C).

    heads: H triples (Wq, Wk, Wv), each (C, hs); Wo: (H·hs, C), applied to
    each token's concatenated head outputs on its own.
    """
    outs = [attention_output(X, Wq, Wk, Wv, causal=causal) for Wq, Wk, Wv in heads]  # H × (..., T, hs)
    return np.concatenate(outs, axis=-1) @ Wo  # (..., T, C)


@dataclass(frozen=True)
class BlockWeights:
    """One pre-LayerNorm transformer block, GPT-2's layout without learned LayerNorm parameters."""

    heads: list[tuple[np.ndarray, np.ndarray, np.ndarray]]  # H × (Wq, Wk, Wv), each (C, hs)
    Wo: np.ndarray  # (H·hs, C)
    W1: np.ndarray  # (C, 4C): the position-wise MLP's first layer
    W2: np.ndarray  # (4C, C)


def transformer_block(X: np.ndarray, w: BlockWeights, *, causal: bool = False) -> np.ndarray:
    """(..., T, C) -> (..., T, C): X + attention(LN(X)), then + MLP(LN(·)) with a ReLU.

    Everything but the attention's weights acts on one token at a time: the
    residual sums, LayerNorm, W_O and the MLP. (GPT-2's MLP uses GELU; any
    function applied token by token would do for the argument.)
    """
    X = X + multi_head_attention(layer_norm(X), w.heads, w.Wo, causal=causal)
    return X + np.maximum(layer_norm(X) @ w.W1, 0.0) @ w.W2
