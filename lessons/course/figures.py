"""Named figures: every number and matrix a lesson quotes, computed from attnpos.core.

A lesson writes ``{{offset.gap:.2f}}`` in its prose or names a matrix in a
``{grid}`` block; the loader looks the name up here. Nothing is typed into
the text, so the prose cannot drift from what the code computes.

Each lesson folder lists its own experiments and figures in
``NN-slug/figures.py`` (``EXPERIMENTS`` and ``FIGURES``, tuples of the types
below); this module finds those lists in the course folder
(``scanner.COURSE_ROOT``), loads each file by path (a folder name has
hyphens, so it is no package) and keeps the machinery: the types, lookup,
caching and the helpers several lessons share. A figure has one home, the
lesson that introduces it; any lesson may quote it by name. Experiments run
once per process and are cached.
"""

from __future__ import annotations

import importlib.util
import traceback
from functools import cache
from pathlib import Path
from typing import Any, Callable

import numpy as np
from msgspec import Struct

from attnpos.core.experiments import ORDER_B_PERM
from attnpos.core.words import SENTENCE_A, label_tokens
from attnpos.lessons.course.scanner import LESSON_FOLDER, content_dir

COLUMN_LABEL = 2  # a heat map's column is two cells wide, so its label is at most two characters
FIGURES_FILE = "figures.py"  # beside a lesson's lesson.md: its experiments and figures


class Figure(Struct, frozen=True):
    """One quotable figure: its value, what it means, and for matrices the row/column labels."""

    name: str
    meaning: str
    compute: Callable[[], Any]
    labels: Callable[[], list[str]] | None = None  # for (T, T) matrices shown as grids
    tokens: Callable[[], list[int]] | None = None  # a reordered grid: which of the first order's tokens each row holds
    columns: Callable[[], list[str]] | None = None  # for heat maps: a label of at most COLUMN_LABEL characters per column

    @property
    def value(self) -> Any:
        return _value(self)

    def column_labels(self) -> list[str]:
        """A heat map's column labels: the figure's own, else 0, 1, 2, …."""
        return self.columns() if self.columns else [str(j) for j in range(self.value.shape[1])]

    @property
    def is_matrix(self) -> bool:
        return isinstance(self.value, np.ndarray) and self.value.ndim == 2


class Experiment(Struct, frozen=True):
    """One experiment of a lesson: a short key, the title `attnpos demos` shows, and the function of core/ that runs it."""

    key: str
    title: str
    run: Callable[[], object]  # returns a dataclass of its figures


class Registry(Struct, frozen=True):
    """Every lesson folder's experiments and figures, and what is wrong with those lists."""

    figures: dict[str, Figure]
    experiments: dict[str, Experiment]  # in course order: lesson by lesson, as each lists them
    problems: tuple[tuple[Path, int, str], ...]  # (file, line, message), reported by the loader


_stamps: dict[Path, tuple[tuple[str, int, int], ...]] = {}  # per course folder: its lists as last read


def registry() -> Registry:
    """The registry of the course folder now in use (read at each call, as COURSE_ROOT is)."""
    root = content_dir().resolve()
    if root not in _stamps:
        _stamps[root] = _stamp(root)
    return _registry(root, _stamps[root])


def refresh() -> None:
    """Read the lesson folders' lists again if one changed since (the loader calls it, so an edit shows at the next load)."""
    root = content_dir().resolve()
    _stamps[root] = _stamp(root)


def _stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    files = sorted(root.glob(f"*/{FIGURES_FILE}"))
    return tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files)


@cache
def _registry(root: Path, stamp: tuple[tuple[str, int, int], ...]) -> Registry:  # stamp: part of the cache key only
    figures: dict[str, Figure] = {}
    experiments: dict[str, Experiment] = {}
    homes: dict[tuple[str, str], Path] = {}  # (kind, name) -> the figures.py that registers it
    problems: list[tuple[Path, int, str]] = []

    def register(path: Path, kind: str, name: str) -> bool:
        if (kind, name) in homes:
            problems.append((path, 1, f"{kind} {name!r} is also registered in {homes[kind, name].parent.name}/{FIGURES_FILE}"))
            return False
        homes[kind, name] = path
        return True

    for path in sorted(root.glob(f"*/{FIGURES_FILE}")):
        if not LESSON_FOLDER.fullmatch(path.parent.name):
            continue  # the loader reports a misnamed lesson folder
        lists = _lesson_lists(path, problems)
        if lists is None:
            continue
        experiments.update((e.key, e) for e in lists[0] if register(path, "experiment", e.key))
        figures.update((f.name, f) for f in lists[1] if register(path, "figure", f.name))
    return Registry(figures, experiments, tuple(problems))


