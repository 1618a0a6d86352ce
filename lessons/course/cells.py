"""Run a lesson's code block and capture what it prints.

Lesson code is course content, not learner code, so it runs in this process
(the app calls this from a worker thread). Its ``print`` is replaced by one
that writes to a buffer, so nothing reaches the terminal the app is drawing on.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import traceback
from collections.abc import Callable
from functools import lru_cache

from msgspec import Struct

CELL_FILENAME = "<lesson cell>"


class CellResult(Struct, frozen=True):
    output: str
    error: str | None = None  # one line: "ValueError: … (line 3)"

    @property
    def ok(self) -> bool:
        return self.error is None


def run_cell(source: str, on_output: Callable[[str], None] | None = None) -> CellResult:
    """Execute ``source`` in a fresh namespace; return its printed output or a one-line error.

    ``on_output`` is given everything printed so far after each print, so a
    cell that takes seconds (lesson 10 trains a head) shows its progress.
    """
    buffer = io.StringIO()

    def captured_print(*args, sep=" ", end="\n", file=None, flush=False):
        print(*args, sep=sep, end=end, file=buffer if file is None else file, flush=flush)
        if on_output is not None and file is None:
            on_output(buffer.getvalue())

    namespace = {"__name__": "__lesson__", "print": captured_print}
    try:
        exec(compile(source, CELL_FILENAME, "exec"), namespace)
    except Exception as error:  # noqa: BLE001 - any failure of a cell is shown, not raised
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == CELL_FILENAME]
        where = f" (line {frames[-1].lineno})" if frames else ""
        return CellResult(buffer.getvalue(), f"{type(error).__name__}: {error}{where}")
    return CellResult(buffer.getvalue())


class Helper(Struct, frozen=True):
    """A name a cell imports from attnpos.core, with the code behind it, so no helper stays hidden."""

    name: str
    module: str
    source: str  # the function's or class's source; for a constant, "NAME = value"


CORE_PACKAGE = "attnpos.core"


@lru_cache(maxsize=128)
def _cell_helpers(source: str) -> tuple[Helper, ...]:
    return tuple(_find_helpers(source))


def cell_helpers(source: str) -> list[Helper]:
    """The names ``source`` imports from attnpos.core with their code (read once per cell)."""
    return list(_cell_helpers(source))


def _find_helpers(source: str) -> list[Helper]:
    """The names ``source`` imports from attnpos.core (``from attnpos.core[.x] import a, b``), in order.

    A name's code is read where it is defined (``attention_output`` from attnpos.core is shown from
    attnpos.core.attention); a cell that does not parse has none.
    """
    try:
        # Plain ast.parse: no other thread of the app parses anything now (a learner's script is read in its own
        # sandboxed process), so no lock is needed against CPython 3.11's ast recursion-count race.
        tree = ast.parse(source)
    except SyntaxError:
        return []
    helpers: list[Helper] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[:2] == CORE_PACKAGE.split(".")):
            continue
        module = importlib.import_module(node.module)
        for alias in node.names:
            value = getattr(module, alias.name, None)
            if value is None or any(h.name == alias.name for h in helpers):
                continue
            if inspect.isfunction(value) or inspect.isclass(value):
                helpers.append(Helper(alias.name, value.__module__, inspect.getsource(value).rstrip()))
            else:
                helpers.append(Helper(alias.name, node.module, f"{alias.name} = {value!r}"))
    return helpers
