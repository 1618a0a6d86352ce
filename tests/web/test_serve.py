"""`attnpos serve`: the course in a browser, driven end to end over its websocket and in headless Chromium."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="the web extra: pip install -e '.[web]'")
pytest.importorskip("textual_serve", reason="the web extra: pip install -e '.[web]'")

from attnpos.lessons.course.progress import Progress  # noqa: E402
from attnpos.tui.web.serve import SESSION_COOKIE, is_loopback  # noqa: E402

ANSI = re.compile(rb"\x1b\[[0-9;?$<>=]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b\][^\x07]*\x07|\x1b[=>]")
STARTUP_S = 120  # a cold start imports NumPy and Textual in two processes; CI's two cores may be busy
# A right answer to constant-offset, typed at the end of its starter: one line each, no indentation to type.
RIGHT_ANSWER_LINES = (
    "pos = 0.6",
    "max_diff = float(abs(attention_output(X[:, perm] + pos, Wq, Wk, Wv) - attention_output(X + pos, Wq, Wk, Wv)[:, perm]).max())",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """`attnpos serve` on a free port, its sessions in a temporary folder; the base URL and that folder."""
    port, sessions = free_port(), tmp_path / "sessions"
    process = subprocess.Popen(
        [sys.executable, "-m", "attnpos", "serve", "--port", str(port), "--sessions-dir", str(sessions)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + STARTUP_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"attnpos serve did not start: {process.stderr.read().decode()[-2000:]}")
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}", sessions
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()


class BrowserSession:
    """What a browser tab does: load the page (which sets the session cookie), then talk over the websocket."""

    def __init__(self, http, websocket) -> None:
        self.http, self.websocket = http, websocket
        self.screen = bytearray()
        self.token = next(cookie.value for cookie in http.cookie_jar if cookie.key == SESSION_COOKIE)

    def text(self) -> str:
        return ANSI.sub(b"", bytes(self.screen)).decode("utf-8", "replace")

    async def until(self, text: str, timeout: float = STARTUP_S) -> str:
        """Read the app's output until ``text`` has been drawn; return what was read, and forget it."""
        deadline = time.monotonic() + timeout
        while text not in self.text():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never drawn; last output: {self.text()[-1500:]}")
            try:
                message = await asyncio.wait_for(self.websocket.receive(), left)
            except asyncio.TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.extend(message.data)
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                raise AssertionError(f"the app closed before drawing {text!r}: {self.text()[-1500:]}")
        drawn = self.text()
        self.screen.clear()
        return drawn

    async def type(self, keys: str) -> None:
        await self.websocket.send_json(["stdin", keys])


async def open_tab(base: str, token: str | None = None):
    """A new tab; with ``token``, the same browser coming back with its session cookie."""
    cookies = {SESSION_COOKIE: token} if token else None
    http = aiohttp.ClientSession(cookies=cookies, cookie_jar=aiohttp.CookieJar(unsafe=True))  # cookies for 127.0.0.1
    try:
        (await http.get(base + "/")).release()
        websocket = await http.ws_connect(base.replace("http", "ws") + "/ws?width=100&height=30")
    except BaseException:
        await http.close()
        raise
    return BrowserSession(http, websocket)


async def close_tab(tab: BrowserSession) -> None:
    await tab.websocket.close()
    await tab.http.close()


