"""The command line and its reports: Rich output only, never Textual (tests/test_core.py checks)."""
