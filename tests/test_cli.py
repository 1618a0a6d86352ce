"""The command line, run in-process (conftest's `attnpos`) as a learner would run it."""

from __future__ import annotations

import json


def test_demos_json_holds_every_experiment(attnpos):
    result = attnpos("demos", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert set(figures) == {
        "shuffle", "twins", "offset", "matrix-form", "sentence", "exercises",
        "init-scale", "causal", "ramp", "scaling", "alibi", "rope", "families",
        "proof", "invariance", "cross-terms", "stack",
        "embedding", "embedding-scale", "sinusoidal", "learned",
        "rope-lesson", "alibi-lesson", "scaling-rules", "interpolation-bound", "attend-back",
    }
    assert figures["shuffle"]["figures"]["gap"] < 1e-14
    assert abs(figures["offset"]["figures"]["gap"] - 3.4997577640) < 1e-9
    assert figures["twins"]["figures"]["max_diff"] == 0.0
    assert abs(figures["causal"]["figures"]["gap"] - 1.6508251072) < 1e-9
    assert figures["families"]["figures"]["twins_identical"] == [True, False, False, False, False, False]
    assert figures["embedding"]["figures"]["finite_difference_gap"] < 1e-9
    assert figures["sinusoidal"]["figures"]["shift_error"] < 1e-13
    assert figures["learned"]["figures"]["untouched"] is True
    assert figures["learned"]["figures"]["gradients"][8:] == [0] * 8
    assert (figures["rope-lesson"]["figures"]["long_pairs_10k"], figures["rope-lesson"]["figures"]["long_pairs_500k"]) == (18, 32)
    assert figures["scaling-rules"]["figures"]["yarn_ramp"] == [20, 46]
    assert figures["attend-back"]["figures"]["test"][figures["attend-back"]["figures"]["names"].index("RoPE")] == 1.0


def test_demos_table_names_every_experiment(attnpos):
    result = attnpos("demos")
    assert result.returncode == 0, result.stderr
    for key in ("shuffle", "twins", "offset", "matrix-form", "sentence", "exercises"):
        assert key in result.stdout


def test_unknown_command_is_a_usage_error(attnpos):
    result = attnpos("frobnicate")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
