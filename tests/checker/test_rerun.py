"""The rerun's rewriting: where a replaced input goes, and the evidence the checker reads from the syntax."""

from __future__ import annotations

import numpy as np
import pytest

from attnpos.lessons.checker import rerun
from attnpos.lessons.checker.substitutes import (
    OTHER_LENGTH,
    OTHER_LENGTH_SIZES,
    OWN_TABLES,
    REFUSAL,
    ROPE_AT_FEWER_ZEROS,
    ROPE_AT_ZERO,
    VALUE_SCALE,
    other_table,
    positions_followed,
    refusal_noted,
    scaled,
    twins_alike,
    varying_offset,
)

REPLACE_POS = {"pos": "varying_offset(pos, X)"}


def run(source: str) -> dict:
    namespace: dict = {}
    exec(source, namespace)
    return namespace


def test_the_new_value_goes_before_the_first_use_after_the_last_fill():
    source = "import numpy as np\nX = np.zeros((1, 3, 2))\npos = np.zeros((3, 2))\npos[:] = 0.6\nused = X + pos\n"
    rewritten = rerun.substitute(source, REPLACE_POS)
    lines = rewritten.splitlines()
    assert lines.index("used = X + pos") == lines.index("pos[:] = 0.6") + 2
    namespace = run(rewritten)
    assert not np.allclose(namespace["used"][0, 0], namespace["used"][0, 1])  # the run used the per-slot signal


def test_a_table_the_script_builds_is_replaced_where_it_is_finished():
    """pe (rerun.FINISHED) is filled through out= and a loop's append, and checked by a print and an assert on the way:
    the new value goes past all of them, before the first statement that measures the table."""
    source = (
        "import numpy as np\nrows = []\nfor t in range(3):\n    rows.append([t, t])\npe = np.zeros((3, 2))\nprint(pe.shape)\n"
        "assert pe.shape == (3, 2)\nnp.add(pe, rows, out=pe[:, :])\nfirst = pe[0, 0] + pe[2, 0]\n"
    )
    lines = rerun.substitute(source, {"pe" + rerun.FINISHED: "bent_table(pe)"}).splitlines()
    assert "bent_table(" in lines[lines.index("first = pe[0, 0] + pe[2, 0]") - 1]
    source = "pe = []\nfor t in range(3):\n    pe.append([t, t])\nout = len(pe)\n"
    lines = rerun.substitute(source, {"pe" + rerun.FINISHED: "bent_table(pe)"}).splitlines()
    assert "bent_table(" in lines[lines.index("out = len(pe)") - 1]  # past the loop that appends


def test_a_table_filled_through_another_name_for_it_is_finished_past_those_writes():
    """``P = pe``, then ``P[0][0] = …``: the bend goes past the writes made through P, before the figure measured on it."""
    source = "pe = [[0.0, 0.0]]\nP = pe\nP[0][0] = 1.0\nfigure = P[0][0]\n"
    lines = rerun.substitute(source, {"pe" + rerun.FINISHED: "bent_table(pe)"}).splitlines()
    assert "bent_table(" in lines[lines.index("figure = P[0][0]") - 1]


@pytest.mark.parametrize("view", ["pairs.reshape(2, 2)", "np.reshape(pairs, (2, 2))", "pairs[:, :].T", "pairs"])
def test_a_table_bound_as_a_view_is_bent_before_the_array_it_views_is_read(view):
    """``pe = pairs.reshape(T, C)`` shares pairs' memory: a figure measured through pairs reads the table, so the bend
    (in place) comes before it; a copy (``.copy()``) shares nothing, and the bend waits for a read of pe itself."""
    source = f"import numpy as np\npairs = np.zeros((2, 2))\npe = {view}\nmoved = pairs[0]\nfigure = pe[1] - moved\n"
    lines = rerun.substitute(source, {"pe" + rerun.FINISHED: "bent_table(pe)"}).splitlines()
    assert "bent_table(" in lines[lines.index("moved = pairs[0]") - 1]
    copied = source.replace(f"pe = {view}", f"pe = {view}.copy()")
    lines = rerun.substitute(copied, {"pe" + rerun.FINISHED: "bent_table(pe)"}).splitlines()
    assert "bent_table(" in lines[lines.index("figure = pe[1] - moved") - 1]


