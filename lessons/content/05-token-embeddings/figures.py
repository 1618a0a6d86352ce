"""Lesson 5's experiments and figures: a token table, its lookup and scatter-add gradient, √d_model."""

from __future__ import annotations

from attnpos.core import cure_experiments as cx
from attnpos.lessons.course.figures import Experiment, Figure, channels, result


def embedding():
    return result("embedding")


def scale():
    return result("embedding-scale")


def _ids() -> list[str]:
    return [f"id {v}" for v in range(cx.EMBED_VOCAB)]


ID_AXES = (_ids, None, channels(cx.EMBED_WIDTH))  # a (V, C) table: a row per id, a column per channel


EXPERIMENTS = (
    Experiment("embedding", "A token table: lookup, scatter-add gradient against finite differences, the buffered trap", cx.embedding_experiment),
    Experiment("embedding-scale", "Why token rows are multiplied by √d_model: the norms at d_model = 512", cx.scale_experiment),
)

FIGURES = (
    Figure("embed.ids", "the demo's (B, T) ids", lambda: embedding().ids.tolist()),
    Figure("embed.vocab", "rows of the demo table", lambda: cx.EMBED_VOCAB),
    Figure("embed.width", "channels of the demo table", lambda: cx.EMBED_WIDTH),
    Figure("embed.parameters", "V × C of the demo table", lambda: embedding().parameters),
    Figure("embed.uses", "how often each id of the demo is looked up", lambda: ", ".join(f"{v}: {n}" for v, n in enumerate(embedding().uses) if n)),
    Figure("embed.unused_rows", "rows of the demo table no id looks up", lambda: embedding().unused_rows),
    Figure("embed.onehot_gap", "max|scatter-add − onehotᵀ·g|", lambda: embedding().onehot_gap),
    Figure("embed.fd_gap", "max|scatter-add − central differences|", lambda: embedding().finite_difference_gap),
    Figure("embed.fd_step", "the central-difference step", lambda: cx.FD_STEP),
    Figure("embed.buffered", "the thrice-used row's gradient with grad[ids] += 1", lambda: embedding().buffered_repeat),
    Figure("embed.unbuffered", "the same with np.add.at", lambda: embedding().unbuffered_repeat),
    Figure("embed.scatter", "np.add.at of a gradient of ones into the 12 × 4 table", lambda: embedding().ones_scatter, *ID_AXES),
    Figure("embed.buffered_grad", "grad[ids] += ones: the buffered version", lambda: embedding().ones_buffered, *ID_AXES),
    Figure("embed.gpt2_wte", "GPT-2's token table, 50257 × 768", lambda: embedding().gpt2_wte),
    Figure("embed.gpt2_share", "that table's share of GPT-2 small's parameters", lambda: embedding().gpt2_wte_share),
    Figure("scale.width", "d_model of the norm comparison", lambda: scale().width),
    Figure("scale.position_norm", "norm of every sinusoidal row at d_model = 512", lambda: scale().position_norm),
    Figure("scale.token_norm", "mean norm of token rows drawn N(0, 1/512)", lambda: scale().token_norm),
    Figure("scale.scaled_norm", "the same rows times √512", lambda: scale().scaled_token_norm),
)
