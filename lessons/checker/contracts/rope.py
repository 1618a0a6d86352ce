"""rope: rotate q and k (never v) pair by pair, in the half-split layout, and use them in a head.

Each of q, k and out is compared with what the learner's own X, projections
and positions give, and, when it differs, with each misconception computed
from the same arrays: the other layout, positions one off, one angle for
every pair, the opposite turn, X rotated before the projections, v rotated
too. The rerun moves every position 1,000 slots on: a right head's q and k
change with it while its out does not; typed arrays, or positions built
inside the script, do not follow. That rerun also asks ``apply_rope``, where
the script defines one, to turn the same x by positions all 0: one that
reads the script's own ``positions`` rather than its argument does not give
x back; and by as many other positions (reversed, one slot on), where one
that reads the script's own unless given zeros answers as it first did.
``rotate_half`` is asked about a square x wider than the head and about
one with a leading axis more: the brief's halves are the last axis's. A helper that
raises on the checker's own x is told so, with the call.
A second rerun widens the head by two
pairs, adds three tokens and opens gaps between the positions: a width typed
in (8, its half 4), a token count typed in (6) and positions assumed contiguous (``positions[0] + np.arange(T)``) do
not follow it, and neither does a rope_theta typed in (that rerun also
changes the base).
"""

from __future__ import annotations

import numpy as np
from msgspec import Struct

from attnpos.core import attend, rope_inv_freq, rope_rotate
from attnpos.lessons.checker.contracts.common import (
    IMPORTS_BY_NAME,
    NUMPY_AND_SOFTMAX,
    Contract,
    Question,
    Rerun,
    Runs,
    StarterSizes,
    close,
    judged_on_rerun,
    refuse_borrowing,
    sized_for_the_first_run,
    sized_for_the_starter,
    worst_entry,
)
from attnpos.lessons.checker.separation import Figure, Hypotheses
from attnpos.lessons.checker.substitutes import (
    APPLY_ROPE_ASKED,
    APPLY_ROPE_BATCHED,
    APPLY_ROPE_CALLED,
    APPLY_ROPE_FAR,
    RAISED,
    ROPE_ASKED_POSITIONS,
    ROPE_AT_FEWER_ZEROS,
    ROPE_AT_OTHER,
    ROPE_AT_ZERO,
    ROPE_FAR_POSITIONS,
    ROPE_OTHER_POSITIONS,
    ROTATE_HALF_ASKED,
    ROTATE_HALF_ASKED_BATCHED,
    ROTATE_HALF_BATCHED_MORE_ROWS,
    ROTATE_HALF_CALLED,
    ROTATE_HALF_WIDER,
)
from attnpos.lessons.checker.substitutes import POSITION_SHIFT as SHIFT
from attnpos.lessons.checker.values import SAFETY, Values, dtype_roundoff, gap, read_head, read_output, real_array, scalar
from attnpos.lessons.checker.verdicts import Mistake, Passed, shape_text

NAMES = ("X", "Wq", "Wk", "Wv", "positions", "rope_theta", "q", "k", "out")
CHANGED = f"every position moved {SHIFT:,} slots on"
WIDER = (
    "a head four channels wider (two more pairs), gaps opened between the positions (one slot, then two, then none, in turn), "
    "another `rope_theta` and three more tokens"
)
# The starter's head: 8 channels, split in halves of 4, over 6 tokens. Its own lines set these names; an 8, a 4 or a 6
# elsewhere is a size typed in.
SIZES = StarterSizes({8: "hs", 4: "hs / 2", 6: "T"}, ("rope_theta", "rng", "X", "Wq", "Wk", "Wv", "positions", "hs"))
LAYOUT = "half"  # the brief asks for Hugging Face's rotate_half
INV_FREQ = "inv_freq"  # step 1's frequencies: read where the script sets them (a probe), checked as the brief asks
HEAD_WIDTH = "hs"  # the starter's Wq.shape[1], read (a probe) to tell a width the script set itself
HELPER_ROUNDOFFS = 64  # the helpers' tolerance, in unit roundoffs of the answer's type (float32's well within 1e-5)
# An angle of the far positions (up to 10,000 radians) held in float32, as the brief allows, is off by a few of float32's
# unit roundoffs of itself: the far ask's tolerance, in those, of the largest angle.
FAR_ANGLE_ROUNDOFFS = 4
FLOAT32_ROUNDOFF = float(np.finfo(np.float32).eps) / 2
# A script that draws arrays of its own (the starter's seed again) rather than using the given ones.
REDRAWS = Question("draws_random", (SIZES.kept,))
# Where the script types the number its rope_theta line sets: inside apply_rope, or in inv_freq's own line.
THETA_TYPED_IN = {place: Question("types_given_in", ("rope_theta", place)) for place in ("apply_rope", INV_FREQ)}


class Answer(Struct, frozen=True):
    """One run's arrays, in float64, with the tolerances the learner's dtype allows."""

    X: np.ndarray  # (..., T, C)
    Wq: np.ndarray  # (C, hs)
    Wk: np.ndarray  # (C, hs)
    Wv: np.ndarray  # (C, hv)
    positions: np.ndarray  # (T,)
    theta: float  # rope_theta, the base of the frequencies
    q: np.ndarray  # (..., T, hs)
    k: np.ndarray  # (..., T, hs)
    out: np.ndarray  # (..., T, hv)
    q_tolerance: float
    k_tolerance: float
    out_tolerance: float


