"""The playground's computation: one sentence, one head, a position signal, a shuffle.

Everything the playground screen shows comes from :func:`play`, so a test can
check the figures on screen against the same function. Signals that are
added to the input (constant, ramp, sinusoidal, learned) stay in their slots
when the tokens move; RoPE rotates queries and keys by slot; ALiBi, as
published, lowers the score of each earlier key by its distance and masks
later keys; T5's bias adds a learned scalar per bucket of the offset, both
directions; the causal mask alone only hides later keys. The defaults (width,
seed, "the cat sat on the mat") are lesson 3's, so its first grid is the
playground's opening one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnpos.core.attention import Attention, attend
from attnpos.core.permutation import permute_tokens, pooled_readout
from attnpos.core.position import (
    TOY_OFFSET,
    alibi_bias,
    constant_offset,
    learned_positions,
    learned_table,
    rope_rotate,
    sinusoidal,
    slot_ramp,
)
from attnpos.core.relative import t5_relative_bias
from attnpos.core.words import SENTENCE_A, SENTENCE_SEED, SENTENCE_WIDTH, head_weights, sentence_matrix

SIGNALS = ("none", "constant", "ramp", "causal", "sinusoidal", "learned", "rope", "alibi", "t5")
SIGNAL_NAMES = {
    "none": "no position",
    "constant": f"a constant offset ({TOY_OFFSET:g} everywhere)",
    "ramp": f"the per-slot ramp {TOY_OFFSET:g}·(t+1)",
    "causal": "NoPE: a causal mask, no position vector",
    "sinusoidal": "sinusoidal encoding",
    "learned": "a learned table (seeded random)",
    "rope": "RoPE: queries and keys rotated by slot",
    "alibi": "ALiBi as published: −m·(i − j) on earlier keys, causal mask (head 0, m = 1/2)",
    "t5": "T5's bias: a scalar per bucket of j − i, both directions (seeded random table, 32 buckets)",
}
WIDTH = SENTENCE_WIDTH  # C: lesson 3's width, so the default state is lesson 3's sentence
DEFAULT_SEED = SENTENCE_SEED
DEFAULT_SENTENCE = " ".join(SENTENCE_A)
PLAYGROUND_MAX_TOKENS = 64
LEARNED_SCALE = 1.0  # a trained table would be learned; seeded random rows of this size show the effect
ALIBI_HEADS = 8
T5_BUCKETS = 32  # T5's own count; a playground sentence (≤ 64 tokens) stays inside max_distance 128
SAME = 1e-9  # differences below this are rounding noise


def additive_signal(signal: str, T: int, C: int, seed: int) -> np.ndarray | None:
    """(T, C) signal added to the input for the additive kinds; None for none, RoPE and ALiBi."""
    if signal == "constant":
        return constant_offset(T, C)
    if signal == "ramp":
        return slot_ramp(T, C)
    if signal == "sinusoidal":
        return sinusoidal(T, C)
    if signal == "learned":
        return learned_positions(learned_table(PLAYGROUND_MAX_TOKENS, C, seed=seed, scale=LEARNED_SCALE), T)
    return None


def attend_with_signal(
    X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray, signal: str, *, temperature: float = 1.0, seed: int = DEFAULT_SEED
) -> Attention:
    """Self-attention over X (T, C) with a position signal; temperature divides the scores.

    X: (T, C); Wq, Wk, Wv: (C, hs). Returns outputs (T, hs) and weights (T, T).
    """
    if signal not in SIGNALS:
        raise ValueError(f"unknown signal {signal!r}; one of {', '.join(SIGNALS)}")
    T, C = X.shape
    added = additive_signal(signal, T, C, seed)
    if added is not None:
        X = X + added
    Q, K, V = X @ Wq, X @ Wk, X @ Wv  # (T, hs)
    if signal == "rope":
        Q, K = rope_rotate(Q), rope_rotate(K)
    bias = alibi_bias(ALIBI_HEADS, T)[0] if signal == "alibi" else None  # (T, T) head 0, the steepest, mask included
    if signal == "t5":
        bias = t5_relative_bias(T, t5_table(seed))[0]  # (T, T) one head of a bidirectional (encoder) bias
    scale = 1.0 / (np.sqrt(Q.shape[-1]) * temperature) if temperature > 0 else 0.0
    return attend(Q, K, V, bias=bias, scale=scale, causal=signal == "causal")


def t5_table(seed: int) -> np.ndarray:
    """(1, T5_BUCKETS) one head's scalars, seeded random as the learned table is: a trained model would have learned them."""
    return LEARNED_SCALE * np.random.default_rng(seed).standard_normal((1, T5_BUCKETS))