def wait_for(condition, what: str, timeout: float = STARTUP_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after {timeout} s: {what}")
        time.sleep(0.1)


async def test_a_browser_session_passes_an_exercise_and_closing_the_tab_keeps_it(server):
    base, sessions = server
    tab = await open_tab(base)
    await tab.until("Lesson 1")
    await tab.type("\x10")  # ctrl+p: jump anywhere
    await tab.until("Jump")
    await tab.type("constant-offset")
    await tab.until("constant")
    await tab.type("\r")
    await tab.until("your answer")  # the editor's title: the exercise screen is up
    await tab.type("\r" + "\r".join(RIGHT_ANSWER_LINES) + "\r")
    await tab.type("\x14")  # ctrl+t: check
    await tab.until("passed")
    await close_tab(tab)
    folder = sessions / tab.token
    wait_for(lambda: Progress.load(folder).exercise("constant-offset").passed, "the pass is in the session's progress")


async def test_two_browser_sessions_keep_separate_progress(server):
    base, sessions = server
    first, second = await open_tab(base), await open_tab(base)
    await first.until("Lesson 1")
    await second.until("Lesson 1")
    await first.type("\r")  # open lesson 1: the outline then shows it begun
    await first.until("Prev")  # the lesson page's footer
    await close_tab(first)
    first_folder, second_folder = sessions / first.token, sessions / second.token
    assert first_folder != second_folder
    wait_for(lambda: (first_folder / "progress.json").exists(), "the first session saved its progress")
    again = await open_tab(base, first.token)  # the same browser comes back: its progress is there
    assert again.token == first.token
    drawn = await again.until("Lesson 4")
    assert "in progress" in drawn, drawn
    await close_tab(again)
    await close_tab(second)
    assert not (second_folder / "progress.json").exists()


async def test_the_websocket_needs_the_pages_session_cookie(server):
    base, _ = server
    for cookies in ({}, {SESSION_COOKIE: "../../etc"}, {SESSION_COOKIE: "short"}):
        async with aiohttp.ClientSession(cookies=cookies, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(base.replace("http", "ws") + "/ws")
            assert refused.value.status == 403


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.4", False),
        ("example.org", False),
    ],
)
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_serving_beyond_this_machine_needs_a_flag(attnpos):
    result = attnpos("serve", "--host", "0.0.0.0")
    assert result.returncode == 2
    assert "--allow-remote" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_without_the_web_extra_serve_names_it(attnpos, monkeypatch):
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # as if it were not installed
    result = attnpos("serve")
    assert result.returncode == 2
    assert "pip install 'attnpos[web]'" in result.stderr


CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def _browser_missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (the browser extra)"
    if not (CHROMIUM and CHROMEDRIVER):
        return "Debian's chromium and chromium-driver are not installed (.ci/run installs them)"
    return None


def test_in_headless_chromium_a_learner_passes_an_exercise(server, tmp_path):
    """The real page: xterm.js in Chromium, keys typed into it, each step seen in the session's progress.

    The page draws on a canvas, so the test reads the session's progress file instead of the screen:
    the open exercise and a first draft say the editor has the keys, a saved answer that it holds what was
    typed, a pass that the check ran.
    """
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser test: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    base, sessions = server
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1200,900",
        f"--user-data-dir={tmp_path / 'chromium'}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(base + "/?open=constant-offset")  # a link an instructor can hand out
        wait = WebDriverWait(driver, STARTUP_S)
        terminal = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea"))
        progress = sessions / wait.until(lambda d: d.get_cookie(SESSION_COOKIE))["value"]

        # Keys typed before the app has started would be lost, or taken as commands (q quits). The exercise
        # screen names itself in the session's progress; a newline typed into its editor makes a draft.
        wait_for(lambda: Progress.load(progress).open_exercise == "constant-offset", "the exercise opened")
        deadline = time.monotonic() + STARTUP_S
        while Progress.load(progress).exercise("constant-offset").draft is None:
            if time.monotonic() > deadline:
                raise AssertionError("the editor never took a newline")
            terminal.send_keys(Keys.ENTER)
            time.sleep(1)  # how often to try again, not how long the app takes: the loop waits on the draft
        answer = []
        for line in RIGHT_ANSWER_LINES:
            answer += [line, Keys.ENTER]
        terminal.send_keys(*answer)
        wait_for(lambda: "pos = 0.6" in (Progress.load(progress).exercise("constant-offset").draft or ""), "the answer typed into the editor")
        terminal.send_keys(Keys.F5)  # the check's key in a browser, where ctrl+t would open a tab
        wait_for(lambda: Progress.load(progress).exercise("constant-offset").passed, "the pass recorded")
    finally:
        driver.save_screenshot(str(tmp_path / "browser.png"))  # what the page showed last, pass or failure
        driver.quit()
