"""attnpos benchmarks: each figure beside a baseline measured in the same run, and its budget.

    python tests/benchmarks/run.py            # all nine
    python tests/benchmarks/run.py frame grid # some of them

Not part of `pytest` (no test_ file: the default suite and CI never run it): the
machines are shared and noisy, so budgets are ratios against a floor measured
alongside, reported here rather than asserted in unit tests. Exit code 1 if a
budget is missed.

Every benchmark that reads the course runs twice: on the course as it is, and
on the course grown to $ATTNPOS_BENCH_LESSONS lessons (default 30; 0 for the
real course alone) in a temporary folder, each lesson past the real ones a
copy of a real one's text with an exercise of its own placed by the writer's
scaffold (`generated_course`), so that a cost growing with the course shows
before the course grows. The memory and whole-class benchmarks run on the
real course only (`attnpos serve` starts each session's app itself; a class
of 30 exercises a student is hours).

The package's bytecode is compiled first, as `pip install` does: this
project's machines set PYTHONDONTWRITEBYTECODE, under which every process
would compile attnpos from source and time that too.
"""

from __future__ import annotations

import asyncio
import compileall
import contextlib
import json
import os
import pty
import re
import resource
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PYTHON = sys.executable
REPOSITORY = Path(__file__).parents[2]
# `attnpos` on a course in another folder: the command line, with the course folder pointed there first.
# `attnpos` on the course in argv[1]. For `check` the folder is set once the command has spawned its fork server, as
# the real command imports nothing of the course before that (setting it first cost the generated course's check the
# scanner's imports, 15-25 ms, on the server's path); for other commands, first.
COURSE_MAIN = """
import sys
from attnpos.tui import main

def use_the_course():
    from pathlib import Path
    from attnpos.lessons.course import scanner
    scanner.COURSE_ROOT = Path(sys.argv[1])

spawn = main._start_check

def spawned(arguments):
    server = spawn(arguments)
    use_the_course()
    return server

main._start_check = spawned
if sys.argv[2:3] != ["check"]:
    use_the_course()
main.console(sys.argv[2:])
"""
MINIMAL_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("baseline ready")
        yield Footer()

