"""The command line and its reports: Rich output only, never Textual (tests/core/test_core.py checks)."""
