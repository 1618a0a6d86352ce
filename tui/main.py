"""The `attnpos` program: the command line, handed the launchers of the interfaces its commands open.

The app is imported only when a command opens it, so `attnpos check`, `attnpos
--help` and the other commands never load Textual.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    try:
        # Imported here, inside the try: a Ctrl+C while the command line is still loading is an interruption too.
        from attnpos.tui import launchers
        from attnpos.tui.cli import command_line
    except KeyboardInterrupt:
        print("attnpos: interrupted", file=sys.stderr)
        return 130
    return command_line.main(argv, command_line.Launchers(launchers.open_app, launchers.export_notebooks, launchers.serve))
