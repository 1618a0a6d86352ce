"""Lesson 10's experiments and figures: stretching RoPE, Chen et al.'s bound, a head trained to attend back, NoPE."""

from __future__ import annotations

from attnpos.core.extension import (
    attend_back_experiment,
    interpolation_bound_experiment,
    nope_first_token_share,
    nope_weights,
    scaling_rules_experiment,
)
from attnpos.lessons.course.figures import Experiment, Figure, result, rows, token_labels


def rules():
    return result("scaling-rules")


def bound():
    return result("interpolation-bound")


EXPERIMENTS = (
    Experiment("scaling-rules", "Stretching RoPE: which pairs PI, NTK, YaRN and Llama 3.1 change", scaling_rules_experiment),
    Experiment("interpolation-bound", "Chen et al.'s argument, small: a RoPE fit extrapolated and interpolated", interpolation_bound_experiment),
    Experiment("attend-back", "Attend 3 back: a position-only head trained on t < 32, tested to 128", attend_back_experiment),
)

FIGURES = (
    Figure("rules.ntk_bases", "NTK-aware bases for s = 2, 4, 8, d = 128", lambda: ", ".join(f"{b:,.0f}" for b in rules().ntk_bases)),
    Figure("rules.ntk_first_ratio", "pair 0's frequency after NTK ÷ before", lambda: rules().ntk_first_ratio),
    Figure("rules.ntk_last_ratio", "the last pair's", lambda: rules().ntk_last_ratio),
    Figure("rules.yarn_ramp", "YaRN's ramp pairs at base 10,000, L = 4,096, d = 128", lambda: f"{rules().yarn_ramp[0]} to {rules().yarn_ramp[1]}"),
    Figure("rules.yarn_code_30", "pair 30's frequency ratio under YaRN's reference code (ramp over the pair index)", lambda: rules().yarn_ratio[30]),
    Figure("rules.yarn_paper_30", "pair 30's frequency ratio under YaRN's equation 18 (ramp in turns)", lambda: rules().yarn_paper_ratio[30]),
    Figure("rules.yarn_factor", "YaRN's attention factor at s = 4", lambda: rules().yarn_attention_factor),
    Figure("rules.yarn_logit_factor", "what YaRN's factor does to every logit at s = 4: its square, 1/t", lambda: rules().yarn_logit_factor),
    Figure("rules.llama3_kept", "pairs Llama 3.1 keeps", lambda: rules().llama3_kept),
    Figure("rules.llama3_divided", "pairs it divides by 8", lambda: rules().llama3_divided),
    Figure("rules.llama3_blended", "pairs it blends", lambda: rules().llama3_blended),
    Figure("bound.d", "head width of the fit", lambda: bound().d),
    Figure("bound.length", "the trained range [0, L]", lambda: bound().length),
    Figure("bound.inside", "max|fit| on [0, L], ridge 1e-6", lambda: bound().inside),
    Figure("bound.extrapolated", "max|fit| on [L, 2L]", lambda: bound().extrapolated),
    Figure("bound.interpolated", "max|fit| at interpolated positions", lambda: bound().interpolated),
    Figure("bound.slowest_angle", "radians the slowest pair turns over [0, L]", lambda: bound().slowest_angle),
    Figure("bound.ridge_mid", "max|fit| on [L, 2L] with ridge 1e-3", lambda: bound().ridge[0][2]),
    Figure("bound.ridge_large", "max|fit| on [L, 2L] with ridge 0.1", lambda: bound().ridge[-1][2]),
    Figure("bound.ridge_large_inside", "max|fit| on [0, L] with ridge 0.1", lambda: bound().ridge[-1][1]),
    Figure("nope.weights", "a causal head with no signal and equal scores", nope_weights, token_labels(8)),
    Figure("nope.shares", "the first token's share of slots 0–5, NoPE with a causal mask", lambda: rows(nope_first_token_share(6))),
)
