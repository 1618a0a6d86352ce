"""The `attnpos` command line.

Heavy imports (NumPy, Textual) happen inside each command, so `attnpos
--help` and a usage error answer at once.
"""

from __future__ import annotations

import argparse
import sys


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit code 2."""


def _demos(args: argparse.Namespace) -> int:
    from rich.console import Console

    from attnpos.tui.demos import as_json, print_demos, run_all

    results = run_all()
    if args.json:
        print(as_json(results))
    else:
        print_demos(Console(), results)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attnpos",
        description="Why Attention Needs Position: a terminal course. With no command, opens the course.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demos = commands.add_parser("demos", help="print every experiment of the course with its figures")
    demos.add_argument("--json", action="store_true", help="print the figures as JSON")
    demos.set_defaults(run=_demos)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except UsageError as error:
        print(f"attnpos: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
