"""The playground: every control, and the figures on screen are the core's."""

from __future__ import annotations

from functools import partial

import numpy as np

from attnpos.core.experiments import ORDER_B_PERM, sentence_experiment
from attnpos.core.playground import DEFAULT_SEED, SIGNALS, play
from attnpos.lessons.course.playground_state import PlaygroundState
from attnpos.tui.app.screens.dialogs import PromptScreen
from attnpos.tui.app.screens.playground_screen import PlaygroundScreen, figures_text
from attnpos.tui.app.widgets.attention_grid import AttentionGrid

SENTENCE = "the cat sat on the mat"


def figures(app) -> str:
    return str(app.screen.query_one("#play-figures").render())


# --- the state and its transitions, without Textual ---------------------------------


def test_a_swap_picks_one_token_then_trades_slots_with_the_next():
    state = PlaygroundState(SENTENCE)
    state.swap(0)
    assert state.perm == list(range(6)) and "the₀ picked" in state.last_change
    state.swap(1)
    assert state.perm == [1, 0, 2, 3, 4, 5] and state.swap_from is None
    state.swap(2)
    state.swap(2)
    assert state.last_change == "Swap cancelled." and state.perm == [1, 0, 2, 3, 4, 5]


def test_the_next_change_reveals_the_predictions_then_forgets_them():
    state = PlaygroundState(SENTENCE)
    state.step_signal(1)  # a change that marks rows ...
    state.step_signal(-1)
    state.predict(1)  # ... whose marks a prediction clears
    state.predict(2)
    assert state.slots(state.predicted) == {1, 2} and state.marked == frozenset()
    state.edit_token(1, " dog ")
    assert state.tokens[1] == "dog" and state.sentence == "the dog sat on the mat"
    assert 1 in state.marked and state.predicted == set()
    assert "Predictions:" in state.last_change and "of 2 right" in state.last_change


def test_bad_input_is_refused_with_a_reason():
    state = PlaygroundState(SENTENCE)
    assert state.order_problem("0 0 1 2 3 4") == "Each of 0 … 5 exactly once, please."
    assert state.order_problem("five four") is not None and state.order_problem("5 4 3 2 1 0") is None
    assert state.token_problem("two words") is not None and state.token_problem("dog") is None
    assert state.sentence_problem("  ") is not None and state.sentence_problem(" ".join(["w"] * 65)) is not None
    state.set_sentence("x" * 65)
    assert state.toggle_characters() == "The playground takes up to 64 characters; that is 65." and state.by == "word"


def test_a_lesson_links_state_is_its_sentence_order_and_signal():
    state = PlaygroundState(SENTENCE, list(ORDER_B_PERM), "alibi")
    expected = play(SENTENCE.split(), list(ORDER_B_PERM), "alibi", seed=DEFAULT_SEED)
    assert state.perm == list(ORDER_B_PERM) and state.signal == "alibi"
    assert state.computed.gap == expected.gap and "From the lesson" in state.last_change
    # The causal form as published: no row reads a later slot.
    assert (state.computed.weights[np.triu_indices(6, k=1)] == 0).all()
    assert PlaygroundState(SENTENCE, [0, 0, 1, 2, 3, 4], "rope").perm == list(range(6))  # not a permutation: as typed


def test_the_seed_stops_at_zero_and_the_signals_cycle():
    state = PlaygroundState(SENTENCE)
    assert state.seed == DEFAULT_SEED  # lesson 3's seed
    for _ in range(DEFAULT_SEED + 1):
        state.step_seed(-1)
    assert state.seed == 0 and "already 0" in state.last_change
    for _ in SIGNALS:
        state.step_signal(1)
    assert state.signal == "none"
    state.step_signal(-1)
    assert state.signal == SIGNALS[-1]


# --- the screen ------------------------------------------------------------------


async def test_starts_without_position_and_a_shuffle_only_relists(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, PlaygroundScreen) and screen.state.signal == "none"
        await pilot.press("s")
        await settle(pilot)
        assert screen.state.perm != list(range(6))
        assert "only relisted" in figures(pilot.app)
        assert "the₀, the₄ identical rows" in figures(pilot.app)
        assert "cannot tell the orders apart" in figures(pilot.app)