def test_a_name_never_used_is_replaced_after_it_is_set():
    rewritten = rerun.substitute("import numpy as np\nX = np.ones((1, 3, 2))\npos = 0.6\nmax_diff = 1e-16\n", REPLACE_POS)
    assert run(rewritten)["pos"].shape == (3, 2)


def test_the_main_guard_is_the_top_level_too_and_functions_read_the_new_value():
    source = (
        "import numpy as np\ndef shifted(X):\n    return X + pos\n"
        "if __name__ == '__main__':\n    X = np.zeros((1, 3, 2))\n    pos = 0.6\n    out = shifted(X)\n"
    )
    namespace: dict = {"__name__": "__main__"}
    exec(rerun.substitute(source, REPLACE_POS), namespace)
    assert not np.allclose(namespace["out"][0, 0], namespace["out"][0, 1])


def test_a_call_of_a_function_that_reads_the_name_is_a_use_of_it():
    """A head written as a function reads Wq when called: the new value goes before the first call, not before a later print."""
    source = (
        "import numpy as np\nX = np.ones((1, 3, 2))\npos = 0.6\n"
        "def inner(Z):\n    return Z + pos\ndef outer(Z):\n    return inner(Z)\n"
        "out = outer(X)\nprint(pos)\n"
    )
    lines = rerun.substitute(source, REPLACE_POS).splitlines()
    assert "varying_offset(" in lines[lines.index("out = outer(X)") - 1]  # the new value just before the call
    assert not np.allclose(run("\n".join(lines))["out"][0, 0], run("\n".join(lines))["out"][0, 1])


def test_a_default_bound_when_the_def_runs_gets_the_new_value():
    """Hugging Face's `def bucket(d, num_buckets=num_buckets)` keeps the value the name has at the `def`: the new value goes before it."""
    source = "import numpy as np\nX = np.ones((1, 3, 2))\npos = 0.6\ndef shifted(Z, pos=pos):\n    return Z + pos\nout = shifted(X)\n"
    lines = rerun.substitute(source, REPLACE_POS).splitlines()
    assert next(i for i, line in enumerate(lines) if "varying_offset(" in line) < lines.index("def shifted(Z, pos=pos):")
    assert not np.allclose(run("\n".join(lines))["out"][0, 0], run("\n".join(lines))["out"][0, 1])


def test_no_rerun_when_the_name_lives_only_in_a_function_or_the_script_does_not_parse():
    assert rerun.substitute("def f():\n    pos = 1\n", REPLACE_POS) is None
    assert rerun.substitute("pos = (\n", REPLACE_POS) is None


def test_shuffling_the_signal_with_the_tokens_is_seen_through_other_names():
    assert rerun.indexes_by("shifted = X + pos\nout = f(shifted[:, perm])\n", "pos", "perm")
    assert rerun.indexes_by("out = f(np.take(X + pos, perm, axis=1))\n", "pos", "perm")
    assert not rerun.indexes_by("out = f(X[:, perm] + pos)\n", "pos", "perm")
    # reordering the outputs of attention is what the exercise asks for, not shuffling the signal
    reorders_outputs = "a = attention_output(X + pos, Wq, Wk, Wv)\nd = a[:, perm]\ne = attention_output(X + pos, Wq, Wk, Wv)[:, perm]\n"
    assert not rerun.indexes_by(reorders_outputs, "pos", "perm")
    assert rerun.reaches_attention("shifted = X + pos\nout = attention_output(shifted, Wq, Wk, Wv)\n", "pos")
    assert not rerun.reaches_attention("shifted = X + pos\nout = attention_output(X, Wq, Wk, Wv)\n", "pos")


