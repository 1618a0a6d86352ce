"""The `attnpos` program: the command line, and the Textual app when a command opens it.

The app is imported only then, so `attnpos check`, `attnpos --help` and the other
commands never load Textual.
"""

from __future__ import annotations

from pathlib import Path

from attnpos.tui.cli import command_line


def open_app(data_dir: Path | None, start: tuple[int, int] | str | None = None, play: str | None = None) -> int:
    """Run the course until the learner quits."""
    from attnpos.tui.app import AttnposApp

    AttnposApp(data_dir=data_dir, start=start, play=play).run()
    return 0


def main(argv: list[str] | None = None) -> int:
    return command_line.main(argv, open_app)
