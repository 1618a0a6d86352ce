"""Lesson 2's experiments and figures: the proof line by line, invariant against equivariant, a whole stack, √d_k."""

from __future__ import annotations

from attnpos.core import experiments as ex
from attnpos.lessons.course.figures import Experiment, Figure, result

EXPERIMENTS = (
    Experiment("scaling", "Dividing the scores by √d_k keeps their variance near 1", ex.scaling_experiment),
    Experiment("proof", "The equivariance proof line by line: scores relabelled, softmax commutes with P, PᵀP = I", ex.equivariance_proof_experiment),
    Experiment("invariance", "Invariant and equivariant: neither implies the other; a map that is both gives every row one output", ex.invariance_experiment),
    Experiment("stack", "A whole unmasked stack (heads, W_O, residuals, LayerNorm, MLP) is equivariant; a mask breaks it", ex.stack_experiment),
)

FIGURES = (
    Figure("scaling.d_k", "the key width of the variance demo", lambda: result("scaling").d_k),
    Figure("scaling.raw_variance", "variance of q·k for random unit-variance q, k", lambda: result("scaling").raw_variance),
    Figure("scaling.scaled_variance", "variance of q·k/√d_k", lambda: result("scaling").scaled_variance),
    Figure("proof.scores_gap", "max|S(PX) − P S Pᵀ| on the seed-42 head", lambda: result("proof").scores_gap),
    Figure("proof.softmax_gap", "max|softmax(P S Pᵀ) − P softmax(S) Pᵀ|", lambda: result("proof").softmax_gap),
    Figure("proof.output_gap", "max|attn(PX) − P attn(X)| through the proof's matrices", lambda: result("proof").output_gap),
    Figure("proof.identity", "PᵀP is exactly the identity", lambda: result("proof").transpose_is_inverse),
    Figure("invariance.first_row_invariance_gap", "mean in row 0: max|f(PX) − f(X)|", lambda: result("invariance").first_row_invariance_gap),
    Figure("invariance.first_row_equivariance_gap", "mean in row 0: max|f(PX) − P f(X)|", lambda: result("invariance").first_row_equivariance_gap),
    Figure("invariance.every_row_invariance_gap", "mean in every row: max|f(PX) − f(X)|", lambda: result("invariance").every_row_invariance_gap),
    Figure("invariance.every_row_equivariance_gap", "mean in every row: max|f(PX) − P f(X)|", lambda: result("invariance").every_row_equivariance_gap),
    Figure("invariance.attention_invariance_gap", "the seed-42 head: max|attn(PX) − attn(X)|", lambda: result("invariance").attention_invariance_gap),
    Figure("stack.layers", "blocks in the stack", lambda: result("stack").layers),
    Figure("stack.heads", "heads per block", lambda: result("stack").heads),
    Figure("stack.gap", "max|stack(PX) − P stack(X)| without a mask", lambda: result("stack").gap),
    Figure("stack.causal_gap", "the same with a causal mask", lambda: result("stack").causal_gap),
)