def test_a_figure_made_of_no_computed_value_is_typed():
    assert rerun.typed_in("max_diff = 4.4e-16\n", "max_diff")
    assert rerun.typed_in("max_diff = float('4.4e-16')\n", "max_diff")
    assert rerun.typed_in("import numpy as np\nmax_diff = np.finfo(float).eps\n", "max_diff")
    assert not rerun.typed_in("a, b = 1, 2\nmax_diff = np.abs(a - b).max()\n", "max_diff")


def test_a_function_that_sets_globals_is_rewritten_inside():
    source = "import numpy as np\ndef main():\n    global X, pos, out\n    X = np.zeros((1, 3, 2))\n    pos = 0.6\n    out = X + pos\nmain()\n"
    namespace = run(rerun.substitute(source, REPLACE_POS))
    assert not np.allclose(namespace["out"][0, 0], namespace["out"][0, 1])


def test_adding_the_signal_to_outputs_is_seen():
    assert rerun.added_to_outputs("late = (out_a + pos).sum(0)\n", "pos", ("out_a",))
    assert rerun.added_to_outputs("late = attention_output(X, Wq, Wk, Wv) + pos\n", "pos", ())
    assert not rerun.added_to_outputs("early = attention_output(X + pos, Wq, Wk, Wv)\n", "pos", ())


def test_substitutes_keep_the_learners_kind_of_value():
    W = np.ones((3, 3), dtype=np.float32)
    assert scaled(W).dtype == np.float32 and scaled(W)[0, 0] == VALUE_SCALE
    X = np.zeros((2, 6, 4), dtype=np.float32)
    assert varying_offset(0.6, X).shape == (6, 4) and varying_offset(0.6, X).dtype == np.float32
    assert varying_offset(np.ones((6, 1)), X).shape == (6, 1)
    signal = varying_offset(np.ones((1, 6, 4)), X)
    assert signal.shape == (1, 6, 4) and not np.allclose(signal[0, 0], signal[0, 1])
    pos = np.arange(24.0).reshape(6, 4)
    alike = twins_alike(pos, X)
    assert np.array_equal(alike[4], alike[0]) and pos[4, 0] == 16.0  # the learner's own array is untouched
    wte = np.random.default_rng(5).standard_normal((13, 8)).astype(np.float32)
    table = other_table(wte)
    assert table.shape == wte.shape and table.dtype == np.float32 and not np.allclose(table, wte)  # not what the seed draws


@pytest.mark.parametrize(
    "source, allowed, borrowed",
    [
        ("from attnpos.core import softmax", ("softmax",), False),
        ("from attnpos.core import softmax", (), True),
        ("from attnpos.core import rope_rotate", ("softmax",), True),
        ("from attnpos.core.position import *", ("softmax",), True),
        ("import attnpos.core as c\nc.softmax(x)", ("softmax",), False),
        ("import attnpos.core as c\nc.alibi_slopes(12)", ("softmax",), True),
        ("import attnpos\nattnpos.core.position.rope_rotate(x)", ("softmax",), True),
        ("from attnpos import core\ncore.softmax(x)", ("softmax",), False),
        ("from attnpos import core\ncore.ntk_base(1e4, 4.0, 128)", ("softmax",), True),
        ("def rope_rotate(x):\n    return x\nrope_rotate(1)", ("softmax",), False),  # the learner's own function of the same name
        ("import numpy as np\nnp.exp(1)", (), False),
        # the course's module reached through the allowed function
        ("from attnpos.core import softmax\nsoftmax.__globals__['rope_rotate']", ("softmax",), True),
        ("from attnpos.core import softmax as sm\nm = sm.__module__", ("softmax",), True),
        ("from attnpos.core import softmax\nf = getattr(softmax, '__glob' + 'als__')", ("softmax",), True),
        ("from attnpos.core import softmax\nw = softmax(s)\nw = softmax(s, axis=-1)", ("softmax",), False),
        ("import numpy as np\nf = getattr(np, 'float32')", ("softmax",), False),
        # white-box round 24: a module of the course imported openly, then handed on whole
        ("import operator\nimport attnpos.core.extension as ext\nf = operator.attrgetter('ntk_base')(ext)", ("softmax",), True),
        ("import attnpos.core as c\nprint(c)", ("softmax",), True),
    ],
)
def test_borrowing_is_anything_of_attnpos_beyond_what_the_brief_allows(source, allowed, borrowed):
    assert rerun.borrows(source, allowed) is borrowed


