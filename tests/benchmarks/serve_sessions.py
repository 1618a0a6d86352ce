"""A classroom on one host: real browser sessions of `attnpos serve`, each driven to a check, at 1, 10 and 50 at once.

    python tests/benchmarks/serve_sessions.py              # 1, 10 and 50 sessions
    python tests/benchmarks/serve_sessions.py 1 10 --keys 20

For each count, one `attnpos serve` (a fresh sessions folder) gets that many
new browsers at once, as a class opening the course together. Each session
loads the page at the constant-offset exercise (``?open=constant-offset``,
an instructor's link), opens the websocket as textual-serve's page does,
waits for the exercise's editor, types a right answer, checks it with f5
(the check's key under serve) and waits for the verdict. Then, every session
open, it measures:

* memory: the RSS and PSS (proportional set size: a page shared by n
  processes counts 1/n in each) summed over the server and all its
  descendants (each session's app, its sandbox's fork server), after the
  verdicts and at the peak sampled every second while the sessions started
  and checked; per session is the sum less the idle server, divided by the count;
* keystroke round trip: every session at once presses down and up in turn
  (the why question that follows a pass: each key moves its selection), a
  key every ``--think`` seconds, timing each from sending the key to the
  first bytes of the screen update that answers it.

Not part of `pytest`: it takes minutes and measures a shared machine. The
sessions come from loopback, which the per-client cap does not count (SSH
tunnels all arrive from it), and 50 is within the default total of 64, so
the server runs as an operator runs it, with no limit changed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from browser_tab import BrowserSession, close_tab, free_port, open_tab, pass_constant_offset  # noqa: E402

DOWN, UP = "\x1b[B", "\x1b[A"
EXERCISE = "constant-offset"
SESSION_TIMEOUT_S = 600  # each step's wait: fifty apps starting at once on two busy cores take minutes, not seconds
HOST_MIB = 4096
COLUMNS = (
    "sessions",
    "processes",
    "RSS, all",
    "PSS, all",
    "PSS per session",
    "peak PSS",
    "exercise drawn, median / max",
    "verdict, median / max (sessions with one)",
    "key round trip, median / p95 / max",
    "load average (1 min): before / peak / after",
)
SYSTEM_MIB = 512  # what a 4 GiB host keeps for its kernel, page cache and services


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo += [int(child) for child in children.read().split()]
        except OSError:  # it exited meanwhile
            continue
    return found


def memory_kib(pid: int) -> tuple[int, int, int]:
    """RSS and PSS in KiB summed over ``pid``'s tree, and the number of processes in it."""
    rss = pss = 0
    processes = tree(pid)
    for process in processes:
        try:
            with open(f"/proc/{process}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            continue
    return rss, pss, len(processes)


class PeakSampler(threading.Thread):
    """The tree's largest PSS (with its RSS) and the largest one-minute load average, sampled every second."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.stopped = pid, threading.Event()
        self.peak_pss = self.peak_rss = 0
        self.peak_load = 0.0

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            rss, pss, _ = memory_kib(self.pid)
            if pss > self.peak_pss:
                self.peak_pss, self.peak_rss = pss, rss
            self.peak_load = max(self.peak_load, os.getloadavg()[0])


async def one_session(base: str) -> tuple[BrowserSession, float, float | None]:
    """A new browser driven to a pass; the tab, and seconds to the exercise drawn and to the verdict (None: it never came)."""
    started = time.monotonic()
    tab = await open_tab(base, start=EXERCISE)  # an instructor's link to the exercise
    await tab.until("your answer", SESSION_TIMEOUT_S)  # the editor's title: the exercise screen is up
    drawn = time.monotonic() - started
    try:
        await pass_constant_offset(tab, SESSION_TIMEOUT_S)
    except AssertionError as stuck:  # reported and counted, so one stuck session does not hide the others' figures
        print(f"a session never reached its verdict: {stuck}", file=sys.stderr)
        return tab, drawn, None
    return tab, drawn, time.monotonic() - started


async def keystrokes(tab: BrowserSession, count: int, think_s: float) -> list[float]:
    """Round trips in ms of ``count`` keys, each moving the why question's selection."""
    times = []
    for index in range(count):
        sent = time.monotonic()
        await tab.type(DOWN if index % 2 == 0 else UP)
        await tab.next_frame(SESSION_TIMEOUT_S)
        times.append((time.monotonic() - sent) * 1000)
        await tab.quiet(think_s)
    return times


async def measure(count: int, keys: int, think_s: float, folder: Path) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "attnpos", "serve", "--port", str(port), "--sessions-dir", str(folder / f"sessions-{count}")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    tabs: list[BrowserSession] = []
    try:
        while True:
            try:
                (await asyncio.open_connection("127.0.0.1", port))[1].close()
                break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit("attnpos serve did not start") from None
                await asyncio.sleep(0.1)
        await asyncio.sleep(1)
        _, idle_pss, _ = memory_kib(server.pid)
        sampler = PeakSampler(server.pid)
        sampler.start()
        load_before = os.getloadavg()[0]
        sessions = await asyncio.gather(*(one_session(base) for _ in range(count)))
        tabs = [tab for tab, _, _ in sessions]
        passed = [tab for tab, _, verdict in sessions if verdict is not None]
        await asyncio.gather(*(tab.quiet(1.0) for tab in tabs))
        rss, pss, processes = memory_kib(server.pid)
        round_trips = sorted(sum(await asyncio.gather(*(keystrokes(tab, keys, think_s) for tab in passed)), []))
        sampler.stopped.set()
        sampler.join()
        return {
            "count": count,
            "processes": processes,
            "first_frame_s": [drawn for _, drawn, _ in sessions],
            "verdict_s": [verdict for _, _, verdict in sessions if verdict is not None],
            "rss_mib": rss / 1024,
            "pss_mib": pss / 1024,
            "idle_pss_mib": idle_pss / 1024,
            "peak_pss_mib": sampler.peak_pss / 1024,
            "per_session_pss_mib": (pss - idle_pss) / 1024 / count,
            "round_trips_ms": round_trips,
            "load": (load_before, sampler.peak_load, os.getloadavg()[0]),
        }
    finally:
        for tab in tabs:
            await close_tab(tab)
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    memory = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal:"))
    return f"{model}, {os.cpu_count()} cores, {memory / 1024 / 1024:.1f} GiB, Linux {platform.release()}, Python {platform.python_version()}"


def spread(values: list[float], form: str, unit: str, p95: bool = False) -> str:
    """Median (95th percentile) and max of ``values`` as a table cell; "none" when there are none."""
    if not values:
        return "none"
    ordered = sorted(values)
    shown = [statistics.median(ordered)] + ([ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]] if p95 else []) + [ordered[-1]]
    return " / ".join(format(value, form) for value in shown) + f" {unit}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", type=int, default=[1, 10, 50], help="sessions at once, one run each (default 1 10 50)")
    parser.add_argument("--keys", type=int, default=20, help="keys each session presses (default 20)")
    parser.add_argument("--think", type=float, default=0.3, help="seconds without output before a session's next key (default 0.3)")
    args = parser.parse_args(argv)
    if any(count < 1 for count in args.counts) or args.keys < 1 or args.think <= 0:
        parser.error("counts and --keys must be at least 1, --think above 0")
    print(f"machine: {machine()}")
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + " --- |" * len(COLUMNS))
    results = []
    with tempfile.TemporaryDirectory(prefix="attnpos-classroom-") as folder:
        for count in args.counts:
            result = asyncio.run(measure(count, args.keys, args.think, Path(folder)))
            results.append(result)
            trips, drawn, verdict = result["round_trips_ms"], result["first_frame_s"], result["verdict_s"]
            print(
                f"| {count} | {result['processes']} | {result['rss_mib']:.0f} MiB | {result['pss_mib']:.0f} MiB | {result['per_session_pss_mib']:.1f} MiB"
                f" | {result['peak_pss_mib']:.0f} MiB | {spread(drawn, '.1f', 's')} | {spread(verdict, '.1f', 's')} ({len(verdict)})"
                f" | {spread(trips, '.0f', 'ms', p95=True)} ({len(trips)} keys)"
                f" | {' / '.join(f'{load:.1f}' for load in result['load'])} |",
                flush=True,
            )
    largest = max(results, key=lambda result: result["count"])
    server_mib = largest["idle_pss_mib"]
    per_session = largest["per_session_pss_mib"]
    fits = int((HOST_MIB - SYSTEM_MIB - server_mib) / per_session)
    print(
        f"a {HOST_MIB // 1024} GiB host, {SYSTEM_MIB} MiB kept for the system and {server_mib:.0f} MiB for the server: "
        f"{fits} sessions at {per_session:.1f} MiB each (PSS per session at {largest['count']} sessions)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
