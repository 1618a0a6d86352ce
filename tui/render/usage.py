"""The one error type of the command line: bad input, reported in one line with exit code 2.

Its own module so that `attnpos` can catch it without importing the checker (and NumPy).
"""


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit code 2."""
