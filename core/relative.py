"""The learned relative family: Shaw et al.'s clipped embeddings, Transformer-XL, T5's buckets, KERPLE and FIRE.

Each is a function of the offset between a query slot i and a key slot j,
never of i or j alone. Sources: Shaw, Uszkoreit and Vaswani 2018
(arXiv:1803.02155); Dai et al. 2019 (arXiv:1901.02860); Raffel et al. 2020
(arXiv:1910.10683) for T5's bias, whose bucket rule is Mesh TensorFlow's as
Hugging Face's ``_relative_position_bucket`` computes it; Chi et al. 2022
(arXiv:2205.09921) for KERPLE; Li et al. 2023 (arXiv:2310.04418) for FIRE.
Float64 throughout; shapes in the docstrings.

Two sign conventions meet here, and each function says which it takes:
T5 writes ``relative_position = j − i`` (key minus query, negative for a key
in the past); Shaw, Transformer-XL, KERPLE and FIRE write ``i − j`` (how far
back the key is).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attnpos.core.attention import Attention, causal_mask, softmax
from attnpos.core.extension import TRAIN_LENGTH, BackHead, train_back_head
from attnpos.core.position import alibi_slopes, symmetric_alibi_bias

# --- T5: a learned scalar per head and per bucket -------------------------------------------


def relative_position_bucket(relative_position: np.ndarray, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> np.ndarray:
    """(same shape) T5's bucket of each offset ``relative_position = j − i`` (key slot minus query slot), int64.

    Bidirectional (the encoder): half the buckets for keys at or before the
    query, half (offset by num_buckets/2) for keys after it. Causal (the
    decoder): every bucket for keys behind; a key ahead shares bucket 0 with
    the query's own slot. Within a direction, the first half of the buckets
    are one distance each; the rest grow logarithmically up to
    ``max_distance``, and every distance at or past it shares the last.
    """
    offsets = np.asarray(relative_position)
    if not np.issubdtype(offsets.dtype, np.integer):
        raise TypeError(f"relative_position must hold integers (key slot − query slot), not {offsets.dtype}")
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    if bidirectional:
        first = np.where(offsets > 0, per_direction, 0)  # keys after the query take the upper half
        distance = np.abs(offsets)
    else:
        first = np.zeros(offsets.shape, dtype=np.int64)
        distance = np.maximum(-offsets, 0)  # a key ahead counts as distance 0
    max_exact = per_direction // 2
    # The log branch is read only at distance ≥ max_exact; clamping first keeps log(0) out of it.
    far = np.maximum(distance, max_exact).astype(np.float64)
    growth = np.log(far / max_exact) / math.log(max_distance / max_exact) * (per_direction - max_exact)
    logarithmic = np.minimum(max_exact + np.floor(growth).astype(np.int64), per_direction - 1)
    return (first + np.where(distance < max_exact, distance, logarithmic)).astype(np.int64)


def t5_relative_bias(T: int, table: np.ndarray, bidirectional: bool = True, max_distance: int = 128) -> np.ndarray:
    """(H, T, T) T5's bias: bias[h, i, j] = table[h, bucket(j − i)], for a (H, num_buckets) table.

    The table's width is the number of buckets. One bias for every layer in
    T5 (the first layer computes it and the others reuse it); added to the
    scores before the softmax. Causal attention still needs its mask: the
    bias of a key ahead is bucket 0's, not −inf.
    """
    table = np.asarray(table, dtype=np.float64)
    slots = np.arange(T)
    buckets = relative_position_bucket(slots[None, :] - slots[:, None], bidirectional, table.shape[1], max_distance)  # (T, T)
    return table[:, buckets]


def offsets_sharing_last_bucket(bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128, reach: int = 4096) -> tuple[int, int]:
    """(first, count) the nearest distance behind the query in the last bucket, and how many of 1 … reach share it."""
    behind = -np.arange(1, reach + 1)
    buckets = relative_position_bucket(behind, bidirectional, num_buckets, max_distance)
    last = buckets[-1]
    return int(np.flatnonzero(buckets == last)[0] + 1), int(np.sum(buckets == last))


# --- Shaw et al. 2018: relative embeddings clipped at k ----------------------------------------


def shaw_clipped_index(T: int, clip: int) -> np.ndarray:
    """(T, T) the row of the (2·clip + 1)-row table each pair reads: clip(j − i, −clip, clip) + clip.

    Every pair further apart than ``clip`` reads the edge row: past the clip,
    the model cannot tell 10 back from 1000 back.
    """
    slots = np.arange(T)
    return np.clip(slots[None, :] - slots[:, None], -clip, clip) + clip


def shaw_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, rel_keys: np.ndarray, rel_values: np.ndarray, clip: int, *, causal: bool = False) -> Attention:
    """Shaw et al.'s head: scores q_i·(k_j + a^K_ij)/√hs, outputs Σ_j α_ij (v_j + a^V_ij).

    Q, K, V: (T, hs); rel_keys, rel_values: (2·clip + 1, hs), rows for
    offsets −clip … clip; a_ij is the row of clip(j − i). Returns the (T, hs)
    outputs and (T, T) weights.
    """
    T, hs = Q.shape
    index = shaw_clipped_index(T, clip)  # (T, T)
    a_keys, a_values = np.asarray(rel_keys, dtype=np.float64)[index], np.asarray(rel_values, dtype=np.float64)[index]  # (T, T, hs)
    scores = (Q @ K.T + np.einsum("id,ijd->ij", Q, a_keys)) / math.sqrt(hs)  # (T, T)
    weights = softmax(scores + causal_mask(T) if causal else scores, axis=-1)
    out = weights @ V + np.einsum("ij,ijd->id", weights, a_values)  # (T, hs)
    return Attention(out=out, weights=weights)


# --- Transformer-XL: four terms, with u and v ------------------------------------------------------


def relative_sinusoid(distances: np.ndarray, C: int, base: float = 10000.0) -> np.ndarray:
    """(N, C) Transformer-XL's fixed table R at the given distances i − j: sines in the first half, cosines in the second."""
    angle = np.asarray(distances, dtype=np.float64)[:, None] / base ** (np.arange(0, C, 2, dtype=np.float64) / C)[None, :]  # (N, C/2)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def transformer_xl_terms(X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wr: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(4, T, T) the four terms of Dai et al.'s score, summed for the score itself.

    X: (T, C); Wq, Wk (content keys), Wr (position keys): (C, hs); u, v: (hs,).
      (a) content-content q_i·k_j;  (b) content-position q_i·W_Rᵀ R_{i−j};
      (c) a global content bias u·k_j;  (d) a global position bias v·W_Rᵀ R_{i−j}.
    R is the fixed sinusoid of the distance i − j; u and v replace the query in
    (c) and (d), so neither depends on the query's own slot.
    """
    T, C = X.shape
    q, k = X @ Wq, X @ Wk  # (T, hs)
    slots = np.arange(T)
    back = slots[:, None] - slots[None, :]  # (T, T) i − j
    r = (relative_sinusoid(back.ravel(), C) @ Wr).reshape(T, T, -1)  # (T, T, hs) W_Rᵀ R_{i−j}
    return np.stack([q @ k.T, np.einsum("id,ijd->ij", q, r), np.broadcast_to(k @ u, (T, T)), r @ v])


# --- KERPLE and FIRE: a bias from a function of the distance --------------------------------------


def kerple_bias(T: int, r1: np.ndarray, r2: np.ndarray, kernel: str = "log") -> np.ndarray:
    """(H, T, T) KERPLE's bias from a conditionally positive definite kernel of |i − j|, with per-head r1, r2 > 0.

    ``log``: −r1·log(1 + r2·|i − j|); ``power``: −r1·|i − j|^r2 (0 < r2 ≤ 2).
    The power kernel with r2 = 1 and r1 = ALiBi's slope is ALiBi's symmetric
    bias: ALiBi is this family with nothing learned.
    """
    r1, r2 = (np.asarray(r, dtype=np.float64)[:, None, None] for r in (r1, r2))  # (H, 1, 1)
    slots = np.arange(T)
    distance = np.abs(slots[:, None] - slots[None, :]).astype(np.float64)[None]  # (1, T, T)
    if kernel == "log":
        return -r1 * np.log1p(r2 * distance)
    if kernel == "power":
        return -r1 * distance**r2
    raise ValueError(f"kernel must be 'log' or 'power', not {kernel!r}")


@dataclass(frozen=True)
class FireMLP:
    """FIRE's small learned function f: a scalar in, a scalar out, one hidden layer of ReLUs."""

    W1: np.ndarray  # (width,)
    b1: np.ndarray  # (width,)
    w2: np.ndarray  # (width,)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """(...) f(x) for inputs of any shape."""
        hidden = np.maximum(np.asarray(x, dtype=np.float64)[..., None] * self.W1 + self.b1, 0.0)  # (..., width)
        return hidden @ self.w2