Minimal().run()
"""


@dataclass
class Result:
    name: str
    figure: str
    baseline: str
    ratio: float | None
    budget: str
    ok: bool


# --- 1. time to first frame in a real pseudo-terminal ----------------------------------


def attnpos_argv(course: Path | None) -> list[str]:
    """The `attnpos` program as a learner runs it, or on the course in ``course``."""
    return [PYTHON, "-m", "attnpos"] if course is None else [PYTHON, "-c", COURSE_MAIN, str(course)]


@contextlib.contextmanager
def course_folder(course: Path | None):
    """In this process, the course is the one in ``course`` (the real one when None)."""
    from attnpos.lessons.course import scanner

    real = scanner.COURSE_ROOT
    scanner.COURSE_ROOT = course or real
    try:
        yield
    finally:
        scanner.COURSE_ROOT = real


EXERCISE_BLOCK = re.compile(r'```\{exercise\}\nid = "[^"]*"\n```\n?')
BLOCK_ID = re.compile(r'(?m)^(id = "[^"]*)"$')


def generated_course(lessons: int) -> Path:
    """The course grown to ``lessons`` lessons in a temporary folder; its path.

    Each lesson past the real ones is a copy of a real one's text, in turn
    (its figures quoted by name from the real lesson, which registers them;
    its questions' ids made its own; its exercises left to the real lesson),
    and gets the real lesson's exercises, copied by the writer's scaffold
    (`attnpos new exercise ID --lesson N --from EXERCISE`), each checked by
    its original's contract.
    """
    from attnpos.lessons.authoring.scaffold import new_exercise
    from attnpos.lessons.course import scanner
    from attnpos.lessons.course.outline import read_outline

    root = Path(tempfile.mkdtemp(prefix="attnpos-bench-course-")) / "content"
    shutil.copytree(scanner.COURSE_ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    originals = read_outline(root, root / "exercises")
    paths = {int(match.group(1)): path for path, match in scanner.lesson_files(root) if match}
    with course_folder(root):  # the scaffold writes into the course folder
        for number in range(len(originals) + 1, lessons + 1):
            source = originals[(number - 1) % len(originals)]
            text = EXERCISE_BLOCK.sub("", paths[source.number].read_text(encoding="utf-8"))
            text = BLOCK_ID.sub(rf'\1-{number}"', text)  # quiz ids are unique in a course
            text = re.sub(r'(?m)^title = "(.*)"$', rf'title = "\1 ({number})"', text, count=1)
            folder = root / f"{number:02d}-{paths[source.number].parent.name[3:]}"
            folder.mkdir()
            (folder / "lesson.md").write_text(text, encoding="utf-8")
            (folder / "figures.py").write_text("EXPERIMENTS = ()\nFIGURES = ()\n", encoding="utf-8")
            for exercise in source.exercises:
                new_exercise(f"{exercise.id}-{number}", number, exercise.id)
    return root


def time_to_text(argv: list[str], marker: bytes, env: dict, size=(24, 80), timeout=30.0) -> tuple[float, float]:
    """Seconds from spawning ``argv`` on a new pty until ``marker`` has been written to it, and the CPU seconds
    the process had used by then (every thread: on a loaded machine, the figure load changes least)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of the given size, then the program
        import fcntl
        import struct
        import termios

        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
        os.execvpe(argv[0], argv, env)
    started = time.perf_counter()
    seen = b""
    try:
        while marker not in seen:
            if time.perf_counter() - started > timeout:
                raise TimeoutError(f"{marker!r} never appeared")
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        elapsed = time.perf_counter() - started
        with open(f"/proc/{pid}/stat") as stat:
            utime, stime = stat.read().rsplit(")", 1)[1].split()[11:13]
        return elapsed, (int(utime) + int(stime)) / os.sysconf("SC_CLK_TCK")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def bench_first_frame(course: Path | None = None, runs: int = 9) -> Result:
    """The app's first frame beside a minimal Textual app's, with the learner's data folder kept between runs
    (the outline read from its cache, as at every start after the first); the first start, cache empty, is shown apart."""
    data = tempfile.mkdtemp(prefix="attnpos-bench-")
    env = {**os.environ, "TERM": "xterm-256color", "ATTNPOS_DATA_DIR": data, "COLUMNS": "80", "LINES": "24"}
    minimal = Path(data) / "minimal.py"
    minimal.write_text(MINIMAL_APP)
    first_start = time_to_text(attnpos_argv(course), b"Three families", env)
    ours, base = [], []
    for _ in range(runs):  # interleaved, so drift in machine load hits both alike
        base.append(time_to_text([PYTHON, str(minimal)], b"baseline ready", env))
        ours.append(time_to_text(attnpos_argv(course), b"Three families", env))
    o, b = statistics.median(t for t, _ in ours), statistics.median(t for t, _ in base)
    o_cpu, b_cpu = statistics.median(c for _, c in ours), statistics.median(c for _, c in base)
    return Result(
        "1. first frame (outline drawn, 80×24 pty)",
        f"{o * 1000:.0f} ms (CPU {o_cpu * 1000:.0f} ms; the first start, before the outline's cache, {first_start[0] * 1000:.0f} ms)",
        f"{b * 1000:.0f} ms minimal Textual app (CPU {b_cpu * 1000:.0f} ms, so {o_cpu / b_cpu:.2f}×)",
        o / b,
        "≤ 1.3",
        o / b <= 1.3,
    )


# --- 2. check latency -----------------------------------------------------------------


def cold_numpy(runs: int = 9) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([PYTHON, "-c", "import numpy"], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def _app_checks(count: int) -> list[float]:
    """Check request (ctrl+t) to verdict on screen, in the app, for a correct constant-offset answer."""
    from textual.widgets import TextArea

    from attnpos.lessons.course.loader import load_course
    from attnpos.tui.app.course_app import AttnposApp
    from attnpos.tui.app.screens.exercise_screen import ExerciseScreen

    solution = load_course().exercises["constant-offset"].solution
    shown_at: list[float] = []
    show_verdict = ExerciseScreen._show_verdict

    def timed_show_verdict(screen, verdict, source, cancelled=False):
        show_verdict(screen, verdict, source, cancelled)
        assert verdict.passed, verdict.message
        shown_at.append(time.perf_counter())

    ExerciseScreen._show_verdict = timed_show_verdict
    app = AttnposApp(data_dir=Path(tempfile.mkdtemp()), start="constant-offset")
    times = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.5)  # the learner reads the task; the sandbox warms up meanwhile
            exercise_screen = app.screen
            exercise_screen.query_one("#editor", TextArea).load_text(solution)
            await pilot.pause()
            for _ in range(count):
                while app.screen is not exercise_screen:  # the why question pops up after a pass
                    app.pop_screen()
                    await pilot.pause()
                before = len(shown_at)
                started = time.perf_counter()
                await pilot.press("ctrl+t")
                deadline = started + 30
                while len(shown_at) == before:
                    if time.perf_counter() > deadline:
                        raise TimeoutError("no verdict within 30 s")
                    await asyncio.sleep(0.0005)
                times.append(shown_at[-1] - started)
    finally:
        ExerciseScreen._show_verdict = show_verdict
    return times


def bench_check(course: Path | None = None, checks: int = 31) -> Result:
    with course_folder(course):
        times = asyncio.run(_app_checks(checks))
    cold = cold_numpy()
    first, rest = times[0], times[1:]
    median = statistics.median(rest)
    p95 = sorted(rest)[int(0.95 * (len(rest) - 1))]
    ok = median <= 0.35 * cold and first <= 1.5 * cold
    return Result(
        "2. check latency (ctrl+t to verdict)",
        f"median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, first {first * 1000:.0f} ms",
        f"{cold * 1000:.0f} ms cold python -c 'import numpy'",
        median / cold,
        "median ≤ 0.35×, first ≤ 1.5×",
        ok,
    )


# --- 3. opening a lesson page with grids ----------------------------------------------


async def key_to_drawn(app, screen_class, method: str, keys: list[str], settle: float) -> list[float]:
    """Seconds from each key press to the refresh after ``screen_class.method`` redrew the screen.

    The stamp is taken when that refresh runs, so the pilot's own waiting after a key is not counted.
    """
    drawn_at: list[float] = []
    original = getattr(screen_class, method)

    def timed(screen, *args, **kwargs):
        result = original(screen, *args, **kwargs)

        async def stamp_after(awaitable):
            await awaitable
            screen.call_after_refresh(lambda: drawn_at.append(time.perf_counter()))

        if asyncio.iscoroutine(result):
            return stamp_after(result)
        screen.call_after_refresh(lambda: drawn_at.append(time.perf_counter()))
        return result

    setattr(screen_class, method, timed)
    times = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(settle)
            for key in keys:
                drawn_at.clear()
                started = time.perf_counter()
                await pilot.press(key)
                while not drawn_at:
                    await asyncio.sleep(0.0005)
                times.append(drawn_at[0] - started)
                await pilot.pause()
    finally:
        setattr(screen_class, method, original)
    return times


async def _page_opens() -> list[float]:
    """Key press to the first refresh after the new section is mounted, for every page of lesson 3."""
    from attnpos.tui.app.course_app import AttnposApp
    from attnpos.tui.app.screens.lesson_screen import LessonScreen

    app = AttnposApp(data_dir=Path(tempfile.mkdtemp()), start=(3, 0))
    pages = len(app.course.lesson(3).sections) - 1
    # 1.5 s on the first page: the course has loaded in the background by then
    return await key_to_drawn(app, LessonScreen, "show_section", ["n"] * pages, settle=1.5)


def bench_page(course: Path | None = None) -> Result:
    with course_folder(course):
        times = asyncio.run(_page_opens())
    median = statistics.median(times)
    figure = f"median {median * 1000:.0f} ms over {len(times)} pages, max {max(times) * 1000:.0f} ms"
    return Result("3. lesson page with grids (n to drawn)", figure, "-", None, "median ≤ 100 ms", median <= 0.100)


# --- 4. a 64×64 grid ----------------------------------------------------------------


GRID_APP = """
import numpy as np
from textual.app import App
from attnpos.tui.app.widgets.attention_grid import AttentionGrid

scores = np.random.default_rng(0).standard_normal((64, 64))
weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)

class GridApp(App):
    def compose(self):
        yield AttentionGrid(weights, [f"t{i}" for i in range(64)])

    def on_mount(self):
        self.query_one(AttentionGrid).focus()

GridApp().run()
"""


async def _frame_and_lines() -> tuple[float, int]:
    """Render time of every visible line of a 64×64 grid (nothing cached), and the lines a cursor move redraws."""
    import numpy as np
    from textual.app import App

    from attnpos.tui.app.widgets.attention_grid import AttentionGrid

    scores = np.random.default_rng(0).standard_normal((64, 64))
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)

    class GridApp(App):
        def compose(self):
            yield AttentionGrid(weights, [f"t{i}" for i in range(64)])

    app = GridApp()
    async with app.run_test(size=(200, 80)) as pilot:
        grid = app.query_one(AttentionGrid)
        grid.focus()
        await pilot.pause()
        frames = []
        for _ in range(20):
            grid._row_cache.clear()
            started = time.perf_counter()
            for y in range(grid.size.height):
                grid.render_line(y)
            frames.append(time.perf_counter() - started)
        lines = []
        render_line = grid.render_line
        grid.render_line = lambda y: (lines.append(y), render_line(y))[1]
        await pilot.press("down")
        await pilot.pause()
        return statistics.median(frames), len(set(lines))


