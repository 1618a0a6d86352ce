"""`attnpos serve`: the course in a browser, driven end to end over its websocket and in headless Chromium."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="the web extra: pip install -e '.[web]'")
pytest.importorskip("textual_serve", reason="the web extra: pip install -e '.[web]'")

from browser_tab import PALETTE, RIGHT_ANSWER_LINES, SESSION_COOKIE, STARTUP_S, close_tab, free_port, jump_to_constant_offset, open_tab, pass_constant_offset  # noqa: E402

from attnpos.lessons.course.progress import Progress  # noqa: E402
from attnpos.tui.web.serve import is_loopback  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`attnpos serve` on a free port, its sessions in a temporary folder, its home another beside it; the base URL and the sessions folder.

    One server for the module: each test opens sessions of its own and looks only at the folders they make.
    """
    root = tmp_path_factory.mktemp("serve")
    port, sessions, home = free_port(), root / "sessions", root / "home"
    (home / "Downloads").mkdir(parents=True)  # where a terminal app's screenshot would go: served, nothing may land here
    process = subprocess.Popen(
        [sys.executable, "-m", "attnpos", "serve", "--port", str(port), "--sessions-dir", str(sessions)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "HOME": str(home), "XDG_DOWNLOAD_DIR": str(home / "Downloads")},
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


def folders(sessions) -> set:
    return {child for child in sessions.iterdir() if child.is_dir()}


async def open_first_tab(base: str, sessions):
    """A new browser's tab, once its app has drawn, and the data folder the server chose for it."""
    before = folders(sessions)
    tab = await open_tab(base)
    await tab.until("Lesson 1")
    (folder,) = folders(sessions) - before
    return tab, folder


def app_processes(folder) -> list[int]:
    """The apps running on ``folder`` (their command line names it as the data folder)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            arguments = open(f"/proc/{entry}/cmdline", "rb").read().split(b"\0")
        except (OSError, ValueError):
            continue
        if b"--data-dir" in arguments and os.fsencode(folder) in arguments and b"-m" in arguments:
            found.append(int(entry))
    return found


def wait_for(condition, what: str, timeout: float = STARTUP_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after {timeout} s: {what}")
        time.sleep(0.1)


async def test_a_browser_session_passes_an_exercise_and_closing_the_tab_keeps_it(server):
    base, sessions = server
    tab, folder = await open_first_tab(base, sessions)
    await jump_to_constant_offset(tab)
    await pass_constant_offset(tab)
    await close_tab(tab)
    wait_for(lambda: Progress.load(folder).exercise("constant-offset").passed, "the pass is in the session's progress")


async def test_two_browser_sessions_keep_separate_progress(server):
    base, sessions = server
    first, first_folder = await open_first_tab(base, sessions)
    second, second_folder = await open_first_tab(base, sessions)
    assert first_folder != second_folder
    await first.type("\r")  # open lesson 1: the outline then shows it begun
    await first.until("Prev")  # the lesson page's footer
    await close_tab(first)
    wait_for(lambda: (first_folder / "progress.json").exists(), "the first session saved its progress")
    again = await open_tab(base, first.token)  # the same browser comes back: its progress is there
    assert again.token != first.token  # each page load replaces the token, for the same folder
    drawn = await again.until("Lesson 4")
    assert "in progress" in drawn, drawn
    assert app_processes(first_folder)
    await close_tab(again)
    await close_tab(second)
    # A session that saved nothing leaves no folder; one that saved keeps it.
    wait_for(lambda: not second_folder.exists(), "the unused session's folder removed")
    assert (first_folder / "progress.json").exists()


PLANTED = "A" * 43  # the shape of a real token, never issued: a page on the same host name can set it


async def test_the_websocket_needs_a_session_the_server_issued(server):
    base, sessions = server
    before = folders(sessions)
    for cookies in ({}, {SESSION_COOKIE: "../../etc"}, {SESSION_COOKIE: "short"}, {SESSION_COOKIE: PLANTED}):
        async with aiohttp.ClientSession(cookies=cookies, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(base.replace("http", "ws") + "/ws", origin=base)
            assert refused.value.status == 403
    assert not folders(sessions) - before  # nothing made for any of them


async def test_a_planted_cookie_gets_a_fresh_session_never_the_planted_one(server):
    """Session fixation: the victim's page load with a token the server never issued gets a new token and folder."""
    base, sessions = server
    victim = await open_tab(base, PLANTED)
    assert victim.token != PLANTED
    await victim.until("Lesson 1")
    assert not (sessions / PLANTED).exists()
    await close_tab(victim)
    # And a real token, obtained from the server by the attacker and planted: the victim's page load replaces it.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as attacker:
        (await attacker.get(base + "/")).release()
        obtained = next(cookie.value for cookie in attacker.cookie_jar if cookie.key == SESSION_COOKIE)
    victim = await open_tab(base, obtained)
    assert victim.token != obtained
    await victim.until("Lesson 1")
    async with aiohttp.ClientSession(cookies={SESSION_COOKIE: obtained}, cookie_jar=aiohttp.CookieJar(unsafe=True)) as attacker:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await attacker.ws_connect(base.replace("http", "ws") + "/ws", origin=base)
        assert refused.value.status == 403
    await close_tab(victim)


async def test_a_websocket_from_another_origin_or_host_name_is_refused(server):
    """Cross-origin websockets (another site, or a page on another port of this host) and DNS rebinding."""
    base, sessions = server
    before = folders(sessions)
    port = base.rsplit(":", 1)[1]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        (await http.get(base + "/")).release()  # a real session: only the origin is wrong
        for origin in ("http://evil.example", "http://127.0.0.1:1", f"https://evil.example:{port}", "null"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(base.replace("http", "ws") + "/ws", origin=origin)
            assert refused.value.status == 403, origin
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # no Origin at all
            await http.ws_connect(base.replace("http", "ws") + "/ws")
        assert refused.value.status == 403
        # evil.example resolving to 127.0.0.1: its page and websocket name evil.example as the host.
        rebound = {"Host": f"evil.example:{port}"}
        page = await http.get(base + "/", headers=rebound)
        assert page.status == 403 and SESSION_COOKIE not in page.cookies
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(base.replace("http", "ws") + "/ws", origin=f"http://evil.example:{port}", headers=rebound)
        assert refused.value.status == 403
    assert not folders(sessions) - before


async def test_a_second_tab_of_a_session_replaces_the_first_never_two_apps_on_one_folder(server):
    base, sessions = server
    first, folder = await open_first_tab(base, sessions)
    (running,) = app_processes(folder)
    again = await open_tab(base, first.token, reload=False)  # the same cookie, as a second websocket
    await first.until_closed()  # after what the first app drew before it quit
    await again.until("Lesson 1")
    assert running not in app_processes(folder) and len(app_processes(folder)) == 1
    await close_tab(again)
    await close_tab(first)


async def test_a_screenshot_goes_to_the_browser_never_to_the_hosts_disk(server, tmp_path):
    base, sessions = server
    tab, folder = await open_first_tab(base, sessions)
    await tab.type("\x10")  # ctrl+p: the command palette
    await tab.until(PALETTE)
    await tab.type("screenshot")
    await tab.until("screenshot")
    await tab.type("\r")
    _, key = await tab.until_message("deliver_file_start")
    download = await tab.http.get(f"{base}/download/{key}")
    assert download.status == 200 and (await download.text()).lstrip().startswith("<svg")
    await close_tab(tab)
    written = [*tmp_path.rglob("*.svg"), *sessions.parent.rglob("*.svg")]  # the server's home and sessions are beside each other
    assert not written, written


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
    before = folders(sessions)
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
        wait.until(lambda d: d.get_cookie(SESSION_COOKIE))
        wait_for(lambda: folders(sessions) - before, "the session's folder made")
        (progress,) = folders(sessions) - before

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


# --- the server in this process, with limits of a test's own -----------------------------------------------------


LIMITED_SERVER = """
import sys
from pathlib import Path
from attnpos.tui.web.serve import CourseServer, SessionLimits
from attnpos.tui.web.sessions import SessionBook
host, port, sessions = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
total, per_client, idle_s = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
CourseServer(host, port, SessionBook(sessions), strict=False, limits=SessionLimits(total, per_client, idle_s)).serve()
"""


@pytest.fixture
def course_server(tmp_path):
    """A function starting a CourseServer with limits of the test's own (total, per client, idle seconds); its URL and sessions folder."""
    started = []

    def start(total: int = 64, per_client: int = 4, idle_s: float = 1800, host: str = "127.0.0.1"):
        port, sessions = free_port(), tmp_path / "sessions"
        sessions.mkdir()
        arguments = [host, str(port), str(sessions), str(total), str(per_client), str(idle_s)]
        process = subprocess.Popen([sys.executable, "-c", LIMITED_SERVER, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started.append(process)
        wait_for(lambda: _listening(host, port) or process.poll() is not None, "the server listening")
        assert process.poll() is None, process.stderr.read().decode()[-2000:]
        return f"http://{host}:{port}", sessions

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def _listening(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        return False
    return True


async def _page(base: str):
    """A new browser's page load: its status and text."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as fresh:
        response = await fresh.get(base + "/")
        return response.status, await response.text()


def this_machines_address() -> str | None:
    """An address of this machine other than loopback (a client from it is one the per-client cap counts), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("198.51.100.1", 9))  # TEST-NET-2; no packet is sent: this only picks the outgoing interface
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if is_loopback(address) or address == "0.0.0.0" else address


@pytest.mark.parametrize(
    ("total", "per_client", "said"),
    [(1, 4, "sessions are open on this server"), (4, 1, "sessions are open from your address")],
)
async def test_sessions_are_capped_in_all_and_per_client_with_a_page_saying_so(course_server, total, per_client, said):
    host = "127.0.0.1"
    if per_client == 1:  # loopback clients (this machine, or SSH tunnels) are counted in the total only
        host = this_machines_address()
        if host is None:
            pytest.skip("this machine has no address but loopback, so no client the per-client cap counts")
    base, sessions = course_server(total=total, per_client=per_client, host=host)
    waiting = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # a browser whose page loaded before the cap was met
    (await waiting.get(base + "/")).release()
    tab = await open_tab(base)
    try:
        await tab.until("Lesson 1")
        status, page = await _page(base)
        assert status == 503 and said in page, page
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await waiting.ws_connect(base.replace("http", "ws") + "/ws", origin=base)
        assert refused.value.status == 503
        assert len(folders(sessions)) == 1
        again = await tab.http.get(base + "/")  # the running session's own browser is still served
        assert again.status == 200
    finally:
        await waiting.close()
        await close_tab(tab)


async def test_an_idle_session_is_closed_and_its_unused_folder_removed(course_server):
    base, sessions = course_server(idle_s=3)
    tab = await open_tab(base)

    async def keep_busy():  # a start slower than the idle time (a loaded machine) must not end the session first
        while True:
            await tab.websocket.send_json(["resize", {"width": 100, "height": 30}])
            await asyncio.sleep(0.5)

    busy = asyncio.create_task(keep_busy())
    try:
        await tab.until("Lesson 1")
        busy.cancel()
        (folder,) = folders(sessions)
        await tab.until_closed()
        wait_for(lambda: not folder.exists() and not app_processes(folder), "the app ended and its unused folder went")
    finally:
        busy.cancel()
        await close_tab(tab)


class _Recorder:
    """An app service that records what the server passes on."""

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []
        self.keys: list[bytes] = []

    async def set_terminal_size(self, width: int, height: int) -> None:
        self.sizes.append((width, height))

    async def send_bytes(self, data: bytes) -> None:
        self.keys.append(data)


class _Browser:
    """A websocket's server side fed a list of text messages, then closed."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = messages
        self.closed = False

    async def receive(self, timeout=None):
        if not self.messages:
            self.closed = True
            return aiohttp.WSMessage(aiohttp.WSMsgType.CLOSE, None, None)
        return aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, self.messages.pop(0), None)


async def test_every_resize_is_clamped_and_bad_messages_are_ignored(tmp_path):
    from attnpos.tui.web.serve import MAX_SIZE, MIN_SIZE, CourseServer
    from attnpos.tui.web.sessions import SessionBook

    attack = '["resize",{"width":8000,"height":8000}]'
    assert len(attack) == 39  # the red team's was 43 bytes, with spaces
    messages = [attack, '["resize",{"width":0,"height":-5}]', '["resize",{"width":"x","height":null}]', "not json", "[]", '["stdin",5]', '["stdin","q"]']
    book = SessionBook(tmp_path)
    try:
        app = _Recorder()
        await CourseServer("127.0.0.1", 1, book, strict=False)._process_messages(_Browser(messages), app)  # type: ignore[arg-type]
    finally:
        book.close()
    assert app.sizes == [(MAX_SIZE, MAX_SIZE), (MIN_SIZE, MIN_SIZE), (80, 24)]
    assert app.keys == [b"q"]


def test_session_tokens_are_the_servers_own_and_outlive_a_restart_only_with_saved_progress(tmp_path):
    from attnpos.tui.web.sessions import TOKENS_FILE, SessionBook, SessionsInUse

    book = SessionBook(tmp_path)
    with pytest.raises(SessionsInUse):
        SessionBook(tmp_path)  # a second server on the same folders
    assert book.folder_of(PLANTED) is None
    used, used_folder = book.issue(PLANTED)
    unused, unused_folder = book.issue("")
    assert used != PLANTED and used_folder != unused_folder
    replaced, same = book.issue(used)
    assert same == used_folder and book.folder_of(used) is None and book.folder_of(replaced) == used_folder
    for folder in (used_folder, unused_folder):
        book.path(folder).mkdir()
    (book.path(used_folder) / "progress.json").write_text("{}")
    book.ended(used_folder)
    book.ended(unused_folder)
    assert not book.path(unused_folder).exists()
    assert replaced not in (tmp_path / TOKENS_FILE).read_text()  # only digests are written
    assert (tmp_path / TOKENS_FILE).stat().st_mode & 0o077 == 0
    book.close()
    (tmp_path / ("b" * 32)).mkdir()  # a folder a stopped server left, never used
    (tmp_path / "my-notes").mkdir()  # not a session's: never touched
    again = SessionBook(tmp_path)
    try:
        assert again.folder_of(replaced) == used_folder and again.folder_of(unused) is None
        assert not (tmp_path / ("b" * 32)).exists() and (tmp_path / "my-notes").exists()
    finally:
        again.close()


def test_tokens_of_pages_never_used_are_bounded(tmp_path, monkeypatch):
    """A client loading the page again and again without cookies makes tokens, only in memory, the oldest forgotten first."""
    from attnpos.tui.web import sessions
    from attnpos.tui.web.sessions import SessionBook

    monkeypatch.setattr(sessions, "MAX_UNSAVED", 20)
    book = SessionBook(tmp_path)
    try:
        first, _ = book.issue("")
        issued = [book.issue("")[0] for _ in range(100)]
        assert book.folder_of(first) is None and book.folder_of(issued[-1]) is not None
        assert sum(book.folder_of(token) is not None for token in issued) <= 20
        assert not folders(tmp_path) and not (tmp_path / sessions.TOKENS_FILE).exists()
    finally:
        book.close()