@pytest.mark.parametrize(
    "source, calls",
    [
        ("from attnpos.core import softmax\nw = softmax(s)", True),
        ("from attnpos.core import softmax as sm\nw = sm(s)", True),
        ("import attnpos.core as c\nw = c.softmax(s)", True),
        ("from attnpos.core import softmax\nw = np.exp(s)", False),  # imported, never called
        ("from attnpos.core import softmax\ndef softmax(x):\n    return x\nw = softmax(s)", False),  # an own of that name
        ("def softmax(x):\n    return x\nw = softmax(s)", False),
    ],
)
def test_calls_borrowed_is_a_call_of_the_courses_function(source, calls):
    assert rerun.calls_borrowed(source, "softmax") is calls


@pytest.mark.parametrize(
    "source, by_name",
    [
        ("import importlib\nm = importlib.import_module('attnpos.core')", True),
        ("from importlib import import_module", True),
        ("import importlib.util", True),
        ("f = __import__('attn' + 'pos.core', fromlist=['x'])", True),
        ("import sys\ncore = sys.modules['attnpos.core']", True),
        ("from sys import modules", True),
        ("exec('from attnpos.core import sinusoidal')", True),
        ("pe = eval('np.zeros(3)')", True),
        ("import builtins\nbuiltins.__import__('attnpos')", True),
        # white-box round 24: other ways in by name, and a folder of the course put on the import path
        ("import builtins\nf = getattr(builtins, '__imp' + 'ort__')", True),
        ("import pkgutil\nf = pkgutil.resolve_name('attnpos.core:sinusoidal')", True),
        ("import runpy", True),
        ("import pickle\nf = pickle.loads(b'c...')", True),
        ("import sys\nsys.path.insert(0, '/site-packages/attnpos/core')\nfrom position import sinusoidal", True),
        ("import sys\nprint(sys.version)", False),
        ("import operator\nrows = operator.itemgetter(0)(pairs)", False),
        ("import numpy as np\nx = np.exp(1)  # __import__ in a comment\ny = 'exec'", False),
    ],
)
def test_a_module_loaded_by_a_name_built_at_run_time_is_seen(source, by_name):
    assert rerun.imports_by_name(source) is by_name


STARTER = "X = rng.standard_normal((6, 16))\nWq = rng.standard_normal((16, 8))\n"


@pytest.mark.parametrize(
    "learner, number, typed",
    [
        ("inv_freq = 1 / theta ** (np.arange(0, 8, 2) / 8)", "8", True),
        ("def rotate_half(x):\n    h = 4\n    return x[..., h:]", "4", True),
        ("if __name__ == '__main__':\n    out = q @ k.T / np.sqrt(8)", "8", True),
        ("hs = Wq.shape[1]\ninv_freq = 1 / theta ** (np.arange(0, hs, 2) / hs)", "8", False),  # the starter's own 16 and 8 are left out
        ("tells = gaps > 1e-6  # a line at 6 would be typed", "6", False),  # a float, and a comment, are no size
        ("label = 'the 8-row table'", "8", False),
        ("table = np.random.default_rng(6).standard_normal(X.shape)", "6", False),  # a seed is no size (round 15)
        ("np.random.seed(seed=8)\ng = np.random.randn(*X.shape)", "8", False),
        ("table = np.random.default_rng(0).standard_normal((6, 16))", "6", True),
    ],
)
def test_a_size_is_typed_in_where_the_learners_own_code_writes_it(learner, number, typed):
    assert rerun.types_number(STARTER + learner, number, ("X", "Wq")) is typed