def bytes_for_key(script: str, key: bytes, env: dict, size=(80, 200)) -> int:
    """Bytes the app writes to a real terminal in answer to one key, once its first frame is out."""
    path = Path(tempfile.mkdtemp()) / "grid_app.py"
    path.write_text(script)
    pid, fd = pty.fork()
    if pid == 0:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
        os.execvpe(PYTHON, [PYTHON, str(path)], env)

    def drain(quiet: float) -> int:
        count = 0
        while select.select([fd], [], [], quiet)[0]:
            try:
                count += len(os.read(fd, 65536))
            except OSError:
                break
        return count

    try:
        drain(2.0)  # start-up and the first frame
        os.write(fd, key)
        return drain(0.5)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def bench_grid(course: Path | None = None) -> Result:  # no course: one widget
    frame, lines = asyncio.run(_frame_and_lines())
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    written = bytes_for_key(GRID_APP, b"\x1b[B", env)  # the down arrow
    ok = frame <= 0.010 and written <= 2048
    return Result(
        "4. 64×64 grid",
        f"full frame {frame * 1000:.1f} ms; cursor move redrew {lines} lines, wrote {written} bytes",
        "-",
        None,
        "frame ≤ 10 ms, move ≤ 2 KiB",
        ok,
    )


# --- 7. the playground at 64 tokens ---------------------------------------------------


