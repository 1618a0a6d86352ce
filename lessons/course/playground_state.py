"""The playground's state and its transitions, without a screen.

One sentence, its order, a position signal, a temperature and a seed; every
change recomputes `attnpos.core.playground.play` and says in `last_change`
what it did, revealing the learner's predictions. The playground screen draws
this object and turns keys into its methods, so the rules are tested without
Textual (tests/app/test_playground.py). Messages that name a key ask the screen for
it (``key``: an action's name to the key bound to it), so no key is written here.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

import numpy as np

from attnpos.core.permutation import is_permutation
from attnpos.core.playground import (
    DEFAULT_SEED,
    DEFAULT_SENTENCE,
    PLAYGROUND_MAX_TOKENS,
    SAME,
    SIGNAL_NAMES,
    SIGNALS,
    Play,
    play,
    row_change,
    sentence_length_problem,
)
from attnpos.core.words import label_tokens, tokenize
from attnpos.lessons.course.figures import CHANGED_ROW

# The lesson that teaches each signal, for the all-signals table's links (a test checks every signal has one that exists).
SIGNAL_LESSONS = {
    "none": 1,
    "constant": 1,
    "ramp": 1,
    "causal": 10,
    "sinusoidal": 6,
    "learned": 7,
    "rope": 8,
    "alibi": 9,
    "t5": 11,
}

TEMPERATURE_STEP = 1.5  # each sharpen divides the temperature by this, each flatten multiplies it

_Args = ParamSpec("_Args")
_Result = TypeVar("_Result")


def _control(
    method: Callable[Concatenate[PlaygroundState, _Args], _Result],
) -> Callable[Concatenate[PlaygroundState, _Args], _Result]:
    """A control of the playground: once it has run, the state's ``revision`` goes up and ``on_change`` is told.

    The one place a change is announced, so that no control can change the
    state and leave the screen showing the old one.
    """

    @functools.wraps(method)
    def control(state: PlaygroundState, *args: _Args.args, **kwargs: _Args.kwargs) -> _Result:
        result = method(state, *args, **kwargs)
        state.revision += 1
        state.on_change()
        return result

    return control


class PlaygroundState:
    """What the playground shows and how each control changes it."""

    def __init__(
        self,
        sentence: str = DEFAULT_SENTENCE,
        perm: list[int] | None = None,
        signal: str = "none",
        key: Callable[[str], str] = lambda action: f"<{action}>",
        on_change: Callable[[], None] = lambda: None,
    ):
        """Start on ``sentence`` (words) in the order ``perm`` (as typed if None) with ``signal``.

        A lesson's {playground} link passes all three; the loader has validated them. ``key`` names
        the key bound to an action (the screen's bindings); without a screen, the action's own name.
        ``on_change`` is called after every control (the screen redraws).
        """
        self.key = key
        self.on_change = on_change
        self.revision = 0  # how many controls have run
        self.by = "word"  # or "char": how the sentence is cut into tokens
        self.sentence = sentence
        self.tokens = tokenize(sentence)[:PLAYGROUND_MAX_TOKENS] or tokenize(DEFAULT_SENTENCE)
        self.perm = list(range(len(self.tokens)))  # slot k shows token perm[k]
        if perm is not None and is_permutation(np.asarray(perm), len(self.tokens)):
            self.perm = list(perm)
        self.signal = signal if signal in SIGNALS else "none"
        self.temperature = 1.0
        self.seed = DEFAULT_SEED  # lesson 3's: the opening grid is lesson 3's
        self.shuffles = 0  # shuffles drawn so far: shuffle n of a seed is reproducible
        self.swap_from: int | None = None  # the token picked for a swap, waiting for the second
        self.predicted: set[int] = set()  # tokens the learner expects the next change to move
        self.marked: frozenset[int] = frozenset()  # tokens whose rows the last change moved
        self.last_change = (
            f"No position signal yet, as in the lessons: {key('shuffle')} shuffles, {key('next_signal')} changes the signal, {key('help')} lists every key."
            if self.signal == "none"
            else f"From the lesson: {SIGNAL_NAMES[self.signal]}. {key('original_order')}: order as typed"
            f" · {key('next_signal')}: next signal · {key('help')} every key."
        )
        self.side_by_side = False  # the grid as typed beside the grid now
        self.computed: Play = self._play()

    # --- reading the state --------------------------------------------------

    @property
    def reordered(self) -> bool:
        """Whether the tokens are in another order than typed."""
        return self.perm != list(range(len(self.tokens)))

    def labels(self, order: list[int] | None = None) -> list[str]:
        """The tokens told apart (the₀, the₄), as typed or in ``order``."""
        labels = label_tokens(self.tokens)
        return labels if order is None else [labels[i] for i in order]

    def slots(self, tokens: set[int] | frozenset[int]) -> frozenset[int]:
        """Where these tokens (indices as typed) sit in the current order."""
        slot_of = {token: slot for slot, token in enumerate(self.perm)}
        return frozenset(slot_of[t] for t in tokens)

    def figure_lines(self) -> list[tuple[str, str]]:
        """The live figures as (name, what it says) lines: the gap, the twins, the pooled readout, the rows."""
        computed = self.computed
        lines = []
        gap = f"max|attn(PX) − P·attn(X)| = {computed.gap:.3g}"
        if not self.reordered:
            lines.append(("gap", gap + " · nothing is reordered yet: s shuffles"))
        else:
            lines.append(("gap", gap + (" · only relisted" if computed.equivariant else " · the outputs changed: position seen")))
        if computed.twins:
            labels = self.labels()
            i, j, same = computed.twins[0]
            told = "identical rows: nothing tells them apart" if same else "different rows: position tells them apart"
            lines.append((f"{labels[i]}, {labels[j]}", told))
        else:
            unit = "word" if self.by == "word" else "character"
            lines.append(("no repeated token", f"(type a {unit} twice to compare its rows)"))
        pooled = f"as typed vs now differ by {computed.pooled_gap:.3g}"
        if not self.reordered:
            lines.append(("Σ outputs", pooled + " · one order only so far"))
        else:
            told = " · tells the orders apart" if computed.pooled_tells_apart else " · cannot tell the orders apart"
            lines.append(("Σ outputs", pooled + told))
        top = float(computed.shuffled_weights.max(axis=1).min())
        count = len(self.tokens)
        lines.append(("rows", f"flattest row's top weight {top:.2f} (blend: 1/{count} = {1 / count:.2f}, copy: 1.00)"))
        return lines

    # --- changes, with predictions revealed -----------------------------------------

    def _play(self) -> Play:
        return play(self.tokens, self.perm, self.signal, temperature=self.temperature, seed=self.seed)

    def recompute(self) -> None:
        self.computed = self._play()

    def _apply(self, description: str, change: Callable[[], None]) -> None:
        """Make a change, compare each token's row and output before and after, and reveal predictions."""
        before = self.computed
        before_labels = self.labels()
        change()
        self.recompute()
        after = self.computed
        self.marked = frozenset()
        message = description
        if before.weights.shape == after.weights.shape:
            if self.tokens != list(before.tokens) or self.signal != before.signal or self.temperature != before.temperature or self.seed != before.seed:
                # Slot by slot in the order on screen (the perm is the same before and after this change).
                moved = row_change(before.shuffled_weights, after.shuffled_weights)
                self.marked = frozenset(self.perm[int(slot)] for slot in np.flatnonzero(moved > CHANGED_ROW))
                changed = set(self.marked)
                if self.marked:
                    message += f" ▶ marks the rows that moved by more than {CHANGED_ROW}."
                else:
                    message += f" No row moved by more than {CHANGED_ROW}, so none is marked."
            else:
                # A reorder: a token "changed" when its output is not just relisted.
                changed = {k for k in range(len(self.tokens)) if self._token_output_changed(before, after, k)}
            if self.predicted:
                message += "  " + self._reveal(changed, before_labels)
        self.predicted = set()
        self.last_change = message

    @staticmethod
    def _token_output_changed(before: Play, after: Play, token: int) -> bool:
        old_slot = before.perm.index(token)
        new_slot = after.perm.index(token)
        return bool(np.max(np.abs(after.shuffled_outputs[new_slot] - before.shuffled_outputs[old_slot])) >= SAME)

    def _reveal(self, changed: set[int], labels: list[str]) -> str:
        right = [labels[i] for i in sorted(self.predicted) if i in changed]
        wrong = [labels[i] for i in sorted(self.predicted) if i not in changed]
        missed = [labels[i] for i in sorted(changed - self.predicted)]
        parts = [f"Predictions: {len(right)} of {len(self.predicted)} right"]
        if wrong:
            parts.append(f"unchanged after all: {', '.join(wrong)}")
        if missed:
            parts.append(f"also changed: {', '.join(missed)}")
        return "; ".join(parts) + "."

    def _set_perm(self, order: list[int]) -> None:
        self.perm = order

    # --- the controls ------------------------------------------------------------------

    @_control
    def shuffle(self) -> None:
        """A seeded shuffle that always changes the order (one that changed nothing would only puzzle)."""
        order = list(self.perm)
        if len(order) < 2:
            self.last_change = "One token cannot be shuffled."
            return
        while order == self.perm:
            self.shuffles += 1
            order = list(range(len(self.tokens)))
            random.Random(f"{self.seed}-{self.shuffles}").shuffle(order)
        self._apply(f"Shuffled (shuffle {self.shuffles} of seed {self.seed}).", lambda: self._set_perm(order))

    @_control
    def reverse(self) -> None:
        self._apply("Reversed.", lambda: self._set_perm(list(reversed(self.perm))))

    @_control
    def original_order(self) -> None:
        self._apply("Back to the order as typed.", lambda: self._set_perm(list(range(len(self.tokens)))))

    @_control
    def swap(self, token: int) -> None:
        """The first call picks ``token`` (its index as typed); the second trades its slot with the first's."""
        if self.swap_from is None:
            self.swap_from = token
            self.last_change = f"Swap: {self.labels()[token]} picked; move to another row and press {self.key('swap')} again."
            return
        first, self.swap_from = self.swap_from, None
        if first == token:
            self.last_change = "Swap cancelled."
            return
        order = list(self.perm)
        a, b = order.index(first), order.index(token)
        order[a], order[b] = order[b], order[a]
        labels = self.labels()
        self._apply(f"Swapped {labels[first]} and {labels[token]}.", lambda: self._set_perm(order))

    def order_problem(self, text: str) -> str | None:
        """Why ``text`` is not an order of the tokens (numbers 0 … T−1 each once), or None."""
        try:
            order = [int(x) for x in text.replace(",", " ").split()]
        except ValueError:
            return "Use the numbers 0 to T−1, separated by spaces."
        T = len(self.tokens)
        return None if is_permutation(np.array(order), T) else f"Each of 0 … {T - 1} exactly once, please."

    @_control
    def reorder(self, text: str) -> None:
        """Put the tokens in the order typed (checked by `order_problem` first)."""
        order = [int(x) for x in text.replace(",", " ").split()]
        self._apply(f"Reordered to {' '.join(map(str, order))}.", lambda: self._set_perm(order))

    @_control
    def step_signal(self, step: int) -> None:
        """The next (1) or previous (-1) position signal, cycling."""
        signal = SIGNALS[(SIGNALS.index(self.signal) + step) % len(SIGNALS)]

        def change() -> None:
            self.signal = signal

        self._apply(f"Signal: {SIGNAL_NAMES[signal]}.", change)

    @_control
    def sharpen(self) -> None:
        """Divide the temperature: rows nearer a copy of one token."""

        def change() -> None:
            self.temperature /= TEMPERATURE_STEP

        self._apply("Sharper rows: nearer a copy.", change)

    @_control
    def flatten(self) -> None:
        """Multiply the temperature: rows nearer a blend of all tokens."""

        def change() -> None:
            self.temperature *= TEMPERATURE_STEP

        self._apply("Flatter rows: nearer a blend.", change)

    @_control
    def step_seed(self, step: int) -> None:
        seed = max(0, self.seed + step)
        if seed == self.seed:
            self.last_change = "The seed is already 0, the first one."
            return

        def change() -> None:
            self.seed = seed

        self._apply(f"Seed {seed}: new word vectors and head.", change)

    @_control
    def predict(self, token: int) -> None:
        """Mark (or unmark) ``token`` as one the learner expects the next change to move.

        The ▶ marks of the last change go: a prediction is about the next change only.
        """
        self.marked = frozenset()
        self.predicted ^= {token}
        names = ", ".join(self.labels()[i] for i in sorted(self.predicted)) or "none"
        changes = ", ".join(self.key(action) for action in ("edit_token", "shuffle", "next_signal"))
        self.last_change = f"You predict these rows will change (marked ?): {names}. Now make a change ({changes}, …)."

    @_control
    def toggle_pair(self) -> None:
        self.side_by_side = not self.side_by_side

    @staticmethod
    def token_problem(text: str) -> str | None:
        """Why ``text`` cannot replace a token (it must be one token, no spaces), or None."""
        return None if text.strip() and not any(c.isspace() for c in text.strip()) else "One token, no spaces."

    @_control
    def edit_token(self, token: int, text: str) -> None:
        """Replace ``token`` (its index as typed) with ``text``; ▶ then marks the rows that moved."""
        old, new = self.tokens[token], text.strip()

        def change() -> None:
            self.tokens = [*self.tokens[:token], new, *self.tokens[token + 1 :]]
            self.sentence = self._sentence_with(token, new)

        self._apply(f"Edited {old} → {new}.", change)

    def _sentence_with(self, token: int, text: str) -> str:
        """The sentence with ``token`` replaced, so switching words/characters keeps the edit."""
        if self.by == "word":
            words = self.sentence.split()
            return " ".join([*words[:token], text, *words[token + 1 :]])
        at = [i for i, ch in enumerate(self.sentence) if not ch.isspace()][token]
        return self.sentence[:at] + text + self.sentence[at + 1 :]

    def sentence_problem(self, text: str) -> str | None:
        """Why ``text`` cannot be the sentence, cut as the playground cuts it now, or None."""
        return sentence_length_problem(len(tokenize(text, self.by)), self.by)

    @_control
    def set_sentence(self, text: str) -> None:
        self.sentence = text
        self._retokenize()

    @_control
    def toggle_characters(self) -> str | None:
        """Switch between word and character tokens; returns why not when the sentence would not fit."""
        by = "char" if self.by == "word" else "word"
        problem = sentence_length_problem(len(tokenize(self.sentence, by)), by)
        if problem is not None:
            return problem
        self.by = by
        self._retokenize()
        return None

    def _retokenize(self) -> None:
        self.tokens = tokenize(self.sentence, self.by)
        self.perm = list(range(len(self.tokens)))
        self.predicted, self.marked, self.swap_from = set(), frozenset(), None
        self.recompute()
        self.last_change = f"{len(self.tokens)} {self.by} tokens."
