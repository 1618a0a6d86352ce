"""The Textual app: the course's screens, widgets and key bindings (Textual only)."""