async def _playground_updates(presses: int = 30) -> list[float]:
    """A key (shuffle, or the next signal) to the refresh after the screen redrew, at T = 64."""
    from attnpos.tui.app.course_app import AttnposApp
    from attnpos.tui.app.screens.playground_screen import PlaygroundScreen

    sentence = " ".join(f"w{i % 23}" for i in range(64))
    app = AttnposApp(data_dir=Path(tempfile.mkdtemp()), play=sentence)
    keys = ["s" if index % 2 else "g" for index in range(presses)]
    return await key_to_drawn(app, PlaygroundScreen, "refresh_view", keys, settle=0.5)


def bench_playground(course: Path | None = None) -> Result:
    with course_folder(course):
        times = asyncio.run(_playground_updates())
    median = statistics.median(times)
    frame = 1 / 60
    return Result(
        "7. playground update at 64 tokens (key to drawn)",
        f"median {median * 1000:.1f} ms, max {max(times) * 1000:.1f} ms",
        f"one frame at 60 Hz, {frame * 1000:.1f} ms",
        median / frame,
        "median ≤ one frame",
        median <= frame,
    )


# --- 5. memory of a classroom host: browser sessions through `attnpos serve` -------------------

MINIMAL_SERVED = "import numpy\n" + MINIMAL_APP  # the floor a course app with NumPy cannot go below
SERVE_MINIMAL = """
import sys
from textual_serve.server import Server
Server(f"{sys.executable} {sys.argv[2]}", host="127.0.0.1", port=int(sys.argv[1])).serve()
"""