def _tolerance(X: np.ndarray, W: np.ndarray, positions: np.ndarray, roundoff: float) -> float:
    """A bound on |learner's rotated projection − exact| (first order, as in values.head_precision).

    The projection is a dot product of length C; a pair a·cos − b·sin adds
    two terms of at most the largest |X|·|W|; the angle m·θ is rounded with
    relative error of a few u, so its absolute error grows with the position.
    """
    C = X.shape[-1]
    size = 2 * float(np.max(np.abs(X) @ np.abs(W)))  # |a| + |b| for a pair
    angle = float(np.max(np.abs(positions)))  # θ_0 = 1: the largest angle is the largest position
    return SAFETY * roundoff * size * (C + 8 + 4 * angle)


def _read(values: Values) -> Answer:
    head = read_head(values, ndim=(2, 3))
    hs = head.Wq.shape[1]
    if hs % 2:
        raise Mistake("bad-shape", "odd-head-width", name="Wq", shape=shape_text(head.Wq.shape))
    positions = real_array(values, "positions", (1,))
    if positions.shape != (head.tokens,):
        raise Mistake("bad-shape", "positions-length", name="positions", shape=shape_text(positions.shape), tokens=head.tokens)
    theta = scalar(values, "rope_theta")
    # q, k and out kept with a batch axis of one, as Hugging Face's tensors are: the same head over X[None]
    batch_of_one = head.X.ndim == 2 and np.shape(values["q"]) == (1, *(head.X @ head.Wq).shape)
    X = head.X[None] if batch_of_one else head.X
    projected = X @ head.Wq
    q = read_output(values, "q", projected.shape)
    k = read_output(values, "k", projected.shape)
    out = read_output(values, "out", (X @ head.Wv).shape)
    roundoff = dtype_roundoff(values, NAMES)
    q_tol = _tolerance(X, head.Wq, positions, roundoff)
    k_tol = _tolerance(X, head.Wk, positions, roundoff)
    size_q = 2 * float(np.max(np.abs(X) @ np.abs(head.Wq)))
    size_k = 2 * float(np.max(np.abs(X) @ np.abs(head.Wk)))
    score = hs * (q_tol * size_k + size_q * k_tol + roundoff * (hs + 3) * size_q * size_k) / np.sqrt(hs)
    largest_value = float(np.max(np.abs(X) @ np.abs(head.Wv)))
    out_tol = SAFETY * largest_value * (2 * score + roundoff * (X.shape[-1] + 2 * head.tokens + 4))
    return Answer(X, head.Wq, head.Wk, head.Wv, positions, theta, q, k, out, q_tol, k_tol, out_tol)


def rotated(x: np.ndarray, positions: np.ndarray, theta: float, layout: str = LAYOUT, inv_freq: np.ndarray | None = None) -> np.ndarray:
    return rope_rotate(x, positions, base=theta, pairing=layout, inv_freq=inv_freq)


def _cos_sin_swapped(x: np.ndarray, positions: np.ndarray, theta: float) -> np.ndarray:
    """(same shape) x·sin θ + rotate_half(x)·cos θ, half-split: the rotation's cos and sin exchanged (no rotation at all)."""
    half = x.shape[-1] // 2
    angles = np.asarray(positions, dtype=np.float64)[..., None] * rope_inv_freq(x.shape[-1], theta)  # (..., T, hs/2)
    cos, sin = np.cos(angles), np.sin(angles)
    a, b = x[..., :half], x[..., half:]
    return np.concatenate([a * sin - b * cos, b * sin + a * cos], axis=-1)


