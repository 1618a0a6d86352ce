"""Shared fixtures: a deterministic terminal and a private data folder for every test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def truecolour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app sees a truecolour terminal and no NO_COLOR, unless a test says otherwise.

    Rich reads COLORTERM when the App builds its console, so this must be set before the App exists.
    """
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The user asked for no colour (https://no-color.org); Textual reads it into App.no_color."""
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Progress goes to a temporary folder, never the developer's own."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ATTNPOS_DATA_DIR", str(folder))
    return folder