def fire_input(T: int, c: float = 1.0, threshold: float = 1.0) -> np.ndarray:
    """(T, T) FIRE's normalised distance ψ(i − j)/ψ(max(threshold, i)), ψ(x) = log(c·x + 1), for j ≤ i; 0 above the diagonal.

    Dividing by the query's own (log) position keeps the input in [0, 1] at
    any length: the function is asked about fractions of the context it has
    already seen.
    """
    slots = np.arange(T, dtype=np.float64)
    back = np.maximum(slots[:, None] - slots[None, :], 0.0)  # (T, T)
    return np.log1p(c * back) / np.log1p(c * np.maximum(threshold, slots))[:, None]


def fire_bias(T: int, f: Callable[[np.ndarray], np.ndarray], c: float = 1.0, threshold: float = 1.0) -> np.ndarray:
    """(T, T) FIRE's causal bias f(normalised distance), with −inf above the diagonal."""
    return f(fire_input(T, c, threshold)) + causal_mask(T)


# --- past the training length, on lesson 10's "attend 3 back" head ---------------------------------

FAR_BUCKETS = 16  # a causal T5 head small enough that lesson 10's test lengths pass its max_distance
FAR_MAX_DISTANCE = 24
SHAW_CLIP = 8
FIRE_KNOTS = 9  # a piecewise-linear f on [0, 1]: the learnable function, made linear in its parameters


