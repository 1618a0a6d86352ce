"""Deterministic word vectors, so a sentence always gets the same numbers.

There is no trained model here: each distinct word gets a Gaussian vector
drawn from a generator seeded by the word's CRC-32 and the course seed, so
"the" is the same vector at every position and in every run.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

import numpy as np

# Lesson 3's sentence and the seed and width of its word vectors and head; the
# playground starts from the same three, so its first grid is lesson 3's.
SENTENCE_A = ("the", "cat", "sat", "on", "the", "mat")
SENTENCE_SEED = 7
SENTENCE_WIDTH = 8


@lru_cache(maxsize=4096)
def word_vector(word: str, C: int, seed: int = 0) -> np.ndarray:
    """(C,) vector for one word; identical words give identical vectors.

    Cached (a generator per word is the slow part of a 64-token sentence) and
    read-only, so no caller can change the vector another one will get.
    """
    key = zlib.crc32(word.encode("utf-8"))
    vector = np.random.default_rng([seed, key]).standard_normal(C)
    vector.flags.writeable = False
    return vector


def sentence_matrix(tokens: list[str], C: int, seed: int = 0) -> np.ndarray:
    """(T, C) rows of word vectors, one per token, in the order given."""
    return np.stack([word_vector(t, C, seed) for t in tokens]) if tokens else np.zeros((0, C))


def head_weights(C: int, hs: int, seed: int = 0, init_scale: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wq, Wk, Wv, each (C, hs), drawn in that order from one seeded generator."""
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((C, hs)) * init_scale for _ in range(3))  # type: ignore[return-value]


def tokenize(text: str, by: str = "word") -> list[str]:
    """Split text into word tokens (on whitespace) or character tokens (spaces dropped)."""
    if by == "char":
        return [ch for ch in text if not ch.isspace()]
    return text.split()


def label_tokens(tokens: list[str]) -> list[str]:
    """Labels that tell repeated tokens apart by their slot: the₀ … the₄."""
    digits = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    repeated = {t for t in tokens if tokens.count(t) > 1}
    return [f"{t}{str(i).translate(digits)}" if t in repeated else t for i, t in enumerate(tokens)]
