"""Lookup tables and their gradients: token embeddings (wte) and learned position tables (wpe).

Both are (rows, C) tables read by a row lookup. The lookup is a product with
one-hot rows, E[ids] = onehot(ids)·E, so its gradient with respect to E is
onehot(ids)ᵀ·g: a scatter-add. Every function returns float64 arrays; shapes
are in the docstrings. The lookup itself and its scatter-add are
``attnpos.core.embed`` and ``embed_backward``; a position table's lookup is
``attnpos.core.learned_positions``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def onehot(ids: np.ndarray, rows: int) -> np.ndarray:
    """(..., rows) one-hot rows for integer ids of any shape (...): 1 at column ids[...], 0 elsewhere."""
    ids = np.asarray(ids)
    return (ids[..., None] == np.arange(rows)).astype(np.float64)


def onehot_backward(grad_out: np.ndarray, ids: np.ndarray, rows: int) -> np.ndarray:
    """(rows, C) gradient of a lookup written as a matrix product: onehot(ids)ᵀ·grad_out.

    grad_out: (..., C) for ids (...). The same numbers as the scatter-add
    ``embed_backward``, computed as the chain rule gives them.
    """
    hot = onehot(ids, rows).reshape(-1, rows)  # (N, rows)
    return hot.T @ np.asarray(grad_out, dtype=np.float64).reshape(hot.shape[0], -1)  # (rows, C)


def buffered_backward(grad_out: np.ndarray, ids: np.ndarray, rows: int) -> np.ndarray:
    """(rows, C) the trap: ``grad[ids] += grad_out``, buffered, so a repeated id keeps one gradient.

    NumPy reads grad[ids] once, adds, and assigns the result back; where an
    id repeats, the assignments land on the same row and only one survives
    (``np.ufunc.at``'s documentation: "a[[0,0]] += 1 will only increment the
    first element once because of buffering").
    """
    grad_out = np.asarray(grad_out, dtype=np.float64)
    grad = np.zeros((rows, grad_out.shape[-1]))
    grad[np.asarray(ids)] += grad_out
    return grad


def row_use_counts(ids: np.ndarray, rows: int) -> np.ndarray:
    """(rows,) how many times each row is looked up: the number of gradients it collects."""
    return np.bincount(np.asarray(ids).reshape(-1), minlength=rows)


def finite_difference_gradient(loss: Callable[[np.ndarray], float], table: np.ndarray, step: float = 1e-6) -> np.ndarray:
    """(rows, C) central differences (loss(E + h·e) − loss(E − h·e)) / 2h, one entry at a time."""
    table = np.array(table, dtype=np.float64)
    grad = np.zeros_like(table)
    for index in np.ndindex(table.shape):
        saved = table[index]
        table[index] = saved + step
        up = loss(table)
        table[index] = saved - step
        down = loss(table)
        table[index] = saved
        grad[index] = (up - down) / (2 * step)
    return grad


def position_backward(grad_out: np.ndarray, max_len: int) -> np.ndarray:
    """(max_len, C) gradient of a position table from grad_out (B, T, C).

    Slot t of every sequence used row t, so row t collects grad_out[:, t]
    summed over the batch; rows T … max_len−1 took no part and stay zero.
    """
    grad_out = np.asarray(grad_out, dtype=np.float64)
    T = grad_out.shape[-2]
    if T > max_len:
        raise ValueError(f"{T} positions, but the table has only {max_len} rows")
    grad = np.zeros((max_len, grad_out.shape[-1]))
    grad[:T] = grad_out.reshape(-1, T, grad_out.shape[-1]).sum(axis=0)
    return grad


def table_parameters(rows: int, C: int) -> int:
    """Parameters of a (rows, C) table: one number per row and channel."""
    return rows * C
