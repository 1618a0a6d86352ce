"""`python -m attnpos` runs the same command line as the `attnpos` script."""

from attnpos.tui.main import main

raise SystemExit(main())
