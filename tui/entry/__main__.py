"""`python -m attnpos` runs the same command line as the `attnpos` script, and ends as it does."""

from attnpos.tui.main import console

console()
