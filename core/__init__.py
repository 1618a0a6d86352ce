"""attnpos.core: the NumPy engine behind every figure of the course.

Pure NumPy, float64, no UI imports. The names most lessons and exercises use
are re-exported here, so a learner can write ``from attnpos.core import self_attention``.
"""

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
from attnpos.core.relative import relative_position_bucket, t5_relative_bias
from attnpos.core.words import head_weights, label_tokens, sentence_matrix, tokenize, word_vector

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