def _kind(got: np.ndarray, X: np.ndarray, W: np.ndarray, positions: np.ndarray, theta: float, tolerance: float) -> str:
    """Which rotation the learner's q (or k) is: "right", or the misconception it matches, or "" for none."""
    projected = X @ W  # (..., T, hs)
    hs = projected.shape[-1]
    candidates = {
        "right": lambda: rotated(projected, positions, theta),
        "unrotated": lambda: projected,
        "other-layout": lambda: rotated(projected, positions, theta, "interleaved"),
        "off-by-one/later": lambda: rotated(projected, positions + 1, theta),
        "off-by-one/earlier": lambda: rotated(projected, positions - 1, theta),
        "reversed": lambda: rotated(projected, -positions, theta),
        "cos-sin-swapped": lambda: _cos_sin_swapped(projected, positions, theta),
    }
    for name, compute in candidates.items():
        if close(got, compute(), tolerance):
            return name
    if X.shape[-1] % 2 == 0 and close(got, rotated(X, positions, theta) @ W, tolerance):
        return "rotated-x"
    for angle in (*rope_inv_freq(hs, theta), 1.0):
        if close(got, rotated(projected, positions, theta, inv_freq=np.full(hs // 2, angle)), tolerance):
            return "one-angle"
    return "one-angle" if _same_angle_every_pair(got, projected, tolerance) else ""


def _same_angle_every_pair(got: np.ndarray, projected: np.ndarray, tolerance: float) -> bool:
    """Whether every half-split pair of each row is turned, and by one angle shared by all pairs (whatever that angle is)."""
    half = projected.shape[-1] // 2
    a, b = projected[..., :half], projected[..., half:]  # (..., T, hs/2) the pairs before turning
    c, s = got[..., :half], got[..., half:]  # ... and after
    radius = np.hypot(a, b)
    if half < 2 or np.any(radius < 1e-3 * float(np.max(radius))) or not np.allclose(np.hypot(c, s), radius, rtol=0, atol=tolerance):
        return False
    angle = np.arctan2(a * s - b * c, a * c + b * s)  # (..., T, hs/2) each pair's turn
    spread = np.abs(np.angle(np.exp(1j * (angle - angle[..., :1]))))  # differences from pair 0's, wrapped to [0, π]
    turned = np.any(np.abs(angle) > 1e-6)
    return bool(turned) and bool(np.all(spread * radius <= tolerance))


def _score_shift(q_of: object, k_of: object, positions: np.ndarray) -> float:
    """max|scores at positions + SHIFT − scores at positions| for a head whose q, k are built by q_of, k_of."""
    before = q_of(positions) @ np.swapaxes(k_of(positions), -1, -2)  # type: ignore[operator]
    after = q_of(positions + SHIFT) @ np.swapaxes(k_of(positions + SHIFT), -1, -2)  # type: ignore[operator]
    return gap(before, after)


def _judge_rotation(a: Answer) -> tuple[np.ndarray, np.ndarray]:
    """The right q and k, or the first misconception of the learner's."""
    q_kind = _kind(a.q, a.X, a.Wq, a.positions, a.theta, a.q_tolerance)
    k_kind = _kind(a.k, a.X, a.Wk, a.positions, a.theta, a.k_tolerance)
    right_q, right_k = rotated(a.X @ a.Wq, a.positions, a.theta), rotated(a.X @ a.Wk, a.positions, a.theta)
    if "unrotated" in (q_kind, k_kind) and close(a.out, attend(right_q, right_k, a.X @ a.Wv).out, a.out_tolerance):
        raise Mistake("mismatch", "unrotated-after-use", name="q" if q_kind == "unrotated" else "k", W="Wq" if q_kind == "unrotated" else "Wk")
    if q_kind == "rotated-x" or k_kind == "rotated-x":
        shift = _score_shift(lambda p: rotated(a.X, p, a.theta) @ a.Wq, lambda p: rotated(a.X, p, a.theta) @ a.Wk, a.positions)
        raise Mistake("rotated-x", name="q" if q_kind == "rotated-x" else "k", shift=f"{shift:.3g}")
    if {q_kind, k_kind} == {"right", "reversed"}:
        raise Mistake("opposite-sign", name="k" if k_kind == "reversed" else "q")
    for name, kind, got, W in (("q", q_kind, a.q, a.Wq), ("k", k_kind, a.k, a.Wk)):
        if kind == "right":
            continue
        if kind in ("reversed", "cos-sin-swapped"):
            raise Mistake("mismatch", kind, name=name)
        if kind == "other-layout":
            raise Mistake("other-layout", name=name)
        if kind.startswith("off-by-one"):
            which = "every token one slot later" if kind.endswith("later") else "every token one slot earlier"
            raise Mistake("off-by-one", kind.split("/")[1], name=name, which=which)
        if kind in ("one-angle", "unrotated"):
            raise Mistake(kind if kind == "one-angle" else "mismatch", "" if kind == "one-angle" else "unrotated", name=name)
        raise Mistake("mismatch", "array", name=name, **worst_entry(name, got, rotated(a.X @ W, a.positions, a.theta)))
    return right_q, right_k


def _judge_run(a: Answer) -> None:
    q, k = _judge_rotation(a)
    v = a.X @ a.Wv
    right = attend(q, k, v).out
    if close(a.out, right, a.out_tolerance):
        return
    if close(a.out, attend(q, k, rotated(v, a.positions, a.theta)).out, a.out_tolerance):
        raise Mistake("rotated-v", name="out")  # what the shift did to the learner's out is the judge's to add (_rotated_v)
    if close(a.out, attend(q, k, v, causal=True).out, a.out_tolerance):
        raise Mistake("mismatch", "causal", name="out")
    raise Mistake("mismatch", "array", name="out", **worst_entry("out", a.out, right))


def _rotated_v(runs: Runs, first: Answer) -> Mistake:
    """v rotated too, with what moving every position on did to the learner's own out: changed it (by how much), or,
    where v turns by positions counted from the first, left it as it was."""
    try:
        second = _read(runs.second(CHANGED))
    except Mistake:  # the shifted rerun gave no out to compare: the first run's figures alone
        return Mistake("rotated-v", "unshifted", name="out")
    if second.out.shape == first.out.shape and not close(second.out, first.out, second.out_tolerance):
        return Mistake("rotated-v", name="out", shift=f"{gap(second.out, first.out):.3g}")
    return Mistake("rotated-v", "rebased", name="out", shift=f"{gap(second.out, first.out):.2g}")


# positions less their own first (or smallest): a shift of every position vanishes from q and k
REBASED = Question("subtracts_from_itself", ("positions",))


def _positions_used(got: np.ndarray, projected: np.ndarray, theta: float, tolerance: float, rebased: bool = False) -> str:
    """What a q or k that ignored the rerun's positions was turned by instead, in the learner's words."""
    if rebased:  # before the other cases: counted from the first, the starter's positions are the slots 0 … T − 1 too
        return (
            "your positions counted from the first one (`positions - positions[0]`), so that moving every position on changes nothing,"
            " where RoPE turns each token by its own position"
        )
    if close(got, projected, tolerance):
        return "no turn at all, as if every position were 0"
    if close(got, rotated(projected, np.arange(projected.shape[-2]), theta), tolerance):
        return (
            "the slots 0 … T − 1 whatever the positions are (a range of your own, those numbers typed in, or the positions wrapped round, `positions % 1000`)"
        )
    return "positions fixed in your code (typed in, or copied before the checker changed `positions`)"


def judge(runs: Runs) -> Passed:
    refuse_borrowing(runs, NUMPY_AND_SOFTMAX, "q")
    first = _read(runs.first)
    try:
        _judge_run(first)
    except Mistake as mistake:
        if mistake.diagnosis == "rotated-v":
            raise _rotated_v(runs, first) from None
        if (mistake.diagnosis, mistake.cause) == ("mismatch", "reversed") and _helpers_turn_right(runs):
            raise Mistake("mismatch", "reversed-call", name=mistake.fields.get("name", "q")) from None
        raise
    second = _read(runs.second(CHANGED))
    for name, got, before, W, tolerance in (
        ("q", second.q, first.q, second.Wq, second.q_tolerance),
        ("k", second.k, first.k, second.Wk, second.k_tolerance),
    ):
        if close(got, rotated(second.X @ W, second.positions, second.theta), tolerance):
            continue
        if np.array_equal(got, before) and close(got, rotated(second.X @ W, first.positions, second.theta), tolerance):
            raise Mistake("mismatch", "positions-ignored", name=name, used=_positions_used(got, second.X @ W, second.theta, tolerance, runs.says(REBASED)))
        if np.array_equal(got, before):
            raise Mistake("mismatch", "typed", name=name)
    _left_unchanged(runs.second(CHANGED), ROTATE_HALF_ASKED, "rotate_half")
    _turns_by_its_argument(runs.second(CHANGED))
    _turns_by_other_positions(runs.second(CHANGED))
    judged_on_rerun(lambda: _judge_run(second), CHANGED)
    try:
        sized_for_the_first_run(lambda: _judge_wider(runs, first), WIDER)
    except Mistake as mistake:
        name, wider = str(mistake.fields.get("name", "")), runs.reruns[runs.changed.index(WIDER)]
        if name in ("q", "k", "out") and wider is not None and np.array_equal(wider[name], runs.first[name]):
            raise Mistake("mismatch", "typed", name=name, changed=WIDER) from None  # the same array with more tokens: typed in
        if mistake.diagnosis in ("rerun-failed", "bad-shape", "mismatch", "one-angle", "off-by-one", "other-layout"):
            try:
                sized_for_the_starter(runs, SIZES, mistake, WIDER)
            except Mistake as sized:
                _hs_set_again(runs, str(sized.fields.get("what", "")))
                if sized.diagnosis == "mismatch" and sized.cause == "sized" and runs.says(REDRAWS):  # no size typed: arrays drawn again
                    raise Mistake(sized.diagnosis, "redrawn", **sized.fields) from None
                raise
        raise
    _rotates_halves(runs.second(CHANGED))  # after the wider rerun: a half typed in is told as typed (the probe's x is wider too)
    _inv_freq_as_asked(runs.first)
    _inv_freq_as_asked(runs.second(WIDER), runs.first)
    _left_unchanged(runs.second(WIDER), APPLY_ROPE_ASKED, "apply_rope")
    _apply_rope_as_asked(runs.second(WIDER), first.theta)
    return Passed()


def _helpers_turn_right(runs: Runs) -> bool:
    """Whether the script's rotate_half and apply_rope, asked by the reruns about x's of the checker's own, both turn
    them as the brief asks: then q and k turned backwards were turned so by what the script gave them (``-positions``,
    or negated angles), not by a sign inside either helper."""
    try:
        changed, wider = runs.second(CHANGED), runs.second(WIDER)
        if any(np.size(values.get(asked, ())) == 0 for values, asked in ((changed, ROTATE_HALF_ASKED), (wider, APPLY_ROPE_ASKED))):
            return False  # a helper not there (or not callable so): which sign turned q is not to be told
        _rotates_halves(changed)
        _apply_rope_as_asked(wider, float(scalar(runs.first, "rope_theta")))
    except Mistake:
        return False
    return True


def _hs_set_again(runs: Runs, what: str) -> None:
    """The starter sets ``hs = Wq.shape[1]``; a script that sets it to a number of its own (``hs = 8`` below the starter's
    line, or in its place) keeps that number on the wider rerun, where Wq is wider: ``hs`` as that rerun left it, read
    from the names it set before it stopped, is not Wq's width. Then the script's own ``hs`` is what the rerun broke on,
    as it is for positions or rope_theta set again (changed-input), not a width taken from somewhere else."""
    index = runs.changed.index(WIDER)
    left = runs.partial[index] if index < len(runs.partial) else runs.reruns[index]
    if left is None or HEAD_WIDTH not in left or "Wq" not in left or np.ndim(left["Wq"]) < 1 or np.size(left[HEAD_WIDTH]) != 1:
        return
    got = np.asarray(left[HEAD_WIDTH]).reshape(-1)[0]
    if not np.issubdtype(np.asarray(got).dtype, np.number):
        return
    hs, width = float(got), int(np.shape(left["Wq"])[-1])
    if hs != width:
        when = "ended" if runs.reruns[index] is not None else "stopped"
        raise Mistake("changed-input", "hs-set", hs=f"{hs:g}", width=width, changed=WIDER, what=what, when=when)


def _listed(array: np.ndarray) -> str:
    return "[" + ", ".join(f"{value:.4g}" for value in np.asarray(array, dtype=np.float64).reshape(-1)) + "]"


def _inv_freq_as_asked(values: Values, first: Values | None = None) -> None:
    """Step 1's ``inv_freq``, where the script sets one: rope_theta ** (−2i/hs) for i = 0 … hs/2 − 1, whether or not
    q and k are turned by it (q, k and out are right by now); in the run as written, or in the wider rerun (``first``
    then the run as written), where an inv_freq typed in keeps the starter's numbers."""
    if INV_FREQ not in values or values[INV_FREQ].dtype.kind not in "iuf":
        return  # none set (the brief's name is a step, the arrays are the answer), or not numbers: q, k and out told
    got = values[INV_FREQ].astype(np.float64).reshape(-1)
    hs, theta = int(np.shape(values["Wq"])[-1]), float(scalar(values, "rope_theta"))
    expected = rope_inv_freq(hs, theta)
    rtol = max(1e-6, HELPER_ROUNDOFFS * dtype_roundoff(values, NAMES))  # float32's rounding passes; float16's is the separation's to tell
    if got.shape == expected.shape and np.allclose(got, expected, rtol=rtol, atol=0.0):
        return
    kinds = {
        "the exponent −i/hs, where each pair's is −2i/hs": theta ** (-np.arange(hs // 2) / hs),
        "rope_theta to the power +2i/hs, where the exponent is negative": theta ** (np.arange(0, hs, 2) / hs),
        "one frequency per channel, not per pair": theta ** (-np.arange(hs) / hs),
    }
    if first is not None and INV_FREQ in first and np.array_equal(np.asarray(first[INV_FREQ]).reshape(-1), got):
        kinds = {"the same numbers as in your script's own run: typed in, or computed before the checker changed hs and rope_theta": got}
    what = next((f" ({words})" for words, wrong in kinds.items() if wrong.shape == got.shape and np.allclose(got, wrong, rtol=rtol, atol=0.0)), "")
    where = "" if first is None else f"when the checker reran your script with {WIDER}, "
    raise Mistake("mismatch", "inv-freq", name="inv_freq", where=where, got=_listed(got) + what, expected=_listed(expected), hs=hs, theta=f"{theta:g}")


def _apply_rope_as_asked(values: Values, first_theta: float) -> None:
    """The rerun's notes of apply_rope asked to turn an x of the checker's (substitutes.rope_asked): step 2's
    x · cos + rotate_half(x) · sin with the angles positions · inv_freq repeated over both halves, whether or not q and
    k come from it; at a few positions, then far on (where a cap, or a branch for large positions, shows)."""
    theta = float(scalar(values, "rope_theta"))
    called = values.get(APPLY_ROPE_CALLED)
    width = int(np.shape(values["Wq"])[-1])
    near = ", ".join(str(p) for p in ROPE_ASKED_POSITIONS)
    rows = f"3 rows of width {width}"
    asks = (
        (APPLY_ROPE_ASKED, ROPE_ASKED_POSITIONS, rows, ""),
        (
            APPLY_ROPE_FAR,
            ROPE_FAR_POSITIONS,
            rows,
            f"It turns x right at positions {near}, so what goes wrong is how it treats large positions (a cap, or a way of their own)",
        ),
        (
            APPLY_ROPE_BATCHED,
            ROPE_ASKED_POSITIONS,
            f"two of {rows} stacked, shape (2, 3, {width})",
            "It turns a (T, hs) x right, so what goes wrong is an x with an axis more: the brief's turn is of the last axis, whatever axes come before it",
        ),
    )
    for asked, asked_positions, x_text, told in asks:
        where = f"an x of its own, {x_text}, at positions {', '.join(str(p) for p in asked_positions)} (rope_theta {theta:g})"
        _raised(values, asked, "apply_rope", where, "-batched" if asked == APPLY_ROPE_BATCHED else "")
        asked_note = values.get(asked)
        if asked_note is None or asked_note.size == 0:
            return  # no apply_rope, or not callable on (x, positions): q, k and out are what tell
        used = told or (
            "Your q and k are right all the same, the way your script turns them" if called is not None and called.size else "Your script never calls it"
        )
        _turned_as_asked(values, asked_note, np.array(asked_positions), theta, first_theta, where, used)


def _turned_as_asked(values: Values, asked: np.ndarray, positions: np.ndarray, theta: float, first_theta: float, where: str, used: str) -> None:
    x = asked[0]
    expected = rotated(x, positions, theta)
    if asked.shape[0] == 1:
        raise Mistake("mismatch", "apply-rope", name="apply_rope", where=where, got="an array of another shape than x", expected=_last_row(expected), used=used)
    got = asked[1]
    # the answer's rounding, and the angles' (float32's allowed; float16's, which no far angle survives, is the
    # separation's to tell): a few roundoffs of the largest angle, in radians
    roundoff = dtype_roundoff(values, NAMES)
    angle = SAFETY * FAR_ANGLE_ROUNDOFFS * max(FLOAT32_ROUNDOFF, roundoff) * float(np.max(np.abs(positions)))
    atol = max(1e-5, HELPER_ROUNDOFFS * roundoff, angle) * float(np.max(np.abs(x)))
    if np.allclose(got, expected, rtol=0.0, atol=atol):
        return
    emb = np.concatenate([np.outer(positions, rope_inv_freq(x.shape[-1], theta))] * 2, axis=-1)
    kinds = {
        "x itself, not turned at all": x,
        "x · cos alone, with no rotate_half(x) · sin": x * np.cos(emb),
        "the interleaved layout": rotated(x, positions, theta, "interleaved"),
        f"turned by the positions sorted, {', '.join(f'{p:g}' for p in np.sort(positions))}, not as given": rotated(x, np.sort(positions), theta),
    }
    if first_theta != theta:
        kinds[f"turned with your own run's rope_theta = {first_theta:g} where the rerun's is {theta:g}: a base typed in, as a default argument, say"] = rotated(
            x, positions, first_theta
        )
    what = next((f" ({words})" for words, wrong in kinds.items() if np.allclose(got, wrong, rtol=0.0, atol=atol)), "")
    if not what:  # x · cos of angles of another layout (repeated pair by pair): the sine term missing all the same
        interleaved = np.repeat(np.outer(positions, rope_inv_freq(x.shape[-1], theta)), 2, axis=-1)
        if np.allclose(got, x * np.cos(interleaved), rtol=0.0, atol=atol):
            what = " (x · cos alone, its angles repeated pair by pair, with no rotate_half(x) · sin)"
    raise Mistake("mismatch", "apply-rope", name="apply_rope", where=where, got=_last_row(got) + what, expected=_last_row(expected), used=used)


def _last_row(array: np.ndarray) -> str:
    return _listed(array.reshape(-1, array.shape[-1])[-1])


def _raised(values: Values, asked: str, name: str, where: str, ask: str = "") -> None:
    """What ``name`` raised when the checker asked it about an x of its own (substitutes.RAISED), told with that call;
    ``ask`` ("-batched") where the asks before it, of a (T, hs) x, went right, so that the axis in front is what broke."""
    raised = values.get(asked + RAISED)
    if raised is None:
        return
    error = bytes(np.asarray(raised, dtype=np.uint8)).decode("utf-8", "replace").strip()  # NumPy ends some errors with a space
    raise Mistake("mismatch", f"{name.replace('_', '-')}-raised{ask}", name=name, where=where, raised=error, rows=len(ROPE_ASKED_POSITIONS))


def _turns_by_its_argument(values: Values) -> None:
    """The rerun's note of apply_rope asked to turn x by positions all 0 (substitutes.positions_followed): x must come back."""
    difference = values.get(ROPE_AT_ZERO)
    if difference is None or difference.size == 0:
        return  # no apply_rope, or not callable so: the arrays' own checks are what tell
    size = float(np.max(np.abs(values["q"]))) if np.size(values["q"]) else 1.0
    rounding = SAFETY * 4 * dtype_roundoff(values, ("q", "k")) * max(size, 1.0)
    if float(np.max(np.abs(difference))) > rounding:
        turned = f"{float(np.max(np.abs(difference))):.3g}"
        fewer = values.get(ROPE_AT_FEWER_ZEROS)
        if fewer is not None and fewer.size and float(np.max(np.abs(fewer))) <= rounding:  # right at another length: angles kept by it
            raise Mistake("mismatch", "cached-angles", name="q", turned=turned, tokens=difference.shape[-2], fewer=fewer.shape[-2])
        raise Mistake("mismatch", "global-positions", name="q", turned=turned)


def _positions_text(positions: np.ndarray) -> str:
    shown = [f"{p:g}" for p in positions]
    return ", ".join(shown) if len(shown) <= 4 else f"{shown[0]}, {shown[1]}, …, {shown[-1]}"


def _turns_by_other_positions(values: Values) -> None:
    """The rerun's note of apply_rope asked to turn the same x by as many other positions (substitutes.positions_followed):
    a turn by the positions it is given answers otherwise; one by the script's own answers as it first did."""
    turned, positions = values.get(ROPE_AT_OTHER), values.get(ROPE_OTHER_POSITIONS)
    if turned is None or positions is None or turned.shape[0] != 3:
        return  # no apply_rope, or not callable so: the arrays' own checks are what tell
    x, first, again = turned
    rounding = SAFETY * 4 * dtype_roundoff(values, ("q", "k")) * max(float(np.max(np.abs(x))), 1.0)
    if float(np.max(np.abs(x))) <= rounding or float(np.max(np.abs(again - first))) > rounding:
        return  # an x of zeros turns into itself by any position; otherwise it followed the other positions
    given, other = positions
    raise Mistake("mismatch", "own-positions", name="apply_rope", given=_positions_text(given), other=_positions_text(other))


def _first_row(array: np.ndarray) -> str:
    return "[" + ", ".join(f"{value:g}" for value in array.reshape(-1, array.shape[-1])[0]) + "]"


def _left_unchanged(values: Values, asked_name: str, name: str) -> None:
    """The note of ``name`` asked about an x of the checker's (substitutes._asked_and_noted): the x it was given must be
    as it was after the call, a caller's array left alone."""
    asked = values.get(asked_name)
    if asked is None or asked.shape[0] < 3 or np.array_equal(asked[2], asked[0]):
        return  # not asked (or its answer of another shape, which its own check reports), or x left as it was
    x, after = asked[0], asked[2]
    rows, rows_after = x.reshape(-1, x.shape[-1]), after.reshape(-1, x.shape[-1])
    row = int(np.argmax(np.max(np.abs(rows_after - rows), axis=-1)))  # the row changed most, shown
    changed = f"{int(np.count_nonzero(after != x))} of its {x.size}"
    raise Mistake("mismatch", "in-place", name=name, shape=shape_text(x.shape), x=_listed(rows[row]), after=_listed(rows_after[row]), changed=changed, row=row)


def _rotates_halves(values: Values) -> None:
    """The rerun's notes of rotate_half asked to rotate an x of the checker's (substitutes.halves_noted), (w, w), then
    (2, w, w): the brief's (x1, x2) → (−x2, x1) of the last axis, whether or not apply_rope calls it, or makes up for it."""
    for name in (ROTATE_HALF_ASKED, ROTATE_HALF_ASKED_BATCHED):
        _rotates_halves_of(values, name)


def _rotates_halves_of(values: Values, name: str) -> None:
    width = int(np.shape(values["Wq"])[-1]) + ROTATE_HALF_WIDER  # the asked x's, as substitutes.halves_noted has it
    _raised(
        values,
        name,
        "rotate_half",
        f"an x of its own of shape {shape_text((2, width + ROTATE_HALF_BATCHED_MORE_ROWS, width) if name == ROTATE_HALF_ASKED_BATCHED else (width, width))}",
    )
    asked = values.get(name)
    if asked is None or asked.size == 0:
        return  # no rotate_half, or not callable on such an x: q, k and out are what tell
    x = asked[0]
    width, hs = x.shape[-1], int(np.shape(values["Wq"])[-1])
    called = values.get(ROTATE_HALF_CALLED)
    used = "Your apply_rope makes up for it elsewhere" if called is not None and called.size else "Your script never calls it"
    where = f"of shape {shape_text(x.shape)}, whose first row is {_first_row(x)}"

    def split(at: int, axis: int = -1) -> np.ndarray:
        return np.concatenate([-np.take(x, range(at, x.shape[axis]), axis), np.take(x, range(at), axis)], axis=axis)

    expected = split(width // 2)
    if asked.shape[0] == 1:
        raise Mistake("mismatch", "rotate-half", name="rotate_half", x=where, expected=_first_row(expected), what="an array of another shape than x", used=used)
    got = asked[1]
    atol = 1e-6 * float(np.max(np.abs(x)))
    if np.allclose(got, expected, rtol=0.0, atol=atol):
        return
    half = width // 2
    kinds = {
        "the halves swapped with the first one negated, (x2, −x1): the turn the other way": np.concatenate([x[..., half:], -x[..., :half]], axis=-1),
        "x unchanged": x,
        "the halves swapped with no sign changed, (x2, x1)": np.concatenate([x[..., half:], x[..., :half]], axis=-1),
    }
    # a split right for the script's own (T, hs) arrays only: another axis than the last, or the head's half
    only_for_the_head = {
        f"the halves of axis {axis} turned rather than those of the last axis, axis {x.ndim - 1}": split(x.shape[axis] // 2, axis) for axis in range(x.ndim - 1)
    }
    for axis in range(x.ndim - 1):  # the last axis split at the middle of another's length (``len(x[0])``), or the reverse
        if x.shape[axis] // 2 != half:
            words = f"the last axis split at {x.shape[axis] // 2}, half the length of axis {axis} ({x.shape[axis]}), rather than at {half}, its own middle"
            only_for_the_head[words] = split(x.shape[axis] // 2)
        if x.shape[axis] // 2 != half and x.shape[axis] > half:
            words = f"axis {axis} split at {half}, the middle of the last axis, rather than the last axis itself"
            only_for_the_head[words] = split(half, axis)
    if hs // 2 != half:
        only_for_the_head[f"x split at your head's hs / 2 = {hs // 2} rather than at {half}, the middle of x's own last axis"] = split(hs // 2)
        head_only = np.concatenate([-x[..., hs // 2 : hs], x[..., : hs // 2], x[..., hs:]], axis=-1)
        fixed = f"its first {hs} channels split at your head's hs / 2 = {hs // 2} and the rest left as they were"
        only_for_the_head[f"{fixed} (a split of a fixed width, not of x's own last axis at {half})"] = head_only
    what = next((words for words, wrong in {**kinds, **only_for_the_head}.items() if np.allclose(got, wrong, rtol=0.0, atol=atol)), "")
    if what in only_for_the_head:
        used = "On the (T, hs) arrays your script gives it that is the same split, so your q and k come out right"
        used += "; but rotate_half must split any x's last axis at its middle"
    shown = f"{_first_row(got)}, {what}" if what else _first_row(got)
    raise Mistake("mismatch", "rotate-half", name="rotate_half", x=where, expected=_first_row(expected), what=shown, used=used)


def _judge_wider(runs: Runs, first: Answer) -> None:
    """The wider head with gaps between the positions: q and k must follow both, and out the q and k."""
    wider = _read(runs.second(WIDER))
    T = wider.positions.shape[0]
    for name, got, W, tolerance in (("q", wider.q, wider.Wq, wider.q_tolerance), ("k", wider.k, wider.Wk, wider.k_tolerance)):
        projected = wider.X @ W
        if close(got, rotated(projected, wider.positions, wider.theta), tolerance):
            continue
        if wider.theta != first.theta and close(got, rotated(projected, wider.positions, first.theta), tolerance):
            typed_in = next((place for place, question in THETA_TYPED_IN.items() if runs.says(question)), "elsewhere")
            cause = {"apply_rope": "typed-theta-apply-rope", INV_FREQ: "typed-theta", "elsewhere": "typed-theta-elsewhere"}[typed_in]
            raise Mistake("mismatch", cause, name=name, changed=WIDER, typed_theta=f"{first.theta:g}", rerun_theta=f"{wider.theta:g}")
        if close(got, rotated(projected, wider.positions[0] + np.arange(T), wider.theta), tolerance):
            raise Mistake("mismatch", "contiguous", name=name, changed=WIDER)
    q, k = rotated(wider.X @ wider.Wq, wider.positions, wider.theta), rotated(wider.X @ wider.Wk, wider.positions, wider.theta)
    right = attend(q, k, wider.X @ wider.Wv).out
    evenly = wider.positions[0] + np.arange(T)
    evenly_turned = attend(rotated(wider.X @ wider.Wq, evenly, wider.theta), rotated(wider.X @ wider.Wk, evenly, wider.theta), wider.X @ wider.Wv).out
    if not close(right, evenly_turned, wider.out_tolerance) and close(wider.out, evenly_turned, wider.out_tolerance):
        raise Mistake("mismatch", "out-contiguous", name="out", changed=WIDER)
    if np.array_equal(wider.out, first.out) and not close(right, first.out, wider.out_tolerance):
        raise Mistake("mismatch", "typed", name="out", changed=WIDER)  # the wider head's weights moved a right out; a typed one stayed
    judged_on_rerun(lambda: _judge_run(wider), WIDER)


def hypotheses(values: Values) -> Hypotheses:
    """q, k and out on one run's arrays, right and under each mistake the judge names."""
    a = _read(values)
    Pq, Pk, v = a.X @ a.Wq, a.X @ a.Wk, a.X @ a.Wv
    hs = Pq.shape[-1]

    def head(q: np.ndarray, k: np.ndarray, values_: np.ndarray = v, causal: bool = False) -> dict[str, Figure]:
        return {"q": q, "k": k, "out": attend(q, k, values_, causal=causal).out}

    q, k = rotated(Pq, a.positions, a.theta), rotated(Pk, a.positions, a.theta)
    one = np.ones(hs // 2)
    wrong: dict[str, dict[str, Figure]] = {
        "rotated-v": {"out": attend(q, k, rotated(v, a.positions, a.theta)).out},
        "one-angle": head(rotated(Pq, a.positions, a.theta, inv_freq=one), rotated(Pk, a.positions, a.theta, inv_freq=one)),
        "opposite-sign": head(q, rotated(Pk, -a.positions, a.theta)),
        "other-layout": head(rotated(Pq, a.positions, a.theta, "interleaved"), rotated(Pk, a.positions, a.theta, "interleaved")),
        "off-by-one": head(rotated(Pq, a.positions + 1, a.theta), rotated(Pk, a.positions + 1, a.theta)),
        "reversed": head(rotated(Pq, -a.positions, a.theta), rotated(Pk, -a.positions, a.theta)),
        "unrotated": head(Pq, Pk),
        "causal": {"out": attend(q, k, v, causal=True).out},
    }
    evenly = a.positions[0] + np.arange(a.positions.shape[0])  # positions assumed contiguous: only gaps part this from the right head
    wrong["contiguous"] = head(rotated(Pq, evenly, a.theta), rotated(Pk, evenly, a.theta))
    if a.X.shape[-1] % 2 == 0:
        turned = rotated(a.X, a.positions, a.theta)
        wrong["rotated-x"] = head(turned @ a.Wq, turned @ a.Wk)
    return Hypotheses.of(head(q, k), wrong, {"q": a.q_tolerance, "k": a.k_tolerance, "out": a.out_tolerance})


ROPE = Contract(
    names=NAMES,
    reruns=(
        Rerun(
            {"positions": "shifted_positions(positions)", "apply_rope?": "positions_followed(apply_rope)", "rotate_half?": "halves_noted(rotate_half)"},
            CHANGED,
        ),
        Rerun(
            {
                "Wq": "wider_rope_query(Wq)",
                "Wk": "wider_rope_key(Wk)",
                "Wv": "wider_rope_value(Wv)",
                "positions": "gapped_longer_positions(positions)",
                "rope_theta": "other_theta(rope_theta)",
                "X": "more_rope_tokens(X)",
                "apply_rope?": "rope_asked(apply_rope)",
            },
            WIDER,
        ),
    ),
    judge=judge,
    probes=(
        ROPE_AT_ZERO,
        ROPE_AT_FEWER_ZEROS,
        ROPE_AT_OTHER,
        ROPE_OTHER_POSITIONS,
        ROTATE_HALF_ASKED,
        ROTATE_HALF_ASKED_BATCHED,
        ROTATE_HALF_CALLED,
        INV_FREQ,
        HEAD_WIDTH,
        APPLY_ROPE_ASKED,
        APPLY_ROPE_CALLED,
        APPLY_ROPE_FAR,
        APPLY_ROPE_BATCHED,
        *(asked + RAISED for asked in (ROTATE_HALF_ASKED, ROTATE_HALF_ASKED_BATCHED, APPLY_ROPE_ASKED, APPLY_ROPE_FAR, APPLY_ROPE_BATCHED)),
    ),
    diagnoses=("rotated-v", "rotated-x", "one-angle", "opposite-sign", "other-layout", "off-by-one", "mismatch", "changed-input"),
    given=("X", "Wq", "Wk", "Wv", "positions", "rope_theta"),
    hypotheses=hypotheses,
    questions=(NUMPY_AND_SOFTMAX, IMPORTS_BY_NAME, *SIZES.questions, REBASED, REDRAWS, *THETA_TYPED_IN.values()),
    typed=("q", "k", "out"),  # a right out is the same after the shift, but not with the wider head
    described={
        "rotated-v": "v rotated too",
        "rotated-x": "X rotated before the projections",
        "one-angle": "one angle for every pair",
        "opposite-sign": "k turned the other way",
        "other-layout": "the interleaved layout",
        "off-by-one": "positions one slot off",
        "reversed": "q and k both turned the other way",
        "unrotated": "no rotation at all",
        "causal": "a causal mask",
        "contiguous": "positions assumed contiguous (positions[0] + np.arange(T))",
        "typed-q": "q typed in",
        "typed-k": "k typed in",
        "typed-out": "out typed in",
        "stale-positions": "a copy of positions made before the checker changed it",
        "stale-rope_theta": "rope_theta typed in (or copied before the checker changed it)",
    },
)