def pss_tree(pid: int) -> int:
    """Proportional set size in KiB of pid and all its descendants: a page shared by n processes counts 1/n each."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in open(f"/proc/{p}/smaps_rollup"):
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in open(f"/proc/{p}/task/{task}/children").read().split()]
        except OSError:
            pass
    return total


async def _open_sessions(port: int, count: int, marker: bytes, timeout: float = 600.0) -> list:
    """``count`` browser sessions (page, then websocket), each kept open once ``marker`` has been drawn."""
    import aiohttp

    async def one():
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        (await http.get(f"http://127.0.0.1:{port}/")).release()
        websocket = await http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24", origin=f"http://127.0.0.1:{port}")
        seen = b""
        while marker not in seen:
            message = await asyncio.wait_for(websocket.receive(), timeout)
            if isinstance(message.data, bytes):
                seen += message.data
        return http, websocket

    return list(await asyncio.gather(*(one() for _ in range(count))))


def served_marginal(argv: list[str], port: int, counts: tuple[int, ...], marker: bytes) -> dict[int, float]:
    """KiB per session that ``count`` sessions add to the idle server's proportional set size, for each count."""
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError("the server did not start") from None
                time.sleep(0.1)
        time.sleep(1)
        idle = pss_tree(server.pid)
        marginal = {}
        for count in counts:

            async def measure(count=count):
                sessions = await _open_sessions(port, count, marker)
                await asyncio.sleep(2)  # let every app settle after its first frame
                total = pss_tree(server.pid)
                for http, websocket in sessions:
                    await websocket.close()
                    await http.close()
                return total

            total = asyncio.run(measure())
            marginal[count] = (total - idle) / count
            time.sleep(3)  # the closed sessions' apps exit
        return marginal
    finally:
        server.terminate()
        server.wait(30)


def bench_memory(course: Path | None = None, counts: tuple[int, ...] = (10, 30)) -> Result:
    """Per-session memory of `attnpos serve` beside a minimal Textual app with NumPy served by textual-serve."""
    data = Path(tempfile.mkdtemp(prefix="attnpos-serve-"))
    minimal = data / "minimal.py"
    minimal.write_text(MINIMAL_SERVED)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ours = served_marginal([PYTHON, "-m", "attnpos", "serve", "--port", str(port), "--sessions-dir", str(data / "s")], port, counts, b"Lesson 1")
    base = served_marginal([PYTHON, "-c", SERVE_MINIMAL, str(port), str(minimal)], port, counts, b"baseline ready")
    ratios = {n: ours[n] / base[n] for n in counts}
    worst = max(ratios.values())
    figure = "; ".join(f"{n} sessions: {ours[n] / 1024:.0f} MiB each" for n in counts)
    baseline = "; ".join(f"{n}: {base[n] / 1024:.0f} MiB each" for n in counts) + " (minimal Textual app + NumPy, served alike)"
    return Result("5. memory per browser session (attnpos serve, PSS)", figure, baseline, worst, "≤ 1.3", worst <= 1.3)


# --- 6. grading throughput ------------------------------------------------------------


