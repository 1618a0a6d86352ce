"""Workarounds for two Textual leaks that made the app grow by ~4 MiB per pass over the course.

Both are reported upstream and still open; each workaround is a few lines and can go
when Textual fixes the leak (tests/app/test_app.py checks that paging keeps memory flat).
"""

from __future__ import annotations

from textual._styles_cache import StylesCache
from textual.app import App
from textual.dom import DOMNode
from textual.widgets import Footer as TextualFooter


def drop_dead_watchers(observed: DOMNode) -> None:
    """Forget the watchers on `observed` whose widget has been removed.

    `widget.watch(observed, ...)` (Header watching the app's title, each footer key
    data-binding the footer's `compact`) stores the widget on `observed`, and Textual
    prunes it only when that attribute next changes, which for these is never
    (Textualize/textual#6666).
    """
    # Reactive keeps its watcher lists under this literal attribute name.
    for watchers in getattr(observed, "__watchers", {}).values():
        watchers[:] = [(node, callback) for node, callback in watchers if node.is_attached]


class Footer(TextualFooter):
    """Textual's Footer, without the keys it leaks each time the bindings change."""

    async def recompose(self) -> None:
        await super().recompose()
        drop_dead_watchers(self)


def release_removed_widgets(app: App) -> None:
    """Let go of widgets that have been removed, and of the lines they rendered.

    Besides the watchers, `StylesCache.get_inner_outer` is an lru_cache on a method, so
    its 1,024 entries keep the styles cache (and every line it rendered) of long-gone
    widgets alive (Textualize/textual#6665). Clearing it costs one colour lookup per
    widget on the next frame.
    """
    StylesCache.get_inner_outer.cache_clear()
    drop_dead_watchers(app)
    for screen in app.screen_stack:
        drop_dead_watchers(screen)
