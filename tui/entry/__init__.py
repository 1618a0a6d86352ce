"""attnpos: a terminal course on why self-attention needs position.

The code lives in three packages, imported one way only:
``attnpos.tui`` → ``attnpos.lessons`` → ``attnpos.core``.
"""

__version__ = "0.1.0"


def load_ipython_extension(ipython) -> None:
    """``%load_ext attnpos``: the ``%attnpos`` magic (needs the ``jupyter`` extra)."""
    from attnpos.tui.notebook.magic import load_ipython_extension as load

    load(ipython)