async def test_every_signal_shows_the_cores_figures(make_app, settle):
    """For every signal, in two orders, the numbers on screen are the core's own."""
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for _ in SIGNALS:
            for _ in range(2):
                expected = play(SENTENCE.split(), screen.state.perm, screen.state.signal, temperature=screen.state.temperature, seed=screen.state.seed)
                shown = figures(pilot.app)
                assert f"= {expected.gap:.3g} " in shown
                assert f"differ by {expected.pooled_gap:.3g} " in shown
                if screen.state.perm == list(range(6)):
                    assert "nothing is reordered yet" in shown
                else:
                    assert ("only relisted" in shown) == (expected.gap < 1e-9)
                await pilot.press("s")
                await settle(pilot)
            await pilot.press("g")
            await settle(pilot)
        assert screen.state.signal == "none"  # g cycled through all seven and back


async def test_constant_offset_does_not_see_order_but_the_ramp_does(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s", "g")  # constant
        await settle(pilot)
        assert pilot.app.screen.state.signal == "constant" and "only relisted" in figures(pilot.app)
        await pilot.press("g")  # ramp
        await settle(pilot)
        assert "position seen" in figures(pilot.app) and "different rows" in figures(pilot.app)
        await pilot.press("G", "G")  # back to none
        await settle(pilot)
        assert pilot.app.screen.state.signal == "none"


async def test_swap_reverse_type_and_restore_the_order(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("w", "down", "w")  # swap the tokens in rows 0 and 1
        await settle(pilot)
        assert screen.state.perm == [1, 0, 2, 3, 4, 5]
        grid = screen.query_one("#play-moved", AttentionGrid)
        assert grid.labels[:2] == ["cat", "the₀"]
        await pilot.press("R")
        await settle(pilot)
        assert screen.state.perm == [5, 4, 3, 2, 0, 1]
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(pilot.app.screen, PromptScreen)
        prompt = pilot.app.screen.query_one("Input")
        prompt.value = "0 0 1 2 3 4"
        await pilot.press("enter")
        await settle(pilot)
        assert "exactly once" in str(pilot.app.screen.query_one("#prompt-error").render())
        prompt.value = "5 0 3 2 1 4"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.perm == [5, 0, 3, 2, 1, 4]
        assert grid.labels == ["mat", "the₀", "on", "sat", "cat", "the₄"]
        await pilot.press("o")
        await settle(pilot)
        assert screen.state.perm == list(range(6))


async def test_edit_a_word_with_a_prediction(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        await pilot.press("down", "m", "down", "m")  # predict rows cat and sat will change
        await settle(pilot)
        assert screen.state.predicted == {1, 2}
        await pilot.press("up", "e")  # edit the cat row
        await settle(pilot)
        pilot.app.screen.query_one("Input").value = "dog"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.tokens[1] == "dog"
        assert 1 in screen.state.marked  # the edited word's row moved
        assert "Predictions:" in screen.state.last_change and "of 2 right" in screen.state.last_change
        assert screen.query_one("#play-moved", AttentionGrid).marked_rows == frozenset(screen.state.marked)
        await pilot.press("c", "c")  # to characters and back: the edit is kept
        await settle(pilot)
        assert screen.state.tokens[:3] == ["the", "dog", "sat"]
        await pilot.press("c")  # as characters, edit the letter under the cursor
        await settle(pilot)
        letters = list(screen.state.tokens)
        letters[screen.cursor_row] = "X"
        await pilot.press("e")
        await settle(pilot)
        pilot.app.screen.query_one("Input").value = "X"
        await pilot.press("enter")
        await pilot.press("c")
        await settle(pilot)
        assert screen.state.by == "word" and "".join(screen.state.tokens) == "".join(letters)


async def test_temperature_sharpens_and_flattens(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for _ in range(8):
            await pilot.press("plus")
        await settle(pilot)
        assert screen.state.computed.weights.max(axis=1).min() > 0.49  # near a copy (the two "the" keys can only share)
        for _ in range(16):
            await pilot.press("minus")
        await settle(pilot)
        assert screen.state.computed.weights.max(axis=1).max() < 0.25  # near the blend 1/6


async def test_the_default_state_is_lesson_3s_grid(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert screen.state.seed == DEFAULT_SEED
        assert (screen.state.computed.weights == sentence_experiment().weights).all()
        assert (screen.query_one("#play-moved", AttentionGrid).weights == sentence_experiment().weights).all()


async def test_a_lesson_link_opens_the_playground_in_its_state(make_app, settle):
    """Lesson 4's {playground} button: the sentence, order B and the signal it names."""
    from attnpos.tui.app.widgets.lesson_blocks import PlaygroundCard

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        course = app.course
        section = next(i for i, s in enumerate(course.lesson(4).sections) if s.title == "Each family, live")
        app.open_lesson(4, section)
        await settle(pilot)
        cards = list(app.screen.query(PlaygroundCard))
        while not cards:  # the page mounts what fits the first screen first
            await pilot.pause(0.05)
            cards = list(app.screen.query(PlaygroundCard))
        rope = next(card for card in cards if card.link.signal == "rope")
        rope.query_one(".open-playground").press()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlaygroundScreen)
        state = screen.state
        assert (state.signal, state.perm, state.tokens) == ("rope", list(ORDER_B_PERM), SENTENCE.split())
        expected = play(SENTENCE.split(), list(ORDER_B_PERM), "rope", seed=DEFAULT_SEED)
        assert f"= {expected.gap:.3g} " in figures(app) and "position seen" in figures(app)


async def test_seed_sentence_and_characters(make_app, settle):
    async with make_app(play=SENTENCE).run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        before = screen.state.computed.weights.copy()
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.state.seed == DEFAULT_SEED + 1 and not (screen.state.computed.weights == before).all()
        assert f"seed {DEFAULT_SEED + 1}" in str(screen.query_one("#play-bar").render())
        await pilot.press("i")
        await settle(pilot)
        pilot.app.screen.query_one("Input").value = "dog bites man"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.tokens == ["dog", "bites", "man"]
        await pilot.press("c")
        await settle(pilot)
        assert screen.state.tokens == list("dogbitesman") and len(screen.query_one("#play-moved", AttentionGrid).labels) == 11
        await pilot.press("b")
        await settle(pilot)
        assert screen.query_one("#play-first").display


async def test_sixty_four_tokens(make_app, settle):
    words = " ".join(f"w{i % 20}" for i in range(64))
    async with make_app(play=words).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        grid = pilot.app.screen.query_one("#play-moved", AttentionGrid)
        assert grid.token_count == 64 and grid.virtual_size.width > grid.size.width
        await pilot.press("s", "g", "g", "end")
        await settle(pilot)
        assert pilot.app.screen.state.signal == "ramp" and pilot.app.screen.state.reordered
        assert grid.cursor_col == 63 and grid.scroll_offset.x > 0  # end went to the last key, scrolled into view


def test_play_command_rejects_too_many_words(attnpos):
    result = attnpos("play", " ".join(["w"] * 65))
    assert result.returncode == 2 and "up to 64 words; that is 65" in result.stderr


async def _shuffled_with_ramp(pilot, settle):
    await settle(pilot)
    await pilot.press("s", "g", "g", "b")
    await settle(pilot)


def test_snapshot_playground(snap_compare, make_app, settle):
    assert snap_compare(make_app(play=SENTENCE), terminal_size=(80, 24), run_before=partial(_shuffled_with_ramp, settle=settle))


def test_snapshot_playground_no_colour(snap_compare, no_colour, make_app, settle):
    assert snap_compare(make_app(play=SENTENCE), terminal_size=(80, 24), run_before=partial(_shuffled_with_ramp, settle=settle))


async def test_a_shuffle_always_changes_the_order(make_app, settle):
    async with make_app(play="dog bites man").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        for _ in range(12):
            before = list(screen.state.perm)
            await pilot.press("s")
            await settle(pilot)
            assert screen.state.perm != before


async def test_all_signals_side_by_side(make_app, settle):
    from attnpos.tui.app.screens.dialogs import SignalsTableScreen

    async with make_app(play=SENTENCE).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s", "a")
        await settle(pilot)
        assert isinstance(pilot.app.screen, SignalsTableScreen)
        shown = pilot.app.export_screenshot().replace("&#160;", " ")
        perm = pilot.app.screen_stack[-2].state.perm
        for signal in SIGNALS:
            expected = play(SENTENCE.split(), perm, signal)
            assert signal in shown and f"{expected.gap:.3g}" in shown
        note = str(pilot.app.screen.query_one(".note").render())
        assert "causal is a mask" in note and "alibi is the published form" in note and "t5 is one head's bias" in note  # its row explained
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, PlaygroundScreen)


def test_every_control_announces_itself_once_and_changes_nothing_else():
    """A control that changed the state without telling its screen would leave the old grid on show."""
    controls = {
        "shuffle": (),
        "reverse": (),
        "original_order": (),
        "swap": (1,),
        "reorder": ("1 0 2 3 4 5",),
        "step_signal": (1,),
        "sharpen": (),
        "flatten": (),
        "step_seed": (1,),
        "predict": (2,),
        "toggle_pair": (),
        "edit_token": (0, "cat"),
        "set_sentence": ("a b c",),
        "toggle_characters": (),
    }
    heard = []
    state = PlaygroundState(SENTENCE, on_change=lambda: heard.append(state.revision))
    for count, (name, args) in enumerate(controls.items(), start=1):
        getattr(state, name)(*args)
        assert heard == list(range(1, count + 1)), name
    readers = {"labels", "slots", "figure_lines", "order_problem", "token_problem", "sentence_problem", "recompute", "reordered"}
    public = {name for name in dir(PlaygroundState) if not name.startswith("_")} - {"on_change", "revision", "key"}
    assert public - readers == set(controls)  # a new control must be listed here, and so be tested to announce itself


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(
    words=st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "dog", "bites", "man"]), min_size=2, max_size=12),
    signal=st.sampled_from(SIGNALS),
    seed=st.integers(0, 50),
    data=st.data(),
)
def test_the_figures_text_is_the_cores_for_any_state(words, signal, seed, data):
    """Property: whatever the sentence, order, signal and seed, the figures drawn are core.play's."""
    state = PlaygroundState(" ".join(words))
    state.perm = data.draw(st.permutations(range(len(words))))
    state.signal, state.seed = signal, seed
    state.recompute()
    expected = play(words, state.perm, signal, seed=seed)
    shown = figures_text(state).plain
    assert f"= {expected.gap:.3g} " in shown
    assert f"differ by {expected.pooled_gap:.3g} " in shown
    if state.perm != list(range(len(words))):
        assert ("only relisted" in shown) == expected.equivariant
        assert ("cannot tell the orders apart" in shown) == (not expected.pooled_tells_apart)


def test_an_edit_says_which_rows_moved_or_that_none_did():
    """With the ramp the edit moves no row past the threshold: the message must not promise ▶ marks."""
    state = PlaygroundState(signal="ramp")
    state.edit_token(1, "dog")
    assert not state.marked and "▶" not in state.last_change and "No row moved" in state.last_change
    plain = PlaygroundState()
    plain.edit_token(1, "dog")
    assert plain.marked and "▶ marks the rows" in plain.last_change


def test_character_mode_asks_for_a_character_twice():
    state = PlaygroundState("abc")
    state.toggle_characters()
    assert dict(state.figure_lines())["no repeated token"] == "(type a character twice to compare its rows)"


def test_lesson_3s_order_b_names_its_tokens_as_the_playground_does():
    """The lesson's order B grid and the playground its link opens call the twins the₀ and the₄ alike."""
    from attnpos.lessons.course.figures import figure

    linked = PlaygroundState("the cat sat on the mat", list(ORDER_B_PERM))
    assert figure("sentence.order_b_weights").labels() == linked.labels(linked.perm)
    assert "the₀" in linked.labels(linked.perm) and "the₄" in linked.labels(linked.perm)
