"""One checking engine: the sandbox (or a pool of fresh ones), its limits, one executor, and waiting Ctrl+C stops.

Every route that runs learner code asks a :class:`Checker` from
:func:`open_checker`: the app (through its Session), ``attnpos check`` and
``watch``, ``grade`` and ``grade-class``, the ``%attnpos`` magic, ``serve``'s
strict probe and ``lessons --check``. A check is its runs (the script as
written and once per rerun of its contract), all at once in the sandbox,
each a task of the checker's one executor; the thread that ran the last of
them judges them all. At most ``jobs`` checks go at once; the others wait
their turn, in order.

No learner source is parsed here, nor in any thread of the app: each run's
request says how the learner process is to read its own script
(:func:`.judging.plan`), and it does so, confined, before the script runs.

Waiting, cancelling and closing are here and nowhere else. The kernel may
hand SIGINT to any thread that does not block it, and a main thread blocked
with no timeout is then never woken to raise KeyboardInterrupt (a check once
went on, uninterrupted, for its whole time limit), so :meth:`Checker.wait`
wakes every :data:`INTERRUPT_POLL_S`; Ctrl+C then cancels everything the
checker runs, at once.

Nothing here imports NumPy: ``attnpos check`` starts its fork server first
(:mod:`.server_start`) and opens its checker on it, before it imports NumPy
and the judges, so that the two overlap (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from msgspec import Struct

from attnpos.lessons.checker.plans import Plan, keep_plan, kept_plan
from attnpos.lessons.checker.server_start import PRELOAD, RUNS_PER_CHECK, runs_at_once
from attnpos.lessons.sandbox import (
    CancelToken,
    ConfinementUnavailable,
    Limits,
    Reading,
    RunResult,
    Sandbox,
    decode_answer,
    read_script,
    refuse_if_too_large,
)

if TYPE_CHECKING:
    from attnpos.lessons.checker.verdicts import ExerciseSpec, Verdict
    from attnpos.lessons.sandbox.launch import Spawned
    from attnpos.lessons.sandbox.pool import SandboxPool

# How often a waiting thread looks for Ctrl+C (see the module's docstring).
INTERRUPT_POLL_S = 0.1
# Imported at a process's first check: a check before it is cold (:mod:`.plans`).
_JUDGING = "attnpos.lessons.checker.judging"

T = TypeVar("T")
# One run of a check in a given sandbox: the names it reads back, its limits, its cancel token, its reading, and
# the list its wait for the run's clean-up joins (the sandbox's ``clean_up``).
RunInSandbox = Callable[[Sandbox, Sequence[str], Limits, CancelToken, Reading, list[Callable[[], None]]], RunResult]


def open_checker(
    *,
    strict: bool | None = None,
    jobs: int = 1,
    limits: Limits | None = None,
    fresh_sandbox_per_check: bool = False,
    server: Spawned | None = None,
) -> Checker:
    """A checker whose fork server starts now (its process in this thread; the checker's executor waits until it is
    ready), or the pool's warm parent (in the executor).

    ``strict`` as for :class:`Sandbox` (None: ``ATTNPOS_STRICT=1``); its
    refusal (:class:`ConfinementUnavailable`) is raised where the checker is
    first waited on (a check, a run, :attr:`Checker.confinement`). ``jobs``:
    checks at once, each with its runs side by side, so the sandbox and the
    executor have :func:`runs_at_once` workers. ``limits``: what each run may use, unless a check says
    otherwise. ``fresh_sandbox_per_check``: every check in a sandbox of its
    own, forked from one warm parent (grading: nothing one file's runs leave
    behind reaches another's). ``server``: its fork server's process, started
    already (:func:`.server_start.start_server`), which the sandbox adopts if it is
    the one it would start (else stops it unused).
    """
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if fresh_sandbox_per_check:
        from attnpos.lessons.sandbox.pool import SandboxPool  # its fork server's code brings NumPy

        if server is not None:
            server.abandon(wait=False)  # a pool forks its servers from a warm parent of its own

        return Checker(SandboxPool(strict=strict, preload=PRELOAD, jobs=jobs, workers=RUNS_PER_CHECK), jobs, limits or Limits())
    return Checker(Sandbox(max_workers=runs_at_once(jobs), preload=PRELOAD, strict=strict, spawned=server), jobs, limits or Limits())


class _Check(Struct, frozen=True):
    """A check waiting its turn or going on: its runs (the first, then each rerun) and the verdict they will give."""

    exercise: ExerciseSpec
    names: tuple[str, ...]  # what each run reads back
    runs: tuple[Callable[[Sandbox], RunResult], ...]
    token: CancelToken
    verdict: Future[Verdict]
    clean_ups: list[Callable[[], None]]  # each run's wait for its supervisor to remove its folder and exit


class Checker:
    """The sandbox (or pool) learner code runs in, its limits, and the one executor every run goes through.

    Thread-safe; a context manager (leaving it closes the checker, without
    waiting when an exception is on its way out).
    """

    def __init__(self, runner: Sandbox | SandboxPool, jobs: int, limits: Limits) -> None:
        self.limits = limits
        self._runner = runner
        self._pool = None if isinstance(runner, Sandbox) else runner  # a sandbox of its own for each check
        self._jobs = jobs
        self._executor = ThreadPoolExecutor(max_workers=runs_at_once(jobs), thread_name_prefix="checker")
        self._lock = threading.Lock()
        self._checks_going = 0
        self._waiting: deque[_Check] = deque()
        self._tokens: list[CancelToken] = []  # of every check and run not yet ended (a caller may share one between checks)
        self._closed = False
        if isinstance(runner, Sandbox):
            runner.spawn()  # the server's process starts now, in this thread; the executor waits for it to be ready
        self._started = self._executor.submit(runner.start)

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.close(wait=kind is None)

    @property
    def confinement(self) -> dict:
        """The confinement of this checker's runs (a pool's: its latest forked server's, else the warm parent's)."""
        self.wait([self._started])
        self._refused()
        if self._pool is not None:
            return dict(self._pool.forked_confinement) or self._pool.confinement
        return self._runner.confinement

    # --- checks and runs

    def submit(
        self,
        exercise: ExerciseSpec,
        source: str,
        *,
        filename: str = "answer.py",
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
    ) -> Future[Verdict]:
        """Check ``source``, run under the name ``filename``; the verdict comes in the future.

        A failure of the checker's own is a ``checker-error`` verdict; the
        future raises only :class:`ConfinementUnavailable`. Raises
        :class:`ScriptRefused` at once for a script over the size limit.
        ``cancel`` stops this check's runs (they end "cancelled").
        """
        refuse_if_too_large(len(source.encode("utf-8")), filename)

        def run(sandbox: Sandbox, names: Sequence[str], limits: Limits, token: CancelToken, reading: Reading, clean_up: list[Callable[[], None]]) -> RunResult:
            return sandbox.run_source(source, names, limits, filename, token, reading, clean_up)

        return self._submit(exercise, limits, cancel, run, run)

    def submit_file(
        self,
        exercise: ExerciseSpec,
        path: Path,
        *,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
    ) -> Future[Verdict]:
        """Check the answer file at ``path``, read once, now, never through a symbolic link.

        Raises :class:`ScriptRefused` (a link, not a plain file, too large),
        OSError (unreadable) or UnicodeDecodeError (not text as Python reads
        source, :func:`decode_answer`): the file, not the learner's code, is at
        fault. Like :meth:`submit` otherwise.
        """
        data = read_script(path)
        source = decode_answer(data)

        def first(
            sandbox: Sandbox, names: Sequence[str], limits: Limits, token: CancelToken, reading: Reading, clean_up: list[Callable[[], None]]
        ) -> RunResult:
            return sandbox.run_bytes(data, path, names, limits, token, reading, clean_up)

        def rerun(
            sandbox: Sandbox, names: Sequence[str], limits: Limits, token: CancelToken, reading: Reading, clean_up: list[Callable[[], None]]
        ) -> RunResult:
            return sandbox.run_source(source, names, limits, Path(path).name, token, reading, clean_up)

        return self._submit(exercise, limits, cancel, first, rerun)

    def check(
        self,
        exercise: ExerciseSpec,
        source: str,
        *,
        filename: str = "answer.py",
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
    ) -> Verdict:
        """:meth:`submit`, waited for as :meth:`wait` waits."""
        return self.result(self.submit(exercise, source, filename=filename, limits=limits, cancel=cancel))

    def check_file(
        self,
        exercise: ExerciseSpec,
        path: Path,
        *,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
    ) -> Verdict:
        """:meth:`submit_file`, waited for as :meth:`wait` waits."""
        return self.result(self.submit_file(exercise, path, limits=limits, cancel=cancel))

    def run(
        self,
        source: str,
        *,
        filename: str,
        names: Sequence[str] = (),
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
    ) -> RunResult:
        """Run learner code that is no answer to check (the exercise screen's Run, a lesson cell the learner edited)."""
        token = cancel or CancelToken()
        self._track(token)

        def run() -> RunResult:
            self._refused()
            sandbox = self._sandbox_for_one()
            try:
                return sandbox.run_source(source, names, limits or self.limits, filename, token)
            finally:
                self._done_with(sandbox)

        future = self._executor.submit(run)
        future.add_done_callback(lambda _: self._forget(token))
        return self.result(future)

    # --- waiting, cancelling, closing

    def wait(self, futures: Iterable[Future[T]]) -> None:
        """Wait until every future is done, waking every :data:`INTERRUPT_POLL_S` for Ctrl+C.

        Anything raised meanwhile (KeyboardInterrupt) cancels every check and
        run of this checker, drops the checks waiting their turn, and propagates.
        """
        pending = set(futures)
        try:
            while pending:
                _, pending = wait_for(pending, timeout=INTERRUPT_POLL_S)
        except BaseException:
            self.cancel()
            raise

    def result(self, future: Future[T]) -> T:
        """The future's result, waited for as :meth:`wait` waits."""
        self.wait([future])
        return future.result()

    def cancel(self) -> None:
        """Stop everything this checker runs: runs going on end "cancelled", checks waiting their turn never start."""
        with self._lock:
            waiting, self._waiting = list(self._waiting), deque()
            for check in waiting:
                self._tokens.remove(check.token)
            tokens = list(self._tokens)
        for check in waiting:
            check.verdict.cancel()
        for token in tokens:
            token.cancel()

    def close(self, wait: bool = True) -> None:
        """Cancel what goes on and stop the sandbox (or the pool); nothing can be checked after.

        ``wait``: for the executor's threads and the fork server to end and its
        cgroup to be removed. Without (Ctrl+C, or a command about to exit), the
        server exits by itself once its control socket is closed, and the next
        start sweeps what is left.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.cancel()
        self._executor.shutdown(wait=wait, cancel_futures=True)
        self._runner.close(wait=wait)

    # --- inside

    def _submit(
        self,
        exercise: ExerciseSpec,
        limits: Limits | None,
        cancel: CancelToken | None,
        first: RunInSandbox,
        rerun: RunInSandbox,
    ) -> Future[Verdict]:
        # A cold check (the judges not imported yet) starts by the plan kept from the last one (lessons/checker/plans.py),
        # and imports the judges while its runs wait for the fork server.
        cold = _JUDGING not in sys.modules
        kept = kept_plan(exercise.contract) if cold else None
        provisional = None if kept is None else self._start_by(kept, exercise, limits, cancel, first, rerun)
        from attnpos.lessons.checker.judging import plan  # NumPy and the judges: at the first check, not at opening

        planned = plan(exercise)
        if provisional is not None and planned == kept:
            return provisional
        if cold:
            keep_plan(exercise.contract, planned)
        # A provisional check's runs end as they would (its verdict is dropped), and this one waits its turn.
        return self._start_by(planned, exercise, limits, cancel, first, rerun)

    def _start_by(
        self,
        planned: Plan,
        exercise: ExerciseSpec,
        limits: Limits | None,
        cancel: CancelToken | None,
        first: RunInSandbox,
        rerun: RunInSandbox,
    ) -> Future[Verdict]:
        """Start (or queue) the check of ``exercise`` that ``planned`` makes."""
        token = cancel or CancelToken()
        run_limits = limits or self.limits

        clean_ups: list[Callable[[], None]] = []

        def one_run(run: RunInSandbox, reading: Reading) -> Callable[[Sandbox], RunResult]:
            return lambda sandbox: run(sandbox, planned.names, run_limits, token, reading, clean_ups)

        first_reading, *rerun_readings = planned.readings
        runs = (one_run(first, first_reading), *(one_run(rerun, reading) for reading in rerun_readings))
        check = _Check(exercise, planned.names, runs, token, Future(), clean_ups)
        self._track(token)
        with self._lock:
            start = self._checks_going < self._jobs
            if start:
                self._checks_going += 1
            else:
                self._waiting.append(check)
        if start:
            check.verdict.set_running_or_notify_cancel()  # new, so never cancelled yet
            self._start(check)
        return check.verdict

    def _start(self, check: _Check) -> None:
        """Start every run of ``check`` at once; the last to end judges them, hands over the sandbox and the slot."""
        from attnpos.lessons.checker.judging import judge

        sandbox = self._sandbox_for_one()
        futures: list[Future[RunResult]] = []
        left = [len(check.runs)]

        def run_ended(_: Future[RunResult]) -> None:
            with self._lock:
                left[0] -= 1
                if left[0]:
                    return
            first, *reruns = (_outcome(future, check.names) for future in futures)
            try:
                try:
                    verdict = judge(check.exercise, first, reruns)
                finally:  # the runs' folders were being removed while the judge worked: no verdict before they are gone
                    for wait in check.clean_ups:
                        wait()
                check.verdict.set_result(verdict)
            except BaseException as error:  # ConfinementUnavailable, ScriptRefused: the caller's to say
                check.verdict.set_exception(error)
            finally:
                self._done_with(sandbox)
                self._ended(check)

        for run in check.runs:
            futures.append(self._submit_run(run, sandbox))
        for future in futures:
            future.add_done_callback(run_ended)

    def _submit_run(self, run: Callable[[Sandbox], RunResult], sandbox: Sandbox) -> Future[RunResult]:
        def go() -> RunResult:
            self._refused()
            return run(sandbox)

        try:
            return self._executor.submit(go)
        except RuntimeError as closed:  # closed between this check's submitting and its start: a sandbox fault
            failed: Future[RunResult] = Future()
            failed.set_exception(closed)
            return failed

    def _ended(self, check: _Check) -> None:
        """``check`` is over: its slot goes to the next check waiting its turn that was not cancelled meanwhile."""
        self._forget(check.token)
        while True:
            with self._lock:
                if not self._waiting:
                    self._checks_going -= 1
                    return
                following = self._waiting.popleft()
            if following.verdict.set_running_or_notify_cancel():
                self._start(following)
                return
            self._forget(following.token)  # its caller cancelled it while it waited

    def _refused(self) -> None:
        """Wait for the start begun at opening; strict mode's refusal is raised again, never retried (the machine
        will not change). Another failure is left to the run, which starts a server itself."""
        failure = self._started.exception()
        if isinstance(failure, ConfinementUnavailable):
            raise failure

    def _sandbox_for_one(self) -> Sandbox:
        """The sandbox a check (or a run) goes in: the shared one, or a fresh one from the pool."""
        if self._pool is not None:
            return self._pool.sandbox()
        assert isinstance(self._runner, Sandbox)
        return self._runner

    def _done_with(self, sandbox: Sandbox) -> None:
        if self._pool is not None:
            sandbox.close()

    def _track(self, token: CancelToken) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the checker is closed")
            self._tokens.append(token)

    def _forget(self, token: CancelToken) -> None:
        with self._lock:
            self._tokens.remove(token)


def _outcome(run: Future[RunResult], names: tuple[str, ...]) -> Callable[[], RunResult]:
    """What gives the run's result (or raises the sandbox's failure); a run dropped before it started, as the
    checker closed, ended cancelled like one stopped while it ran."""
    if run.cancelled():
        return lambda: RunResult("cancelled", missing=names, detail="the run was cancelled before it started")
    return run.result