@pytest.mark.parametrize(
    "learner, count, number, apart",
    [
        ("for i in range(3 + 1):\n    pass", True, "3", False),  # the 3 is part of a count of 4
        ("for i in range(4):\n    pass", True, "3", False),
        ("M = shift(3, 4)", True, "3", True),
        ("for i in range(C // 2):\n    pass", False, "8", False),
    ],
)
def test_a_count_typed_as_arithmetic_of_numbers_is_that_count(learner, count, number, apart):
    assert rerun.types_count(STARTER + learner, "4", ("X", "Wq")) is count
    assert rerun.types_number_apart(STARTER + learner, number, ("X", "Wq")) is apart


@pytest.mark.parametrize(
    "learner, name, drawn",
    [
        ("table = np.random.default_rng(5).standard_normal((10, 4))\nout = table[ids]", "out", True),
        ("r = np.random.default_rng(5)\ng = r.standard_normal(X.shape)\ngrad = np.zeros(4)\nnp.add.at(grad, ids, g)", "grad", True),
        ("def fresh():\n    return np.random.randn(6, 16)\nout = fresh() @ Wq", "out", True),
        ("noise = np.random.randn(6, 16)\nout = X @ Wq", "out", False),
        ("out = X @ Wq", "out", False),  # the starter's own draws are the given arrays
    ],
)
def test_an_array_computed_from_numbers_the_script_draws_itself_is_seen(learner, name, drawn):
    assert rerun.drawn_into(STARTER + learner, name, ("X", "Wq")) is drawn


@pytest.mark.parametrize(
    "learner, place, typed",
    [
        ("def apply_rope(x, p):\n    return x * 10000.0 ** p", "apply_rope", True),
        ("def apply_rope(x, p, base=1e4):\n    return x * base ** p", "apply_rope", True),  # a default counts
        ("inv_freq = 1 / 10_000 ** np.arange(4)", "inv_freq", True),
        ("inv_freq = 1 / rope_theta ** np.arange(4)\ndef apply_rope(x, p):\n    return x * 10000.0 ** p", "inv_freq", False),
        ("def apply_rope(x, p):\n    return x * 500.0 ** p", "apply_rope", False),
    ],
)
def test_the_number_a_given_line_sets_is_found_where_it_is_typed_again(learner, place, typed):
    assert rerun.types_given_in("rope_theta = 10000.0\n" + learner, "rope_theta", place) is typed


IDS_STARTER = "ids = np.array([[3, 7, 3, 1, 3],\n                [7, 2, 2, 9, 0]])\n"


@pytest.mark.parametrize(
    "learner, typed",
    [
        ("out = wte[np.array([[3, 7, 3, 1, 3], [7, 2, 2, 9, 0]])]", True),
        ("seen = ((3, 7, 3, 1, 3), (7, 2, 2, 9, 0))", True),
        ("out = wte[ids]", False),  # the starter's own line is left out
        ("few = np.array([[3, 7, 3, 1, 3]])", False),  # one row: another shape
        ("odd = [[3, 7, 3, 1, 3], [7, 2, 2, 9]]", False),  # rows of unequal length
        ("floats = [[3.0, 7, 3, 1, 3], [7, 2, 2, 9, 0]]", False),  # not whole numbers
    ],
)
def test_a_copy_of_the_ids_is_written_out_at_their_shape(learner, typed):
    assert rerun.types_whole_numbers(IDS_STARTER + learner, ("2", "5"), ("ids",)) is typed


