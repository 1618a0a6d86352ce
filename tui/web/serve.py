"""`attnpos serve`: the app in a browser, one app process and one data folder per browser session.

textual-serve starts the app as a subprocess for each websocket and streams
its terminal to xterm.js in the page. What this adds: a session cookie, so
that each browser gets a data folder of its own (two learners on one host
never see each other's progress), and a refusal to listen beyond this machine
unless learner code is fully confined, since every learner's code runs here.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import secrets
import shlex
import sys
from pathlib import Path

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

SESSION_COOKIE = "attnpos_session"
OPEN_COOKIE = "attnpos_open"  # where the page asked to start (?open=3 or ?open=constant-offset), for its websocket
OPEN_TARGET = re.compile(r"[0-9]{1,3}|[a-z][a-z0-9-]{0,63}")  # a lesson number or an exercise id
SESSION_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")  # what secrets.token_urlsafe(32) gives; nothing else names a folder


def is_loopback(host: str) -> bool:
    """True when only this machine can reach ``host`` (localhost, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def session_command(sessions_dir: Path, token: str, strict: bool, start: str | None = None) -> str:
    """The shell command textual-serve runs for one browser session: the app on that session's data folder."""
    folder = sessions_dir / token
    prefix = "ATTNPOS_STRICT=1 " if strict else ""
    command = f"{prefix}{shlex.quote(sys.executable)} -m attnpos --data-dir {shlex.quote(str(folder))}"
    return command + (f" open {shlex.quote(start)}" if start else "")


class CourseServer(Server):
    """textual-serve's server with a data folder per browser session, chosen by a cookie."""

    def __init__(self, host: str, port: int, sessions_dir: Path, strict: bool) -> None:
        super().__init__(command=f"{sys.executable} -m attnpos", host=host, port=port, title="attnpos")
        self.sessions_dir = sessions_dir
        self.strict = strict

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, with a session cookie for a new browser and where to start for a link such as ?open=3."""
        response = await super().handle_index(request)
        if not SESSION_TOKEN.fullmatch(request.cookies.get(SESSION_COOKIE, "")):
            response.set_cookie(SESSION_COOKIE, secrets.token_urlsafe(32), httponly=True, samesite="Strict")
        start = request.query.get("open", "")
        if OPEN_TARGET.fullmatch(start):
            response.set_cookie(OPEN_COOKIE, start, httponly=True, samesite="Strict")
        else:
            response.del_cookie(OPEN_COOKIE)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """As textual-serve's, but the app runs on the data folder of the session the cookie names."""
        token = request.cookies.get(SESSION_COOKIE, "")
        if not SESSION_TOKEN.fullmatch(token):
            raise web.HTTPForbidden(text="no attnpos session: open the page first")
        websocket = web.WebSocketResponse(heartbeat=15)
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        app_service: AppService | None = None
        try:
            await websocket.prepare(request)
            app_service = AppService(
                session_command(self.sessions_dir, token, self.strict, _start(request)),
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=_closer(websocket),
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await app_service.start(width, height)
            # A closed tab ends the loop; stop() then asks the app to quit, which saves drafts as a hang-up does.
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        finally:
            if app_service is not None:
                await app_service.stop()
        return websocket


def _closer(websocket: web.WebSocketResponse):
    """What textual-serve calls when the app ends: close the browser's websocket."""

    async def close() -> None:
        await websocket.close()

    return close


def _start(request: web.Request) -> str | None:
    start = request.cookies.get(OPEN_COOKIE, "")
    return start if OPEN_TARGET.fullmatch(start) else None


def _size(value: str | None, default: int) -> int:
    try:
        return min(max(int(value or default), 10), 500)
    except ValueError:
        return default
