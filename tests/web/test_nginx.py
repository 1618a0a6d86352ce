"""Past one host: two `attnpos serve` processes behind nginx with the README's configuration, and two learners through it.

nginx runs as the current user with everything it writes (pid, logs, temporary
files) in the test's folder. CI installs Debian's nginx and sets
``ATTNPOS_REQUIRE_NGINX=1`` (.ci/run), so there the test fails rather than
skips when nginx is missing.
"""

from __future__ import annotations

import asyncio
import grp
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from aiohttp.test_utils import make_mocked_request

aiohttp = pytest.importorskip("aiohttp", reason="the web extra: pip install -e '.[web]'")
pytest.importorskip("textual_serve", reason="the web extra: pip install -e '.[web]'")

from browser_tab import close_tab, free_port, open_tab, pass_constant_offset  # noqa: E402

from attnpos.lessons.course.progress import Progress  # noqa: E402
from attnpos.tui.web.serve import CourseServer  # noqa: E402
from attnpos.tui.web.sessions import SessionBook  # noqa: E402

README = Path(__file__).resolve().parents[2] / "README.md"
NGINX = shutil.which("nginx", path=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin")  # Debian's is in /usr/sbin
ROUTE_COOKIE = "attnpos_backend"
STARTUP_S = 120
EXERCISE = "constant-offset"


def readme_nginx_config() -> str:
    """The README's one ```nginx block: what an operator puts in nginx's http section."""
    (block,) = re.findall(r"^```nginx\n(.*?)^```", README.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    return block


def nginx_config(folder: Path, port: int, backends: list[int]) -> str:
    """A whole nginx.conf around the README's block: its upstream servers and listen port this test's, every path in ``folder``."""
    block = readme_nginx_config()
    servers = "".join(f"    server 127.0.0.1:{backend};\n" for backend in backends)
    block, upstreams = re.subn(r"(?m)^    server [0-9.]+:[0-9]+;[^\n]*\n", "", block)
    assert upstreams >= 2, "the README's upstream lists its hosts as `server ADDRESS:PORT;` lines"
    block = block.replace("    hash $attnpos_route consistent;\n", "    hash $attnpos_route consistent;\n" + servers)
    block, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", block)
    assert listens == 1, "the README's server listens on port 80"
    # As root, nginx's workers would switch to nobody, who cannot enter pytest's folder: keep them this user.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};\n" if os.geteuid() == 0 else ""
    temporary = "".join(f"    {kind}_temp_path {folder / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (
        f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nevents {{ worker_connections 64; }}\n"
        "http {\n"
        f"{temporary}"
        # Which host served each request, by the route key: the test's evidence of stickiness.
        "    log_format routes '$attnpos_route $upstream_addr $status $request_uri';\n"
        f"    access_log {folder / 'access.log'} routes;\n"
        f"{block}"
        "}\n"
    )


def nginx_missing() -> str | None:
    if NGINX is None:
        return "nginx is not installed (Debian's nginx-light; .ci/run installs it)"
    return None


def wait_listening(port: int, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + STARTUP_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"{what} did not start: {process.stderr.read().decode()[-2000:]}")
            time.sleep(0.1)


@pytest.fixture
def farm(tmp_path):
    """Two `attnpos serve` hosts (each its own port and sessions folder, one session at most) and nginx in front.

    nginx's URL, the hosts (by address, their sessions folders), nginx's folder.
    """
    missing = nginx_missing()
    if missing:
        if os.environ.get("ATTNPOS_REQUIRE_NGINX") == "1":
            pytest.fail(f"{missing}; .ci/run requires it (ATTNPOS_REQUIRE_NGINX=1)")
        pytest.skip(missing)
    hosts = {free_port(): tmp_path / f"sessions-{index}" for index in range(2)}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "attnpos", "serve", "--port", str(port), "--sessions-dir", str(sessions), "--proxy", "127.0.0.1", "--max-sessions", "1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for port, sessions in hosts.items()
    ]
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = free_port()
    (folder / "nginx.conf").write_text(nginx_config(folder, port, list(hosts)))
    nginx = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    processes.append(nginx)
    try:
        wait_listening(port, nginx, "nginx")
        for backend, process in zip(hosts, processes[: len(hosts)], strict=True):
            wait_listening(backend, process, "attnpos serve")
        yield f"http://127.0.0.1:{port}", {f"127.0.0.1:{backend}": sessions for backend, sessions in hosts.items()}, folder
    finally:
        for process in processes:
            process.terminate()  # nginx: its fast stop
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def routes(folder: Path) -> list[tuple[str, str, str, str]]:
    """nginx's access log: each request's route key, the host that served it, its status and URI."""
    return [tuple(line.split(" ", 3)) for line in (folder / "access.log").read_text().splitlines()]  # type: ignore[misc]


async def learner_on_each_host(base: str, hosts: dict, folder: Path) -> dict:
    """New browsers' page loads until one landed on each host (the route is random per browser): each host's browser."""
    chosen: dict = {}
    for _ in range(40):  # two hosts: each new browser has an even chance, so 40 never all land on one
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        page = await http.get(base + "/", params={"open": EXERCISE})
        page.release()
        route = page.cookies[ROUTE_COOKIE].value
        served = await _served(folder, route)
        if served in chosen or len(chosen) == len(hosts):
            await http.close()
        else:
            chosen[served] = http
    assert set(chosen) == set(hosts), chosen
    return chosen


async def _served(folder: Path, route: str) -> str:
    """The host nginx sent ``route``'s page to (nginx logs a request once it is answered, so a moment after the browser has it)."""
    for _ in range(100):
        served = [host for key, host, _, _ in routes(folder) if key == route]
        if served:
            return served[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no request of {route} in nginx's log")


async def test_two_learners_through_nginx_each_pass_on_one_host_with_progress_kept_apart(farm):
    base, hosts, folder = farm
    browsers = await learner_on_each_host(base, hosts, folder)
    try:
        # Each browser's tab: its page again (a new session token, from its own host), its websocket, a pass.
        tabs = await asyncio.gather(*(open_tab(base, http=http, start=EXERCISE) for http in browsers.values()))
        for tab in tabs:
            await tab.until("your answer")  # both apps start at once: waiting on one lets the other start too
        await asyncio.gather(*(pass_constant_offset(tab) for tab in tabs))
        # Each host at its --max-sessions: a third browser, wherever nginx sends it, is told so.
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as third:
            page = await third.get(base + "/")
            assert page.status == 503 and "The course is full" in await page.text()
        for tab in tabs:
            await close_tab(tab)
        # A websocket through nginx from another origin is still refused by the host behind it.
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as stranger:
            (await stranger.get(base + "/")).release()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await stranger.ws_connect(base.replace("http", "ws") + "/ws", origin="http://evil.example")
            assert refused.value.status == 403
    finally:
        for http in browsers.values():
            await http.close()

    # Each browser's requests (two page loads and a websocket) all went to the host its first page came from.
    requests = routes(folder)
    for host, http in browsers.items():
        (route,) = [cookie.value for cookie in http.cookie_jar if cookie.key == ROUTE_COOKIE]
        mine = [(served, status, uri) for key, served, status, uri in requests if key == route]
        assert {served for served, _, _ in mine} == {host}, mine
        assert [uri for _, _, uri in mine if uri.startswith("/ws")] and all(status in ("200", "101") for _, status, _ in mine), mine
    # Each host holds its own learner's pass, and nothing of the other's.
    for host, sessions in hosts.items():
        deadline = asyncio.get_running_loop().time() + STARTUP_S
        while not [child for child in sessions.iterdir() if (child / "progress.json").exists() and Progress.load(child).exercise(EXERCISE).passed]:
            assert asyncio.get_running_loop().time() < deadline, f"{host} never saved its learner's pass"
            await asyncio.sleep(0.1)
        assert len([child for child in sessions.iterdir() if child.is_dir()]) == 1, list(sessions.iterdir())


# --- what a host behind the proxy believes of it ------------------------------------------------------------


def _request(remote: str, **headers: str):
    """A request that came over a connection from ``remote``, with ``headers``."""
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (remote, 50000) if name == "peername" else default
    return make_mocked_request("GET", "/", headers={"Host": "course.example.org", **headers}, transport=transport)


def test_a_proxy_named_by_address_gives_the_browsers_address_and_scheme_and_no_one_else_can(tmp_path):
    book = SessionBook(tmp_path)
    try:
        server = CourseServer("10.0.0.11", 8000, book, strict=False, proxies=frozenset({"10.0.0.1"}))
        forwarded = {"X-Real-IP": "203.0.113.7", "X-Forwarded-Proto": "https"}
        through_proxy = _request("10.0.0.1", **forwarded)
        assert (server._client(through_proxy), server._scheme(through_proxy)) == ("203.0.113.7", "https")
        # The same headers from a browser (or another proxy) are ignored: its own address is the one counted.
        direct = _request("198.51.100.9", **forwarded)
        assert (server._client(direct), server._scheme(direct)) == ("198.51.100.9", "http")
        # What the proxy sends that is not an address or a scheme leaves the connection's.
        garbled = _request("10.0.0.1", **{"X-Real-IP": "unix:", "X-Forwarded-Proto": "gopher"})
        assert (server._client(garbled), server._scheme(garbled)) == ("10.0.0.1", "http")
        # Without --proxy, nothing is believed.
        plain = CourseServer("10.0.0.11", 8000, book, strict=False)
        assert (plain._client(through_proxy), plain._scheme(through_proxy)) == ("10.0.0.1", "http")
    finally:
        book.close()


@pytest.mark.parametrize(
    ("option", "said"), [(("--proxy", "nginx.example"), "--proxy needs an IP address"), (("--max-sessions", "0"), "--max-sessions must be at least 1")]
)
def test_a_proxy_must_be_an_address_and_the_cap_a_count(attnpos, option, said):
    result = attnpos("serve", *option)
    assert result.returncode == 2
    assert said in result.stderr and len(result.stderr.strip().splitlines()) == 1