def _lesson_lists(path: Path, problems: list[tuple[Path, int, str]]) -> tuple[tuple[Experiment, ...], tuple[Figure, ...]] | None:
    """(EXPERIMENTS, FIGURES) of one lesson's figures.py, run by path; None, with a problem, when it cannot say."""
    spec = importlib.util.spec_from_file_location(f"attnpos_lesson_{path.parent.name.replace('-', '_')}", path)
    assert spec is not None and spec.loader is not None  # a .py path always has a source loader
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # a writer's mistake in a lesson's list is reported at its line, like any in lesson.md
        problems.append((path, _error_line(error, path), f"{FIGURES_FILE} fails: {type(error).__name__}: {error}"))
        return None
    experiments, figures = getattr(module, "EXPERIMENTS", None), getattr(module, "FIGURES", None)
    if not isinstance(experiments, (tuple, list)) or not isinstance(figures, (tuple, list)):
        problems.append((path, 1, f"{FIGURES_FILE} defines EXPERIMENTS and FIGURES, each a tuple (empty when the lesson has none)"))
        return None
    wrong = [entry for entry in experiments if not isinstance(entry, Experiment)] + [entry for entry in figures if not isinstance(entry, Figure)]
    if wrong:
        problems.append((path, 1, f"{FIGURES_FILE}: EXPERIMENTS holds Experiment entries and FIGURES Figure entries, not {wrong[0]!r}"))
        return None
    return tuple(experiments), tuple(figures)


def _error_line(error: Exception, path: Path) -> int:
    if isinstance(error, SyntaxError) and error.filename == str(path):
        return error.lineno or 1
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(path)]
    return (lines[-1] or 1) if lines else 1


def experiments() -> dict[str, Experiment]:
    """Every experiment of the course by key, lesson by lesson (`attnpos demos` runs them all)."""
    return registry().experiments


def result(key: str) -> Any:
    """The result of the experiment ``key``, whichever lesson registers it, computed once per process."""
    try:
        run = registry().experiments[key].run
    except KeyError:
        raise KeyError(f"unknown experiment {key!r}") from None
    return _result(run)


@cache
def _result(run: Callable[[], object]) -> Any:
    return run()  # keyed by core's function, so a course copied elsewhere (a test's) reuses what is computed


@cache
def _value(figure: Figure) -> Any:
    return figure.compute()


def figure(name: str) -> Figure:
    """The figure called ``name``; KeyError names the unknown figure."""
    try:
        return registry().figures[name]
    except KeyError:
        raise KeyError(f"unknown figure {name!r}") from None


def format_figure(name: str, spec: str = "") -> str:
    """The figure's value formatted with a Python format spec (``.2f``, ``.1e``, empty for str())."""
    value = figure(name).value
    if isinstance(value, np.ndarray):
        return np.array2string(value, precision=3)
    if spec:
        return format(value, spec)
    return str(value)


# --- what several lessons' figures share ---------------------------------------------


def rows(values: np.ndarray, fmt: str = ".3f") -> str:
    """Values as one line of text, comma-separated."""
    return ", ".join(format(float(v), fmt) for v in values)


def sentence_labels() -> list[str]:
    """Row labels of lesson 3's sentence, order A: the₀ cat sat on the₄ mat."""
    return label_tokens(list(SENTENCE_A))


def order_b_labels() -> list[str]:
    """Order A's labels relisted: a token keeps its name (the₄ stays the₄ in slot 5), as in the playground."""
    labels = sentence_labels()
    return [labels[i] for i in ORDER_B_PERM]


def order_b_perm() -> list[int]:
    return [int(i) for i in ORDER_B_PERM]


def token_labels(count: int) -> Callable[[], list[str]]:
    """x0, x1, …: the labels of ``count`` token slots."""
    return lambda: [f"x{i}" for i in range(count)]


def positions(count: int) -> Callable[[], list[str]]:
    """t0, t1, …: the labels of ``count`` positions."""
    return lambda: [f"t{t}" for t in range(count)]


def channels(count: int) -> Callable[[], list[str]]:
    return lambda: [str(c) for c in range(count)]


CHANGED_ROW = 0.05  # a row whose largest weight moved by more than this counts as changed


def changed_rows(before: np.ndarray, after: np.ndarray) -> frozenset[int]:
    """Rows of two (T, T) weight matrices whose largest weight moved by more than CHANGED_ROW."""
    moved = np.max(np.abs(after - before), axis=1)
    return frozenset(int(i) for i in np.flatnonzero(moved > CHANGED_ROW))
