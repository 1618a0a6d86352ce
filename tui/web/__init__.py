"""The course in a browser: ``attnpos serve`` (the optional ``web`` extra, textual-serve)."""
