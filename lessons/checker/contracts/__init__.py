"""One contract per exercise: the names an answer defines, how a rerun changes them, and the judge.

A judge gets both runs of the learner's script (:class:`Runs`) and either
returns :class:`Passed` or raises :class:`Mistake`, checking from the most
fundamental mistake to the least so the first that applies is the one told.

Each contract's module is imported at its first use (:data:`CONTRACTS`): a
check from the command line imports its own exercise's judge, not all of them
(and not the core's modules only the others need).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module

from attnpos.lessons.checker.contracts.common import Contract, Question, Rerun, Runs

# contract key -> (its module in this package, the Contract it defines)
WHERE = {
    "forget-reorder": ("forget_reorder", "FORGET_REORDER"),
    "constant-offset": ("constant_offset", "CONSTANT_OFFSET"),
    "identical-tokens": ("identical_tokens", "IDENTICAL_TOKENS"),
    "order-checks": ("order_checks", "ORDER_CHECKS"),
    "embedding-backward": ("embedding_backward", "EMBEDDING_BACKWARD"),
    "sinusoidal-table": ("sinusoidal_table", "SINUSOIDAL_TABLE"),
    "learned-positions": ("learned_positions", "LEARNED_POSITIONS"),
    "rope": ("rope", "ROPE"),
    "alibi": ("alibi", "ALIBI"),
    "context-extension": ("context_extension", "CONTEXT_EXTENSION"),
    "t5-buckets": ("t5_buckets", "T5_BUCKETS"),
    "permutation-matrix": ("permutation_matrix", "PERMUTATION_MATRIX"),
    "three-families": ("three_families", "THREE_FAMILIES"),
}


class Contracts(MutableMapping[str, Contract]):
    """Every contract by key, as a dict would give it, each imported when first asked for (a test may put its own in)."""

    def __init__(self) -> None:
        self._loaded: dict[str, Contract] = {}

    def __getitem__(self, key: str) -> Contract:
        if key not in self._loaded:
            module, name = WHERE[key]  # a KeyError for an unknown contract, as a dict's
            self._loaded[key] = getattr(import_module(f"{__name__}.{module}"), name)
        return self._loaded[key]

    def __setitem__(self, key: str, contract: Contract) -> None:
        self._loaded[key] = contract

    def __delitem__(self, key: str) -> None:
        del self._loaded[key]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*WHERE, *self._loaded]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*WHERE, *self._loaded]))


CONTRACTS = Contracts()

__all__ = ["CONTRACTS", "Contract", "Question", "Rerun", "Runs"]