@pytest.mark.parametrize(
    "learner, printed",
    [
        ("print(inv_freq_pi / inv_freq)", True),
        ("print(f'{inv_freq_pi[0] / inv_freq[0]:.3f}')", True),
        ("print(np.round(inv_freq_pi / inv_freq, 3))", True),
        ("ratio = inv_freq_pi / inv_freq\nfor i, r in enumerate(ratio):\n    print(i, r)", True),
        ("rows = [f'{a:.2f}' for a in inv_freq_pi / inv_freq]\nprint('\\n'.join(rows))", True),
        ("def show(r):\n    print(r[0], r[-1])\nshow(inv_freq_pi / inv_freq)", True),
        ("ratio = inv_freq_pi / inv_freq", False),
        ("print(inv_freq)\nratio = inv_freq_pi / inv_freq", False),
    ],
)
def test_a_name_printed_in_any_form_is_seen(learner, printed):
    assert rerun.prints(learner, "inv_freq_pi") is printed


@pytest.mark.parametrize(
    "learner, compared, self_compared",
    [
        ("print(np.allclose(lhs, rhs))", True, False),
        ("gap = np.abs(lhs - rhs).max()\nprint(f'{gap:.1e}')", True, False),
        ("for a, b in [(lhs, rhs)]:\n    print(np.allclose(a, b))", True, False),
        ("def show(x, y):\n    print(np.abs(x - y).max())\nshow(lhs, rhs)", True, False),
        ("print(np.allclose(lhs, lhs))", False, True),
        ("print(lhs - lhs)", False, True),
        ("print(lhs)\nprint(rhs)", False, False),
        ("ok = np.allclose(lhs, rhs)", False, False),
        ("print('lhs == rhs: True')", False, False),
    ],
)
def test_a_printed_check_must_use_both_sides(learner, compared, self_compared):
    assert rerun.prints_comparing(learner, "lhs", "rhs") is compared
    assert rerun.prints_self_comparison(learner) is self_compared
    assert rerun.prints_anything(learner) is ("print" in learner)


@pytest.mark.parametrize(
    "learner, divides",
    [
        ("w = 10000.0 ** (-np.arange(0, C, 2) / C)\npe = np.sin(t / w)", True),
        ("w = 10000.0 ** (-np.arange(0, C, 2) / C)\nc = np.cos(k / w[i])", True),
        ("pe = np.sin(t / np.exp(-np.arange(0, C, 2) * np.log(10000) / C))", True),
        ("w = 10000.0 ** (-np.arange(0, C, 2) / C)\npe = np.sin(t * w)", False),
        ("pe = np.sin(t / 10000.0 ** (np.arange(0, C, 2) / C))", False),  # the paper's form, right
        ("w = 10000.0 ** (np.arange(0, C, 2) / C)\npe = np.sin(t * w)", False),
    ],
)
def test_a_division_by_a_negative_power_is_seen(learner, divides):
    assert rerun.divides_by_negated(learner) is divides


@pytest.mark.parametrize(
    "source, bits, named",
    [
        ("import numpy as np\na = x.astype(np.float32)", "32", True),
        ("a = np.zeros(3, dtype='<f4')", "32", True),
        ("from numpy import single\na = single(1)", "32", True),
        ("import numpy\na = x.astype(numpy.float32)", "32", True),
        ("half = x.shape[-1] // 2\nrotate = rope(x, pairing='half')", "16", False),
        ("import numpy as np\nz = np.exp(1j * t).astype(np.complex64)", "32", True),
        ("import numpy as np\na = x.astype(np.half)", "16", True),
        ("a = x.astype(np.half)", "32", False),
        ("a = x.astype(np.float64)  # not float32\nname = 'float32 is narrower'", "32", False),
    ],
)
def test_a_narrow_float_named_anywhere_in_the_source_is_seen(source, bits, named):
    assert rerun.names_float(source, bits) is named


