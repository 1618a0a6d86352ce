"""The `attnpos` program: the command line, and the Textual app when a command opens it.

The app is imported only then, so `attnpos check`, `attnpos --help` and the other
commands never load Textual.
"""

from __future__ import annotations

import sys
from pathlib import Path


def open_app(data_dir: Path | None, start: tuple[int, int] | str | None = None, play: str | None = None) -> int:
    """Run the course until the learner quits."""
    from attnpos.tui.app import AttnposApp

    AttnposApp(data_dir=data_dir, start=start, play=play).run()
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        # Imported here, inside the try: a Ctrl+C while the command line is still loading is an interruption too.
        from attnpos.tui.cli import command_line
    except KeyboardInterrupt:
        print("attnpos: interrupted", file=sys.stderr)
        return 130
    return command_line.main(argv, open_app)
