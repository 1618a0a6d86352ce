"""What a browser tab does with `attnpos serve`: load the page (which sets the session cookie), then talk over its websocket.

Shared by the serve tests, the nginx test and the served-sessions benchmark
(tests/benchmarks/serve_sessions.py), which drive real sessions as a browser does.
"""

from __future__ import annotations

import asyncio
import random
import re
import socket
import time

import aiohttp
from yarl import URL  # aiohttp's

from attnpos.tui.web.serve import SESSION_COOKIE

ANSI = re.compile(rb"\x1b\[[0-9;?$<>=]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b\][^\x07]*\x07|\x1b[=>]")
STARTUP_S = 120  # a cold start imports NumPy and Textual in two processes; CI's two cores may be busy
# A right answer to constant-offset, typed at the end of its starter: one line each, no indentation to type.
RIGHT_ANSWER_LINES = (
    "pos = 0.6",
    "max_diff = float(abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max())",
)
PALETTE = "Search for commands"  # the command palette's own prompt ("Jump to…" is also in the outline's footer)
CTRL_P, ENTER, F5 = "\x10", "\r", "\x1b[15~"  # jump anywhere; f5 checks in a browser, where ctrl+t is the browser's (a new tab)


def free_port() -> int:
    """A port free now, below the kernel's ephemeral range: a port the kernel hands out for port 0 can be handed again, to
    anything binding port 0 (a Jupyter kernel of a suite running beside this one took one), before the server binds it."""
    with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
        first_ephemeral = int(ports.read().split()[0])
    for port in random.sample(range(first_ephemeral // 2, first_ephemeral), 200):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


class BrowserSession:
    """One tab: its HTTP client (cookies), its websocket, and what the app has drawn since last read.

    Like a browser, it reads its websocket all the time (answering the server's pings: a tab left unread for
    longer than the server's heartbeat is closed as gone), and keeps what it read for the test to wait on.
    """

    def __init__(self, http, websocket) -> None:
        self.http, self.websocket = http, websocket
        self.screen = bytearray()
        self.frames: list[bytes] = []  # the screen's updates since last read, as they came (for a failure's message)
        self.messages: list = []  # the server's text messages (a delivered file's key)
        self.closed = False
        self._arrived = asyncio.Event()
        (self.token,) = [cookie.value for cookie in http.cookie_jar if cookie.key == SESSION_COOKIE]
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                message = await self.websocket.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.screen.extend(message.data)
                    self.frames.append(message.data)
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.messages.append(message.json())
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    return
                self._arrived.set()
        except aiohttp.ClientError:  # the connection went (a reply to a ping could not be sent)
            return
        finally:
            self.closed = True
            self._arrived.set()

    def text(self) -> str:
        return ANSI.sub(b"", bytes(self.screen)).decode("utf-8", "replace")

    def drawn_once(self) -> str:
        """What the app drew since last read, each distinct update once: a blinking cursor redraws its line twice a
        second, and would fill a failure's message with that line alone."""
        return ANSI.sub(b"", b"".join(dict.fromkeys(self.frames))).decode("utf-8", "replace")

    async def until(self, text: str, timeout: float = STARTUP_S) -> str:
        """Wait until the app has drawn ``text``; return what was read, and forget it."""
        await self._wait(lambda: text in self.text(), f"{text!r} drawn", timeout)
        drawn = self.text()
        self.screen.clear()
        self.frames.clear()
        return drawn

    async def until_message(self, kind: str, timeout: float = STARTUP_S) -> list:
        """Wait until the server has sent a text message ``[kind, ...]``; return it."""
        await self._wait(lambda: any(message[0] == kind for message in self.messages), f"a {kind!r} message", timeout)
        return next(message for message in self.messages if message[0] == kind)

    async def next_frame(self, timeout: float = STARTUP_S) -> bytes:
        """Wait for the app's next output (a screen update); return it."""
        before = len(self.screen)
        await self._wait(lambda: len(self.screen) > before, "a screen update", timeout)
        return bytes(self.screen[before:])

    async def until_closed(self, timeout: float = STARTUP_S) -> None:
        """Wait until the server has closed this tab's websocket."""
        await self._wait(lambda: self.closed, "closed", timeout, closing=True)

    async def quiet(self, seconds: float) -> None:
        """Wait until the app has drawn nothing for ``seconds`` (or the tab closed); forget what it drew."""
        while not self.closed:
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), seconds)
            except asyncio.TimeoutError:
                break
        self.screen.clear()
        self.frames.clear()

    async def _wait(self, condition, what: str, timeout: float, closing: bool = False) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if self.closed and not closing:
                raise AssertionError(f"the app closed before {what}: {self.text()[-1500:]}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never {what}; drawn since the last wait, each update once: {self.drawn_once()[-3000:]}")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except asyncio.TimeoutError:
                continue

    async def type(self, keys: str) -> None:
        await self.websocket.send_json(["stdin", keys])


async def open_tab(base: str, token: str | None = None, reload: bool = True, http=None, start: str = ""):
    """A new tab; with ``token``, the same browser coming back with its session cookie (``reload`` False: without loading the page).

    ``http``: the browser's client (its cookies) when it is not a new one; ``start``: the page's ``?open=`` (a lesson or exercise).
    """
    http = http or aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # cookies for 127.0.0.1
    if token:  # as the browser holds it: for this host, so the page's answer replaces it
        http.cookie_jar.update_cookies({SESSION_COOKIE: token}, URL(base))
    try:
        if reload:
            (await http.get(base + "/", params={"open": start} if start else None)).release()
        websocket = await http.ws_connect(base.replace("http", "ws") + "/ws?width=100&height=30", origin=base)
    except BaseException:
        await http.close()
        raise
    return BrowserSession(http, websocket)


async def close_tab(tab: BrowserSession) -> None:
    await tab.websocket.close()
    await tab._reader
    await tab.http.close()


async def jump_to_constant_offset(tab: BrowserSession, timeout: float = STARTUP_S) -> None:
    """From the outline, drawn: jump to constant-offset with ctrl+p, and wait for its editor."""
    await tab.type(CTRL_P)
    await tab.until(PALETTE, timeout)
    await tab.type("constant-offset")
    await tab.until("constant", timeout)
    await tab.type(ENTER)
    await tab.until("your answer", timeout)  # the editor's title: the exercise screen is up


async def pass_constant_offset(tab: BrowserSession, timeout: float = STARTUP_S) -> None:
    """On constant-offset's screen, drawn: type a right answer, check it with f5, and wait for the pass."""
    await tab.type(ENTER + ENTER.join(RIGHT_ANSWER_LINES) + ENTER)
    await tab.type(F5)
    await tab.until("passed", timeout)
