"""attnpos: a terminal course on why self-attention needs position.

The code lives in three packages, imported one way only:
``attnpos.tui`` → ``attnpos.lessons`` → ``attnpos.core``.
"""

__version__ = "0.1.0"
