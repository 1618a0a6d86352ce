"""`attnpos serve`: the app in a browser, one app process and one data folder per browser session.

textual-serve starts the app as a subprocess for each websocket and streams
its terminal to xterm.js in the page. What this adds:

* a session cookie only the server issues (:mod:`.sessions`), so each browser
  gets a data folder of its own and a planted cookie gets a fresh one;
* a websocket only from the page this server served: its ``Origin`` must be
  the host the request came to, and a server on loopback answers only to a
  loopback host name (a page on ``evil.example`` rebound to 127.0.0.1 gets
  nothing);
* one app per folder: a second tab of the same session closes the first's
  app, which saves, before its own starts;
* caps on the apps running, per client address (loopback aside: SSH
  tunnels all arrive from it) and in all, a page saying so when full, and an app closed after ``idle_s`` without a key or a resize;
* every terminal size clamped, the URL's and each ``resize`` message's;
* behind a reverse proxy (nginx) named by its address, the browser's address
  and scheme as the proxy passes them (``X-Real-IP``, ``X-Forwarded-Proto``),
  so the per-client cap counts browsers, not the proxy, and a page served over
  HTTPS opens a ``wss`` websocket; from any other address those headers are ignored;
* a refusal to listen beyond this machine unless learner code is fully
  confined, since every learner's code runs here.
"""

from __future__ import annotations

import asyncio
import html
import ipaddress
import json
import re
import shlex
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from msgspec import Struct, field
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .sessions import SessionBook

SESSION_COOKIE = "attnpos_session"
OPEN_COOKIE = "attnpos_open"  # where the page asked to start (?open=3 or ?open=constant-offset), for its websocket
OPEN_TARGET = re.compile(r"[0-9]{1,3}|[a-z][a-z0-9-]{0,63}")  # a lesson number or an exercise id
APP_EXIT_S = 30  # how long a closed session's app may take to exit before the folder's next app starts anyway
MIN_SIZE, MAX_SIZE = 10, 500  # terminal cells each way: 8000×8000 took an app to 435 MiB, 500×500 to 68


class SessionLimits(Struct, frozen=True):
    """How many apps run at once and how long one may sit idle."""

    total: int = 64  # about 40 MiB each
    per_client: int = 4  # one client address other than loopback: a browser or two, or a few learners behind one address
    idle_s: float = 30 * 60  # no key and no resize for this long: the app quits (saving, as a closed tab does)


DEFAULT_LIMITS = SessionLimits()


class _LiveSession(Struct):
    websocket: web.WebSocketResponse
    client: str
    done: asyncio.Event = field(default_factory=asyncio.Event)  # set once its app has quit and its folder is tidied
    replaced: bool = False  # another tab of the session wants the folder

    async def replace(self) -> None:
        """Quit this session's app for another tab of the same session, and wait until it has."""
        self.replaced = True
        if self.websocket.prepared:  # else its handler sees ``replaced`` once it is
            await self.websocket.close(message=b"this session was opened in another tab")
        await self.done.wait()


def is_loopback(host: str) -> bool:
    """True when only this machine can reach ``host`` (localhost, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def session_command(folder: Path, strict: bool, start: str | None = None) -> str:
    """The shell command textual-serve runs for one browser session: the app on that session's data folder."""
    prefix = "ATTNPOS_STRICT=1 " if strict else ""
    command = f"{prefix}{shlex.quote(sys.executable)} -m attnpos --data-dir {shlex.quote(str(folder))}"
    return command + (f" open {shlex.quote(start)}" if start else "")


def clamp_size(value: object, default: int) -> int:
    """A terminal width or height from a browser, within ``MIN_SIZE``..``MAX_SIZE``; ``default`` when not a number."""
    try:
        number = int(value)  # type: ignore[call-overload]  # a query string, or whatever JSON a message held
    except (TypeError, ValueError, OverflowError):
        return default
    return min(max(number, MIN_SIZE), MAX_SIZE)