def _one_hot(columns: np.ndarray, width: int) -> np.ndarray:
    out = np.zeros((len(columns), width))
    out[np.arange(len(columns)), columns] = 1.0
    return out


def _t5_features(t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(N, buckets) one-hot of the causal bucket of s − t: a learned table[bucket] is any weight on it."""
    return _one_hot(relative_position_bucket(s - t, False, FAR_BUCKETS, FAR_MAX_DISTANCE), FAR_BUCKETS)


def _shaw_features(t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(N, clip + 1) one-hot of min(t − s, clip) for keys behind: a position-only Shaw head's score a_{ij}·w."""
    return _one_hot(np.clip(t - s, 0, SHAW_CLIP), SHAW_CLIP + 1)


def _kerple_features(t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(N, 1) −log(1 + |t − s|): KERPLE's log kernel with r2 = 1, r1 learned."""
    return -np.log1p(np.abs(t - s).astype(np.float64))[:, None]


def _fire_features(threshold: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """(N, knots) hat functions of FIRE's input log(1 + (t − s))/log(1 + max(threshold, t)): f is any piecewise-linear curve through the knots."""

    def hats(t: np.ndarray, s: np.ndarray) -> np.ndarray:
        back = np.maximum(t - s, 0).astype(np.float64)
        x = np.log1p(back) / np.log1p(np.maximum(t, threshold).astype(np.float64))  # (N,) in [0, 1]
        knots = np.linspace(0.0, 1.0, FIRE_KNOTS)
        return np.maximum(1.0 - np.abs(x[:, None] - knots[None, :]) * (FIRE_KNOTS - 1), 0.0)

    return hats


def relative_heads() -> tuple[BackHead, ...]:
    """The relative family as position-only heads, each with the same encoding at test time."""
    return (
        BackHead(f"T5 buckets (causal, {FAR_BUCKETS}, {FAR_MAX_DISTANCE})", _t5_features, _t5_features),
        BackHead(f"Shaw, clipped at {SHAW_CLIP}", _shaw_features, _shaw_features),
        BackHead("KERPLE, log kernel", _kerple_features, _kerple_features),
        BackHead("FIRE, no threshold", _fire_features(1), _fire_features(1)),
        BackHead(f"FIRE, threshold {TRAIN_LENGTH}", _fire_features(TRAIN_LENGTH), _fire_features(TRAIN_LENGTH)),
    )


@dataclass(frozen=True)
class RelativeBackResult:
    """Each relative head's accuracy at "attend 3 back", trained on t < L and tested on L ≤ t < 4L."""

    names: tuple[str, ...]
    train: tuple[float, ...]
    test: tuple[float, ...]


def relative_attend_back_experiment() -> RelativeBackResult:
    """Train every head of :func:`relative_heads` as lesson 10 trains its heads."""
    fits = [train_back_head(head) for head in relative_heads()]
    return RelativeBackResult(tuple(h.name for h in relative_heads()), tuple(f[0] for f in fits), tuple(f[1] for f in fits))


# --- lesson 11's figures ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RelativeLessonResult:
    """Lesson 11's figures, each computed by the functions above."""

    behind: np.ndarray  # (11,) distances 0 … 10 behind the query
    buckets_behind: np.ndarray  # (11,) their bidirectional (32, 128) buckets
    buckets_ahead: np.ndarray  # (11,) the same distances ahead of the query
    causal_ahead: np.ndarray  # (11,) causal buckets of keys ahead: all 0
    last_bidirectional: tuple[int, int]  # (first distance in the last bucket, (32, 128) bidirectional; how many of 1 … 4096 share it)
    last_causal: tuple[int, int]  # the same, causal
    distinct_within: int  # distinct buckets among distances 0 … 127 behind, causal (32, 128)
    small_buckets: np.ndarray  # (T, T) bidirectional buckets, 16 buckets, max_distance 32, T = 16
    small_causal: np.ndarray  # (T, T) the same, causal
    shaw_index: np.ndarray  # (T, T) the clipped row each pair reads, clip 3, T = 10
    txl_position_spread: float  # max spread of term (d) along a diagonal: rounding
    txl_content_spread: float  # the same for term (a): the content term is no function of i − j
    kerple_log: np.ndarray  # (4,) −log(1 + Δ) at Δ = 1, 10, 100, 1000
    alibi_half: np.ndarray  # (4,) ALiBi's −Δ/2 at the same distances
    kerple_alibi_gap: float  # max|KERPLE power (r2 = 1, r1 = slopes) − ALiBi's symmetric bias|
    fire_short: float  # FIRE's input for 3 back at query 31
    fire_long: float  # ... at query 127


def relative_lesson_experiment(seed: int = 42) -> RelativeLessonResult:
    rng = np.random.default_rng(seed)
    distances = np.arange(11)
    X = rng.standard_normal((8, 8))
    Wq, Wk, Wr = (rng.standard_normal((8, 4)) for _ in range(3))
    terms = transformer_xl_terms(X, Wq, Wk, Wr, rng.standard_normal(4), rng.standard_normal(4))

    def diagonal_spread(term: np.ndarray) -> float:
        return float(max(np.ptp(np.diagonal(term, -back)) for back in range(1, 7)))

    slots16 = np.arange(16)
    offsets16 = slots16[None, :] - slots16[:, None]
    fire = fire_input(128)
    return RelativeLessonResult(
        behind=distances,
        buckets_behind=relative_position_bucket(-distances),
        buckets_ahead=relative_position_bucket(distances),
        causal_ahead=relative_position_bucket(distances, bidirectional=False),
        last_bidirectional=offsets_sharing_last_bucket(True),
        last_causal=offsets_sharing_last_bucket(False),
        distinct_within=len(np.unique(relative_position_bucket(-np.arange(128), bidirectional=False))),
        small_buckets=relative_position_bucket(offsets16, True, 16, 32).astype(np.float64),
        small_causal=relative_position_bucket(offsets16, False, 16, 32).astype(np.float64),
        shaw_index=shaw_clipped_index(10, 3).astype(np.float64),
        txl_position_spread=diagonal_spread(terms[3]),
        txl_content_spread=diagonal_spread(terms[0]),
        kerple_log=-np.log1p(np.array([1.0, 10.0, 100.0, 1000.0])),
        alibi_half=-np.array([1.0, 10.0, 100.0, 1000.0]) / 2,
        kerple_alibi_gap=float(np.max(np.abs(kerple_bias(12, alibi_slopes(8), np.ones(8), "power") - symmetric_alibi_bias(8, 12)))),
        fire_short=float(fire[31, 28]),
        fire_long=float(fire[127, 124]),
    )