@pytest.mark.parametrize(
    "source, or_equal",
    [("if T >= wpe.shape[0]:\n    raise ValueError", True), ("if wpe.shape[0] <= T:\n    raise ValueError", True), ("if T > 8:\n    raise ValueError", False)],
)
def test_a_comparison_that_includes_equality_is_seen(source, or_equal):
    assert rerun.compares_or_equal(source) is or_equal


@pytest.mark.parametrize(
    "source, off",
    [
        ("if T > wpe.shape[0] + 1:\n    raise ValueError", True),
        ("if len(wpe) - 1 < T:\n    raise ValueError", True),
        ("if T > wpe.shape[0]:\n    raise ValueError", False),
        ("if T > max_len + 1:\n    raise ValueError", False),
    ],
)
def test_a_length_compared_with_the_tables_plus_a_number_is_seen(source, off):
    assert rerun.compares_shape_plus_number(source) is off


REFUSING = """
import numpy as np
def own(T):
    if T > 8:
        raise ValueError(f"{T} tokens, but only 8 rows")
    return np.zeros((T, 4)) + np.zeros((8, 4))[:T]
def numpys(T):
    if T < 0:
        raise ValueError("never")
    return np.zeros((T, 4)) + np.zeros((8, 4))[:T]
def reraised(T):
    try:
        return numpys(T)
    except ValueError:
        raise
"""


@pytest.mark.parametrize(
    "function, own, said", [("own", 1, "ValueError: 10 tokens, but only 8 rows"), ("numpys", 0, "operands could not"), ("reraised", 0, "operands could not")]
)
def test_a_refusal_is_noted_with_the_frame_that_raised_it(function, own, said):
    namespace: dict = {}
    exec(compile(REFUSING, "answer.py", "exec"), namespace)
    noted = refusal_noted(namespace[function])
    assert noted(5).shape == (5, 4) and REFUSAL not in namespace  # an answer passes through, noting nothing
    with pytest.raises(ValueError):
        noted(10)
    note = namespace[REFUSAL]
    assert note[0] == own and said in bytes(note[1:]).decode()


TABLES = """
import numpy as np
wte, wpe = np.ones((6, 4)), np.zeros((8, 4))
def given(ids, wte, wpe):
    return wte[ids] + wpe[: ids.shape[-1]]
def own(ids, wte, wpe):
    return globals()["wte"][ids] + globals()["wpe"][: ids.shape[-1]]
def by_keyword(ids, *, wte, wpe):
    return wte[ids] + wpe[: ids.shape[-1]]
"""


@pytest.mark.parametrize("function, moved", [("given", 3.0), ("own", 0.0), ("by_keyword", 3.0)])
def test_the_wrapped_function_is_asked_again_with_other_tables_once(function, moved):
    namespace: dict = {}
    exec(compile(TABLES, "answer.py", "exec"), namespace)
    noted = refusal_noted(namespace[function])
    ids = np.array([[0, 5, 2]])
    tables = {"wte": namespace["wte"], "wpe": namespace["wpe"]}
    answer = noted(ids, **tables) if function == "by_keyword" else noted(ids, *tables.values())
    np.testing.assert_array_equal(answer, np.ones((1, 3, 4)))  # the answer itself is the function's own, unchanged
    np.testing.assert_array_equal(namespace[OWN_TABLES], np.full((1, 3, 4), moved))
    assert np.array_equal(namespace["wte"], np.ones((6, 4)))  # the other tables are copies


GLOBAL_LENGTH = """
import numpy as np
wte, wpe = np.ones((6, 4)), np.zeros((8, 4))
long_ids = np.zeros((1, 10), dtype=int)
def given(ids, wte, wpe):
    if ids.shape[-1] > wpe.shape[0]:
        raise ValueError(f"{ids.shape[-1]} tokens")
    return wte[ids] + wpe[: ids.shape[-1]]
def global_length(ids, wte, wpe):
    if ids.shape[-1] > wpe.shape[0]:
        raise ValueError(f"{long_ids.shape[1]} tokens")
    return wte[ids] + wpe[: ids.shape[-1]]
"""


