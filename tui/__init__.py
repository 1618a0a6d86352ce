"""attnpos.tui: the interfaces, each calling the rooms below and never each other: app (Textual), cli, notebook, web."""
