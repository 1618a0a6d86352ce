"""`attnpos demos`: every experiment of the course, printed without the app."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table

from attnpos.lessons.course.figures import experiments


def _plain(value):
    """A dataclass field as JSON-ready data: arrays become nested lists."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _shown(value) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, precision=3, suppress_small=True, max_line_width=60)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def run_all() -> dict[str, dict]:
    """Run every experiment the lesson folders register: {key: {"title": …, "figures": {field: value}}}."""
    results = {}
    for key, experiment in experiments().items():
        result = experiment.run()
        assert dataclasses.is_dataclass(result)  # every experiment returns a dataclass of its figures
        results[key] = {
            "title": experiment.title,
            "figures": {f.name: getattr(result, f.name) for f in dataclasses.fields(result)},
        }
    return results


def as_json(results: dict[str, dict]) -> str:
    return json.dumps(
        {key: {"title": r["title"], "figures": {k: _plain(v) for k, v in r["figures"].items()}} for key, r in results.items()},
        indent=2,
    )


def print_demos(console: Console, results: dict[str, dict]) -> None:
    for key, r in results.items():
        table = Table(show_header=True, header_style="bold", expand=True, box=None)
        table.add_column("figure", style="cyan", no_wrap=True)
        table.add_column("value", overflow="fold")
        for name, value in r["figures"].items():
            table.add_row(name, _shown(value))
        console.print(Panel(Group(table), title=f"[bold]{key}[/]: {r['title']}", title_align="left"))