@pytest.mark.parametrize("function, said", [("given", "ValueError: 12 tokens"), ("global_length", "ValueError: 10 tokens")])
def test_after_its_first_refusal_the_function_is_asked_about_ids_two_tokens_longer(function, said):
    namespace: dict = {}
    exec(compile(GLOBAL_LENGTH, "answer.py", "exec"), namespace)
    noted = refusal_noted(namespace[function])
    noted(np.array([[0, 5, 2]]), namespace["wte"], namespace["wpe"])
    assert OTHER_LENGTH not in namespace  # an answer asks nothing more
    with pytest.raises(ValueError, match="10 tokens"):  # the script's own call is refused as the function refuses it
        noted(namespace["long_ids"], namespace["wte"], namespace["wpe"])
    note = namespace[OTHER_LENGTH]
    assert note[0] == 1 and bytes(note[1:]).decode() == said
    np.testing.assert_array_equal(namespace[OTHER_LENGTH_SIZES], [1, 12, 8, 4])


def test_a_function_is_wrapped_where_it_is_first_called():
    source = "def add_positions(ids):\n    return ids\nx = add_positions(3)\n"
    rewritten = rerun.substitute(source, {"add_positions": "refusal_noted(add_positions)"})
    assert rewritten is not None
    lines = rewritten.splitlines()
    assert "refusal_noted(globals().get('add_positions'))" in lines[2] and lines[3] == "x = add_positions(3)"


def test_an_optional_name_is_wrapped_where_the_script_binds_it_and_left_alone_where_not():
    wrap = {"positions": "shifted_positions(positions)", "apply_rope?": "positions_followed(apply_rope)"}
    with_function = "positions = [0, 1]\ndef apply_rope(x, positions):\n    return x\nq = apply_rope(1, positions)\n"
    rewritten = rerun.substitute(with_function, wrap)
    assert rewritten is not None and "positions_followed(globals().get('apply_rope'))" in rewritten
    without = "positions = [0, 1]\nq = positions[0]\n"
    rewritten = rerun.substitute(without, wrap)
    assert rewritten is not None and "positions_followed" not in rewritten and "shifted_positions" in rewritten
    with pytest.raises(rerun.Unrewritable, match="^`positions` must be set"):  # only the names it must find are named
        rerun.rewrite("q = 1\n", wrap)


ROPES = """
import numpy as np
positions = np.arange(3)
inv_freq = np.array([1.0, 0.1])
def turn(x, at):
    angles = np.outer(at, inv_freq)
    c, s = np.cos(np.concatenate([angles, angles], -1)), np.sin(np.concatenate([angles, angles], -1))
    return x * c + np.concatenate([-x[:, 2:], x[:, :2]], -1) * s
def given(x, positions):
    return turn(x, positions)
def own(x, positions):
    return turn(x, globals()["positions"])
kept = {}
def cached(x, positions):
    kept.setdefault(len(positions), positions)
    return turn(x, kept[len(positions)])
"""


@pytest.mark.parametrize("function, turned, fewer_turned", [("given", False, False), ("own", True, None), ("cached", True, False)])
def test_apply_rope_is_asked_again_to_turn_by_no_position(function, turned, fewer_turned):
    namespace: dict = {}
    exec(compile(ROPES, "answer.py", "exec"), namespace)
    x = np.arange(12.0).reshape(3, 4)
    answer = positions_followed(namespace[function])(x, namespace["positions"])
    np.testing.assert_array_equal(answer, namespace["turn"](x, namespace["positions"]))  # its own answer, unchanged
    assert (np.max(np.abs(namespace[ROPE_AT_ZERO])) > 1) == turned
    fewer = namespace[ROPE_AT_FEWER_ZEROS]  # one row fewer at zeros: the global positions' 3 do not fit 2 rows
    assert (None if fewer.size == 0 else bool(np.max(np.abs(fewer)) > 1)) == fewer_turned
