"""attnpos.core: the NumPy engine behind every figure of the course.

Pure NumPy, float64, no UI imports. The names most lessons and exercises use
are re-exported here, so a learner can write ``from attnpos.core import self_attention``.
"""

from typing import TYPE_CHECKING

from attnpos.core.attention import Attention, attend, attention_output, causal_mask, self_attention, softmax
from attnpos.core.permutation import (
    equivariance_gap,
    is_permutation,
    naive_gap,
    permutation_matrix,
    permute_tokens,
    pooled_readout,
)
from attnpos.core.position import (
    alibi_bias,
    alibi_slopes,
    alibi_window,
    constant_offset,
    embed,
    embed_backward,
    learned_positions,
    learned_table,
    rope_channel_pairs,
    rope_inv_freq,
    rope_rotate,
    sinusoidal,
    slot_ramp,
    symmetric_alibi_bias,
)
from attnpos.core.words import head_weights, label_tokens, sentence_matrix, tokenize, word_vector

if TYPE_CHECKING:
    from attnpos.core.relative import relative_position_bucket, t5_relative_bias

# Imported on first use (PEP 562): the fork server imports this package before every learner's run, and the
# relative family's module brings lesson 10's experiments with it, which no answer needs (an eighth of a cold
# check's server start, docs/PERFORMANCE.md).
_RELATIVE = ("relative_position_bucket", "t5_relative_bias")


def __getattr__(name: str) -> object:
    if name not in _RELATIVE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from attnpos.core import relative

    return getattr(relative, name)


__all__ = [
    "Attention",
    "attend",
    "attention_output",
    "causal_mask",
    "self_attention",
    "softmax",
    "equivariance_gap",
    "is_permutation",
    "naive_gap",
    "permutation_matrix",
    "permute_tokens",
    "pooled_readout",
    "alibi_bias",
    "alibi_slopes",
    "alibi_window",
    "constant_offset",
    "embed",
    "embed_backward",
    "learned_positions",
    "learned_table",
    "rope_channel_pairs",
    "rope_inv_freq",
    "rope_rotate",
    "sinusoidal",
    "slot_ramp",
    "symmetric_alibi_bias",
    "relative_position_bucket",
    "t5_relative_bias",
    "head_weights",
    "label_tokens",
    "sentence_matrix",
    "tokenize",
    "word_vector",
]