@dataclass(frozen=True)
class Play:
    """One state of the playground and its figures."""

    tokens: tuple[str, ...]
    perm: tuple[int, ...]  # the shuffled order shows token perm[k] in slot k
    signal: str
    temperature: float
    seed: int
    weights: np.ndarray  # (T, T) tokens in their first order
    outputs: np.ndarray  # (T, C)
    shuffled_weights: np.ndarray  # (T, T) tokens in the order perm
    shuffled_outputs: np.ndarray  # (T, C)
    gap: float  # max|attn(PX) − P·attn(X)|
    pooled_gap: float  # max|Σ outputs of the shuffled order − Σ outputs of the first|
    twins: tuple[tuple[int, int, bool], ...]  # (i, j, rows identical) for each pair of equal tokens

    @property
    def equivariant(self) -> bool:
        return self.gap < SAME

    @property
    def pooled_tells_apart(self) -> bool:
        return self.pooled_gap >= SAME


def sentence_length_problem(count: int, unit: str = "word") -> str | None:
    """Why a sentence of ``count`` tokens cannot go in the playground, or None: the one home of the 1 … PLAYGROUND_MAX_TOKENS rule.

    ``unit`` is "word" or "char" (how the sentence is cut, attnpos.core.words.tokenize).
    """
    name = "character" if unit == "char" else unit
    if count < 1:
        return f"The playground needs at least one {name}."
    if count > PLAYGROUND_MAX_TOKENS:
        return f"The playground takes up to {PLAYGROUND_MAX_TOKENS} {name}s; that is {count}."
    return None


def play(tokens: list[str], perm: list[int] | None = None, signal: str = "none", *, temperature: float = 1.0, seed: int = DEFAULT_SEED) -> Play:
    """Attend over the sentence in its first order and in ``perm``, and compare."""
    T = len(tokens)
    problem = sentence_length_problem(T, "token")
    if problem is not None:
        raise ValueError(problem)
    order = np.arange(T) if perm is None else np.asarray(perm)
    X = sentence_matrix(tokens, WIDTH, seed)  # (T, C)
    head = head_weights(WIDTH, WIDTH, seed)
    first = attend_with_signal(X, *head, signal, temperature=temperature, seed=seed)
    moved = attend_with_signal(permute_tokens(X, order), *head, signal, temperature=temperature, seed=seed)
    twins = tuple((i, j, bool(np.max(np.abs(first.out[i] - first.out[j])) < SAME)) for i in range(T) for j in range(i + 1, T) if tokens[i] == tokens[j])
    return Play(
        tokens=tuple(tokens),
        perm=tuple(int(p) for p in order),
        signal=signal,
        temperature=temperature,
        seed=seed,
        weights=first.weights,
        outputs=first.out,
        shuffled_weights=moved.weights,
        shuffled_outputs=moved.out,
        gap=float(np.max(np.abs(moved.out - permute_tokens(first.out, order)))),
        pooled_gap=float(np.max(np.abs(pooled_readout(moved.out) - pooled_readout(first.out)))),
        twins=twins,
    )


def row_change(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """(T,) the largest change of each row between two (T, T) weight matrices."""
    return np.max(np.abs(after - before), axis=1)