class CourseServer(Server):
    """textual-serve's server with a data folder per browser session, chosen by a cookie the server issued."""

    def __init__(
        self, host: str, port: int, sessions: SessionBook, strict: bool, limits: SessionLimits = DEFAULT_LIMITS, proxies: frozenset[str] = frozenset()
    ) -> None:
        super().__init__(command=f"{sys.executable} -m attnpos", host=host, port=port, title="attnpos")
        self.sessions = sessions
        self.strict = strict
        self.limits = limits
        self.proxies = proxies  # addresses of reverse proxies whose X-Real-IP and X-Forwarded-Proto are believed
        self.loopback = is_loopback(host)
        self.live: dict[str, _LiveSession] = {}  # by folder id

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, with a new session token (replacing the browser's, for the same folder) and where to start."""
        refusal = self._wrong_host(request)
        if refusal:
            return _page(403, "Not served here", refusal)
        token = request.cookies.get(SESSION_COOKIE, "")
        full = self._full(self.sessions.folder_of(token), self._client(request))
        if full:
            return _page(503, "The course is full", full)
        token, _ = self.sessions.issue(token, keep=frozenset(self.live))
        response = aiohttp_jinja2.render_template("app_index.html", request, self._page_context(request))
        response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="Lax")  # Lax: an instructor's link keeps the session
        start = request.query.get("open", "")
        if OPEN_TARGET.fullmatch(start):
            response.set_cookie(OPEN_COOKIE, start, httponly=True, samesite="Lax")
        else:
            response.del_cookie(OPEN_COOKIE)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """As textual-serve's, but only from this server's page, on the folder the session names, one app a folder."""
        refusal = self._wrong_host(request) or self._wrong_origin(request)
        if refusal:
            raise web.HTTPForbidden(text=refusal)
        folder = self.sessions.folder_of(request.cookies.get(SESSION_COOKIE, ""))
        if folder is None:
            raise web.HTTPForbidden(text="no attnpos session: reload the page")
        client = self._client(request)
        while folder in self.live:  # the same session in another tab: that tab's app quits (and saves) first
            await self.live[folder].replace()
        full = self._full(folder, client)
        if full:
            raise web.HTTPServiceUnavailable(text=full)
        websocket = web.WebSocketResponse(heartbeat=15)
        session = self.live[folder] = _LiveSession(websocket, client)
        app_service: AppService | None = None
        try:
            await websocket.prepare(request)
            if session.replaced:
                return websocket
            app_service = AppService(
                session_command(self.sessions.path(folder), self.strict, _start(request)),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=_closer(websocket),
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await app_service.start(clamp_size(request.query.get("width"), 80), clamp_size(request.query.get("height"), 24))
            # A closed tab ends the loop; stop() then asks the app to quit, which saves drafts as a hang-up does.
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        finally:
            try:
                if app_service is not None:
                    await app_service.stop()
                    await _exited(app_service)
            finally:
                del self.live[folder]
                self.sessions.ended(folder)
                session.done.set()
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """The browser's messages to the app: keys, sizes (clamped), focus; the app quits after ``idle_s`` without input."""
        last_input = time.monotonic()
        while not websocket.closed:
            left = self.limits.idle_s - (time.monotonic() - last_input)
            if left <= 0:
                await websocket.close(message=b"closed after a long idle time: reload the page to go on")
                return
            try:
                message = await websocket.receive(timeout=left)
            except asyncio.TimeoutError:
                continue
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            envelope = _envelope(message)
            if envelope is None:
                continue
            kind, data = envelope
            if kind == "stdin" and isinstance(data, str):
                last_input = time.monotonic()
                await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                last_input = time.monotonic()
                await app_service.set_terminal_size(clamp_size(data.get("width"), 80), clamp_size(data.get("height"), 24))
            elif kind == "ping":  # the page's keep-alive: not the learner's input
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    def _page_context(self, request: web.Request) -> dict:
        """textual-serve's page, its URLs on the host the browser asked for (an SSH tunnel's port, localhost or 127.0.0.1)."""
        scheme = self._scheme(request)
        origin = f"{scheme}://{request.host}"
        socket_scheme = "wss" if scheme == "https" else "ws"
        return {
            "font_size": clamp_size(request.query.get("fontsize"), 16),
            "app_websocket_url": f"{socket_scheme}://{request.host}{request.app.router['websocket'].url_for()}",
            "config": {"static": {"url": f"{origin}/static/"}},
            "application": {"name": self.title},
        }

    def _wrong_host(self, request: web.Request) -> str | None:
        """Why a request is refused by the host it names: a server on loopback answers to loopback names only."""
        if self.loopback and not is_loopback(_hostname(request.host)):
            return f"this server answers only to localhost, not to {request.host}"
        return None

    def _wrong_origin(self, request: web.Request) -> str | None:
        """Why a websocket is refused by its origin: only this server's own page may open one."""
        origin = request.headers.get("Origin", "")
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc.lower() != request.host.lower():
            return f"a websocket from {origin or 'no origin'} is refused: open the course from its own page"
        return None

    def _client(self, request: web.Request) -> str:
        """The browser's address: the connection's, or the one a trusted proxy names in X-Real-IP."""
        remote = request.remote or "unknown"
        if remote in self.proxies:
            named = request.headers.get("X-Real-IP", "").strip()
            try:
                return str(ipaddress.ip_address(named))
            except ValueError:
                pass
        return remote

    def _scheme(self, request: web.Request) -> str:
        """The scheme the browser used: the connection's, or the one a trusted proxy names in X-Forwarded-Proto."""
        named = request.headers.get("X-Forwarded-Proto", "").strip().lower()
        if request.remote in self.proxies and named in ("http", "https"):
            return named
        return request.scheme

    def _full(self, folder: str | None, client: str) -> str | None:
        """Why another app cannot start now (in all, or for this client), or None; an app already running for ``folder`` is replaced, not added."""
        if folder in self.live:
            return None
        if len(self.live) >= self.limits.total:
            return f"{len(self.live)} sessions are open on this server, its most. Try again in a few minutes."
        # Loopback clients are this machine or anyone's SSH tunnel: told apart by nothing, counted in the total only.
        if not is_loopback(client) and sum(session.client == client for session in self.live.values()) >= self.limits.per_client:
            return f"{self.limits.per_client} sessions are open from your address, its most. Close a tab of the course, then reload this page."
        return None


def _hostname(host: str) -> str:
    """The name in a Host header, without its port (``[::1]:8000`` gives ``::1``)."""
    return urlsplit(f"//{host}").hostname or ""


def _envelope(message) -> tuple[str, object] | None:
    """A text message's ``[kind, data]``, or None for anything else."""
    if message.type != WSMsgType.TEXT:
        return None
    try:
        envelope = json.loads(message.data)
    except ValueError:
        return None
    if not (isinstance(envelope, list) and envelope and isinstance(envelope[0], str)):
        return None
    return envelope[0], envelope[1] if len(envelope) > 1 else None


def _page(status: int, title: str, text: str) -> web.Response:
    title, text = html.escape(title), html.escape(text)
    body = f"<!DOCTYPE html><html><head><title>attnpos: {title}</title></head><body><h1>{title}</h1><p>{text}</p></body></html>"
    return web.Response(status=status, text=body, content_type="text/html")


def _closer(websocket: web.WebSocketResponse):
    """What textual-serve calls when the app ends: close the browser's websocket."""

    async def close() -> None:
        await websocket.close()

    return close


async def _exited(app_service: AppService) -> None:
    """Wait until the app's process has exited, at most ``APP_EXIT_S``.

    ``stop()`` returns once the app's output has ended, which can be a moment before the process (saving,
    its threads) has exited: the next app on the same folder waits for this, so two never overlap.
    """
    process = app_service._process  # textual-serve (pinned below 1.2) keeps it here and offers no other handle
    if process is not None:
        try:
            await asyncio.wait_for(process.wait(), APP_EXIT_S)
        except asyncio.TimeoutError:
            pass  # a stuck app must not hold its folder's next session for ever; it has been told to quit


def _start(request: web.Request) -> str | None:
    start = request.cookies.get(OPEN_COOKIE, "")
    return start if OPEN_TARGET.fullmatch(start) else None
