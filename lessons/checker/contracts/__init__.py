"""One contract per exercise: the names an answer defines, how a rerun changes them, and the judge.

A judge gets both runs of the learner's script (:class:`Runs`) and either
returns :class:`Passed` or raises :class:`Mistake`, checking from the most
fundamental mistake to the least so the first that applies is the one told.
"""

from __future__ import annotations

from attnpos.lessons.checker.contracts.alibi import ALIBI
from attnpos.lessons.checker.contracts.common import Contract, Question, Rerun, Runs
from attnpos.lessons.checker.contracts.constant_offset import CONSTANT_OFFSET
from attnpos.lessons.checker.contracts.context_extension import CONTEXT_EXTENSION
from attnpos.lessons.checker.contracts.embedding_backward import EMBEDDING_BACKWARD
from attnpos.lessons.checker.contracts.forget_reorder import FORGET_REORDER
from attnpos.lessons.checker.contracts.identical_tokens import IDENTICAL_TOKENS
from attnpos.lessons.checker.contracts.learned_positions import LEARNED_POSITIONS
from attnpos.lessons.checker.contracts.order_checks import ORDER_CHECKS
from attnpos.lessons.checker.contracts.permutation_matrix import PERMUTATION_MATRIX
from attnpos.lessons.checker.contracts.rope import ROPE
from attnpos.lessons.checker.contracts.sinusoidal_table import SINUSOIDAL_TABLE
from attnpos.lessons.checker.contracts.t5_buckets import T5_BUCKETS

CONTRACTS: dict[str, Contract] = {
    "forget-reorder": FORGET_REORDER,
    "constant-offset": CONSTANT_OFFSET,
    "identical-tokens": IDENTICAL_TOKENS,
    "order-checks": ORDER_CHECKS,
    "embedding-backward": EMBEDDING_BACKWARD,
    "sinusoidal-table": SINUSOIDAL_TABLE,
    "learned-positions": LEARNED_POSITIONS,
    "rope": ROPE,
    "alibi": ALIBI,
    "context-extension": CONTEXT_EXTENSION,
    "t5-buckets": T5_BUCKETS,
    "permutation-matrix": PERMUTATION_MATRIX,
}

__all__ = ["CONTRACTS", "Contract", "Question", "Rerun", "Runs"]
