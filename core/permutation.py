"""Shuffling tokens, and the figures that say whether attention noticed.

A permutation ``perm`` is an array of token indices: ``X[:, perm]`` puts the
token that was at slot ``perm[k]`` into slot ``k``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnpos.core.attention import attention_output

# The slots of the identical-token demo's two copies of one token: attention without position gives them one output.
# Here rather than beside the demo (core/experiments.py), so that the checker's fork server has it without importing every experiment.
TWIN_SLOTS = (0, 4)


def permute_tokens(X: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Reorder the token axis: (B, T, C) or (T, C) in, same shape out."""
    return np.take(np.asarray(X), np.asarray(perm), axis=-2)


def permutation_matrix(perm: np.ndarray) -> np.ndarray:
    """(T, T) 0/1 matrix P with ``P @ X == X[perm]`` for a (T, C) matrix X."""
    perm = np.asarray(perm)
    P = np.zeros((perm.size, perm.size))
    P[np.arange(perm.size), perm] = 1.0
    return P


def is_permutation(perm: np.ndarray, T: int) -> bool:
    """True when ``perm`` holds each of 0 … T-1 exactly once."""
    perm = np.asarray(perm)
    return perm.shape == (T,) and np.array_equal(np.sort(perm), np.arange(T))


def equivariance_gap(
    X: np.ndarray,
    Wq: np.ndarray,
    Wk: np.ndarray,
    Wv: np.ndarray,
    perm: np.ndarray,
    pos: np.ndarray | float | None = None,
    **options: Any,  # self_attention's keywords: causal, bias, scale
) -> float:
    """max |attn(X[:, perm] + pos) − attn(X + pos)[:, perm]|.

    Shuffle the tokens but leave the position signal in its slots, attend,
    and compare with the unshuffled run reordered the same way. Without
    position (``pos=None``) this is rounding noise; a signal that differs
    from slot to slot makes it large. X: (B, T, C) or (T, C); pos broadcasts to X.
    """
    pos = 0.0 if pos is None else pos
    shuffled = attention_output(permute_tokens(X, perm) + pos, Wq, Wk, Wv, **options)
    relisted = permute_tokens(attention_output(X + pos, Wq, Wk, Wv, **options), perm)
    return float(np.max(np.abs(shuffled - relisted)))


def naive_gap(X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray, perm: np.ndarray) -> float:
    """max |attn(X[:, perm]) − attn(X)|: the shuffled run against the original without reordering.

    Large even though attention is equivariant: it compares row k of one run
    with row k of the other, and those rows belong to different tokens.
    """
    shuffled = attention_output(permute_tokens(X, perm), Wq, Wk, Wv)
    return float(np.max(np.abs(shuffled - attention_output(X, Wq, Wk, Wv))))


def pooled_readout(out: np.ndarray) -> np.ndarray:
    """Sum the outputs over tokens: (B, T, hv) -> (B, hv), or (T, hv) -> (hv,).

    A sum does not care about order, so two orders of the same tokens give
    the same readout whenever attention gave them the same set of outputs.
    """
    return np.sum(out, axis=-2)