def bench_grade(course: Path | None = None, count: int = 200) -> Result:
    """`grade` of 200 files, each in a fresh sandbox, beside the same files in one shared warm sandbox (no isolation)."""
    from attnpos.lessons.checker import open_checker
    from attnpos.lessons.course.loader import load_course

    with course_folder(course):
        exercise = load_course().exercises["constant-offset"]
    folder = Path(tempfile.mkdtemp(prefix="attnpos-grade-"))
    texts = []
    for i in range(count):
        wrong = i % 2 == 1
        text = exercise.solution.replace("np.full((6, 8), 0.6)", "0.6 * np.arange(1, 7)[:, None] * np.ones(8)") if wrong else exercise.solution
        (folder / f"student{i:03d}.py").write_text(text)
        texts.append(text)
    started = time.perf_counter()
    result = subprocess.run([*attnpos_argv(course), "grade", "constant-offset", str(folder), "--jobs", "2", "--json"], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    report = json.loads(result.stdout)
    assert report["total"] == count and report["passed"] == count // 2, report["passed"]
    # The floor: every file through one warm fork server, as before issue 17 gave each file its own.
    with open_checker(strict=True, jobs=2) as shared:
        _ = shared.confinement  # started before the clock does
        floor_started = time.perf_counter()
        shared.wait([shared.submit(exercise, text) for text in texts])
        floor = time.perf_counter() - floor_started
    per = elapsed / count
    figure = f"{per * 1000:.0f} ms per submission, a fresh sandbox each ({elapsed:.1f} s in all)"
    baseline = f"{floor / count * 1000:.0f} ms per submission in one shared sandbox"
    return Result("6. grading 200 submissions, 2 jobs", figure, baseline, elapsed / floor, "≤ 100 ms each", per <= 0.100)


# --- 9. a whole class: every student's every exercise -------------------------------------------


def bench_class(course: Path | None = None, students: int | None = None, loop_sample: int = 24) -> Result:
    """`grade-class` on N students × every exercise of the course, beside `attnpos check` run in a loop.

    N is $ATTNPOS_BENCH_STUDENTS (default 300). The loop runs `check` once per
    file, one after another, on ``loop_sample`` of the files (the same mix of
    right, wrong and unfinished answers); its time per file times the class's
    files, divided by the two jobs, is the aim, plus 10%.
    """
    from attnpos.lessons.course.loader import load_course

    students = students or int(os.environ.get("ATTNPOS_BENCH_STUDENTS", "300"))
    course = load_course()
    root = Path(tempfile.mkdtemp(prefix="attnpos-class-"))
    files = []
    for n in range(students):
        folder = root / f"s{n:03d}"
        folder.mkdir()
        for k, exercise in enumerate(course.exercises.values()):
            mistakes = sorted(exercise.mistakes.values())
            kind = (n + k) % 4
            text = exercise.starter if kind == 3 else mistakes[n % len(mistakes)] if kind == 2 and mistakes else exercise.solution
            path = folder / f"{exercise.id}.py"
            path.write_text(text)
            files.append((exercise.id, path))
    jobs = 2
    started = time.perf_counter()
    result = subprocess.run([PYTHON, "-m", "attnpos", "grade-class", str(root), "--jobs", str(jobs), "--json"], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["students"]) == students
    sample = files[:: max(1, len(files) // loop_sample)][:loop_sample]
    env = {**os.environ, "ATTNPOS_DATA_DIR": tempfile.mkdtemp(prefix="attnpos-loop-data-")}
    loop_started = time.perf_counter()
    for exercise_id, path in sample:
        subprocess.run([PYTHON, "-m", "attnpos", "check", exercise_id, str(path), "--json"], capture_output=True, env=env)
    per_loop = (time.perf_counter() - loop_started) / len(sample)
    shutil.rmtree(root)
    shutil.rmtree(env["ATTNPOS_DATA_DIR"])
    aim = per_loop * len(files) / jobs
    figure = f"{elapsed:.1f} s for {students} students × {len(course.exercises)} exercises ({len(files)} files, {elapsed / len(files) * 1000:.0f} ms each)"
    baseline = f"check in a loop: {per_loop * 1000:.0f} ms a file, so {per_loop * len(files):.0f} s, / {jobs} jobs = {aim:.0f} s"
    return Result(f"9. grade-class, {students} students, {jobs} jobs", figure, baseline, elapsed / aim, "≤ 1.1", elapsed <= 1.1 * aim)


# --- 8. `attnpos check` as a whole process -------------------------------------------------

# Where the time of one `attnpos check` goes, measured inside one process the way the command runs it.
CHECK_PHASES = """
import sys, time
started = time.perf_counter()
if len(sys.argv) > 2:
    from pathlib import Path
    from attnpos.lessons.course import scanner
    scanner.COURSE_ROOT = Path(sys.argv[2])
from attnpos.tui.main import _start_check
server = _start_check(["check"])  # as the command starts: its fork server first, its own NumPy with one BLAS thread
from attnpos.lessons.checker import open_checker
checker = open_checker(server=server)
t_server_started = time.perf_counter()
from attnpos.tui.cli import command_line, exercise_commands
t_imports = time.perf_counter()
course = command_line._exercise_course("constant-offset")
t_load = time.perf_counter()
from pathlib import Path
checking = checker.submit_file(course.exercises["constant-offset"], Path(sys.argv[1]))  # the judges imported meanwhile
t_submitted = time.perf_counter()
checker.confinement
t_ready = time.perf_counter()
verdict = checker.result(checking)
t_check = time.perf_counter()
import io
from rich.console import Console
exercise_commands.print_verdict(Console(file=io.StringIO()), verdict, Path(sys.argv[1]))
t_render = time.perf_counter()
warm = []
for _ in range(5):
    before = time.perf_counter()
    checker.check_file(course.exercises["constant-offset"], Path(sys.argv[1]))
    warm.append(time.perf_counter() - before)
checker.close()
print(t_imports - t_server_started, t_load - t_imports, t_submitted - t_load, t_ready - t_submitted, t_check - t_ready, t_render - t_check, sorted(warm)[2])
"""


def bench_cli_check(course: Path | None = None, runs: int = 21) -> Result:
    """`attnpos check constant-offset solution.py`, a whole process, beside `python -c "import numpy"` in the same run.

    21 pairs: one cold import's wall moves by a third from run to run here, and the ratio of two medians of 9 fell on
    either side of 2x for the same tree (resampling 81 pairs: 5 % to 95 % of the ratios from 1.65 to 2.04 with 9 pairs,
    1.72 to 1.97 with 21; docs/PERFORMANCE.md)."""
    solution = Path(tempfile.mkdtemp()) / "answer.py"
    solution.write_text((REPOSITORY / "lessons/content/exercises/constant-offset/solution.py").read_text())
    attnpos = [*attnpos_argv(course), "check", "constant-offset", str(solution)]
    env = {**os.environ, "XDG_DATA_HOME": tempfile.mkdtemp()}  # the check records progress: not in the user's
    checks, numpy, checks_cpu, numpy_cpu = [], [], [], []
    for _ in range(runs):  # interleaved, so both meet the same load
        wall, cpu = _timed(attnpos, env)
        checks.append(wall)
        checks_cpu.append(cpu)
        wall, cpu = _timed([PYTHON, "-c", "import numpy"])
        numpy.append(wall)
        numpy_cpu.append(cpu)
    interpreter = statistics.median(_timed([PYTHON, "-c", "pass"])[0] for _ in range(runs))
    course_argument = [] if course is None else [str(course)]
    phases = [
        [
            float(x)
            for x in subprocess.run(
                [PYTHON, "-c", CHECK_PHASES, str(solution), *course_argument], check=True, capture_output=True, text=True, env=env
            ).stdout.split()
        ]
        for _ in range(5)
    ]
    imports, load, judges, wait, check, render, warm = (statistics.median(p[i] for p in phases) * 1000 for i in range(7))
    check_time, floor = statistics.median(checks), statistics.median(numpy)
    check_cpu, floor_cpu = statistics.median(checks_cpu), statistics.median(numpy_cpu)
    return Result(
        "8. `attnpos check` on a correct answer, a whole process",
        f"median {check_time * 1000:.0f} ms, CPU {check_cpu * 1000:.0f} ms, its fork server's apart (interpreter {interpreter * 1000:.0f} ms; "
        f"imports {imports:.0f}, exercise {load:.0f}, the judges {judges:.0f}, then waiting for the server {wait:.0f}, the runs and judging {check:.0f}, "
        f"rendering {render:.0f} ms; a warm check under watch {warm:.0f} ms)",
        f"{floor * 1000:.0f} ms python -c 'import numpy' (CPU {floor_cpu * 1000:.0f} ms)",
        check_time / floor,
        "≤ 2×",
        check_time <= 2 * floor,
    )


def _timed(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """Seconds ``argv`` took to run, and the CPU seconds it used (not those of a process it left running)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


BENCHMARKS = {
    "frame": bench_first_frame,
    "check": bench_check,
    "page": bench_page,
    "grid": bench_grid,
    "memory": bench_memory,
    "grade": bench_grade,
    "playground": bench_playground,
    "cli-check": bench_cli_check,
    "class": bench_class,
}


# Run on the real course only: `attnpos serve` starts each session's app with the real course; a class of 30
# exercises a student is hours; the grid is one widget, with no course.
REAL_COURSE_ONLY = ("grid", "memory", "class")


def compile_package() -> None:
    """Write attnpos's bytecode, as `pip install` does (learners' scripts in exercises/ are content, some broken on purpose)."""
    for folder in ("core", "lessons", "tui"):
        compileall.compile_dir(REPOSITORY / folder, quiet=2, rx=re.compile(r"[/\\]exercises[/\\]"))


def main(argv: list[str]) -> int:
    chosen = argv or list(BENCHMARKS)
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    compile_package()
    lessons = int(os.environ.get("ATTNPOS_BENCH_LESSONS", "30"))
    grown = generated_course(lessons) if lessons and any(name not in REAL_COURSE_ONLY for name in chosen) else None
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start", flush=True)
    results = []
    for name in chosen:
        courses = [(None, "the course")] + ([(grown, f"{lessons} lessons")] if grown is not None and name not in REAL_COURSE_ONLY else [])
        for course, label in courses:
            result = BENCHMARKS[name](course)
            results.append(result)
            ratio = f"{result.ratio:.2f}×" if result.ratio is not None else "-"
            mark = "ok  " if result.ok else "MISS"
            print(f"{mark} {result.name} [{label}]\n     {result.figure}\n     baseline: {result.baseline}; ratio {ratio}; budget {result.budget}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end", flush=True)
    if grown is not None:
        shutil.rmtree(grown.parent)
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
