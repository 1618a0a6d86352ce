"""`python -m attnpos` runs the same command line as the `attnpos` script."""

from attnpos.tui.cli import main

raise SystemExit(main())
