"""The two Textual leaks tui/app/leaks.py works around: each shown still there, and each worked around.

The canaries are strict xfails: the day Textual fixes a leak, its canary passes, the suite
fails on the XPASS, and the workaround (with its canary) can go.
"""

from __future__ import annotations

import gc
import weakref

import pytest
from textual.app import App
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from attnpos.tui.app.leaks import drop_dead_watchers, release_removed_widgets


class Watched(App):
    value = reactive(0)


class Watcher(Widget):
    """Watches an attribute of the app, as Header watches its title."""

    def on_mount(self) -> None:
        self.watch(self.app, "value", self.seen)

    def seen(self, value: int) -> None:
        pass


def watchers_of_removed_widgets(app: App) -> list[object]:
    # Reactive keeps its watcher lists under this literal attribute name (see tui/app/leaks.py).
    return [node for watchers in getattr(app, "__watchers", {}).values() for node, _ in watchers if not node.is_attached]


async def removed_watchers(release) -> list[object]:
    """The watchers left on the app by a widget that watched it and was removed, after ``release(app)``."""
    app = Watched()
    async with app.run_test() as pilot:
        watcher = Watcher()
        await app.mount(watcher)
        await watcher.remove()
        await pilot.pause()
        release(app)
        return watchers_of_removed_widgets(app)


@pytest.mark.xfail(strict=True, reason="Textualize/textual#6666: a removed widget's watchers stay until the value changes")
async def test_canary_textual_prunes_the_watchers_of_removed_widgets():
    assert await removed_watchers(lambda app: None) == []


async def test_drop_dead_watchers_prunes_them():
    assert await removed_watchers(drop_dead_watchers) == []


async def styles_cache_of_a_removed_widget(release) -> weakref.ref:
    """A weak reference to the styles cache of a drawn, then removed widget, after ``release(app)``."""
    app = App()
    async with app.run_test() as pilot:
        static = Static("drawn once")
        await app.mount(static)
        await pilot.pause()
        cache = weakref.ref(static._styles_cache)
        await static.remove()
        await app.mount(Static("drawn next"))  # a new layout, which forgets the old one's placements
        await pilot.pause()
        release(app)
        del static
        gc.collect()
        return cache


@pytest.mark.xfail(strict=True, reason="Textualize/textual#6665: StylesCache.get_inner_outer's lru_cache keeps removed widgets' caches")
async def test_canary_textual_lets_go_of_a_removed_widgets_styles_cache():
    assert (await styles_cache_of_a_removed_widget(lambda app: None))() is None


async def test_release_removed_widgets_lets_go_of_it():
    assert (await styles_cache_of_a_removed_widget(release_removed_widgets))() is None
