"""Lesson 6's experiment and figures: the sinusoidal encoding, channel by channel."""

from __future__ import annotations

from attnpos.core import cure_experiments as cx
from attnpos.lessons.course.figures import Experiment, Figure, channels, positions, result


def sine():
    return result("sinusoidal")


def _bits() -> list[str]:
    return [str(b) for b in range(cx.SINE_BITS)]


TERMS = "position-position", "content-position"  # the score terms the lesson tabulates


EXPERIMENTS = (Experiment("sinusoidal", "The sinusoidal encoding: shift matrix, offset-only products, what a projection keeps", cx.sinusoidal_experiment),)

FIGURES = (
    Figure("sine.table", "the sinusoidal table, 16 positions × 8 channels", lambda: sine().table, positions(cx.SINE_T), None, channels(cx.SINE_C)),
    Figure("sine.counter", "the bits of 0 … 15, lowest first", lambda: sine().counter, positions(cx.SINE_T), None, _bits),
    Figure("sine.products", "PE[s]·PE[t] for the 16 × 8 table", lambda: sine().products, positions(cx.SINE_T), None, channels(cx.SINE_T)),
    Figure("sine.frequencies", "ω_i for C = 8", lambda: ", ".join(f"{w:g}" for w in sine().frequencies)),
    Figure("sine.wavelengths", "2π/ω_i for C = 8", lambda: ", ".join(f"{w:,.1f}" for w in sine().wavelengths)),
    Figure("sine.longest_512", "the longest wavelength at d_model = 512", lambda: sine().longest_wavelength_512),
    Figure("sine.paper_bound", "10000·2π", lambda: sine().paper_bound),
    Figure("sine.row_zero", "PE[0] for C = 8", lambda: "(" + ", ".join(f"{v:g}" for v in sine().row_zero) + ")"),
    Figure("sine.norm_error", "max|‖PE[t]‖ − √(C/2)|, C = 512, t < 100", lambda: sine().norm_error),
    Figure("sine.shift_error", "max|PE[t+k] − M_k·PE[t]|, C = 512, t < 100, k ≤ 10", lambda: sine().shift_error),
    Figure("sine.product_k", "the offset of the product check", lambda: cx.PRODUCT_K),
    Figure("sine.product_512", "PE[t]·PE[t+7] at d_model = 512", lambda: sine().product_512),
    Figure("sine.product_spread", "its spread over t", lambda: sine().product_spread),
    Figure("sine.symmetric_error", "max|product(k) − product(−k)|", lambda: sine().symmetric_error),
    Figure("sine.profile", "PE[0]·PE[k] for k = 0 … 15, C = 8", lambda: ", ".join(f"{v:.2f}" for v in sine().offset_profile)),
    Figure("sine.first_rise", "the first k at which PE[0]·PE[k] rises again", lambda: sine().first_rise),
    Figure("sine.halves_gap", "max|halves − interleaved, channels permuted|", lambda: sine().halves_gap),
    Figure("sine.term_offset", "the offset k of the score-terms table", lambda: cx.TERM_OFFSET),
    Figure("sine.pp_terms", "position–position term at t = 0, 5, 10, 20", lambda: ", ".join(f"{v[TERMS[0]]:+.2f}" for v in sine().terms.values())),
    Figure("sine.cp_terms", "content–position term at t = 0, 5, 10, 20", lambda: ", ".join(f"{v[TERMS[1]]:+.2f}" for v in sine().terms.values())),
)
