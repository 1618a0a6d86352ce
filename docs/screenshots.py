"""Make the README's pictures from the current app: `python docs/screenshots.py` (needs rsvg-convert).

Each picture is the app driven by keys at 80×24, saved by Textual as SVG and
turned into PNG. Two things keep the PNG faithful to the terminal: the SVG is
told to keep its spaces (xml:space="preserve"; without it librsvg drops the
space at the start of a highlighted token, so "import numpy as np" read
"importnumpy  asnp"), and it names a monospace font installed here instead of
Fira Code, which Textual's SVG loads from the web.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

DOCS = Path(__file__).resolve().parent
SIZE = (80, 24)
FONT = '"DejaVu Sans Mono", "Liberation Mono", monospace'  # one of these is on most Linux machines


def faithful(svg: str) -> str:
    """The SVG with its spaces kept and a local monospace font (see the module docstring)."""
    svg = svg.replace("<svg ", '<svg xml:space="preserve" ', 1)
    return svg.replace("font-family: Fira Code, monospace;", f"font-family: {FONT};")


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def on_outline(pilot) -> None:
    await pilot.press("down")


async def on_grid(pilot) -> None:
    await pilot.press("g", "down", "right", "right")


async def after_a_check(pilot) -> None:
    from textual.widgets import TextArea

    exercise = pilot.app.course.exercises["constant-offset"]
    wrong = (exercise.folder / "mistakes" / "wrong-comparison__not-reordered.py").read_text(encoding="utf-8")
    pilot.app.screen.query_one("#editor", TextArea).load_text(wrong)
    await pilot.press("ctrl+t")


async def shuffled_with_the_ramp(pilot) -> None:
    await pilot.press("s", "g", "g")


def grid_section() -> tuple[int, int]:
    """Lesson 1's first section with a pair of grids: the shuffle, relisted."""
    from attnpos.lessons.course.loader import load_course
    from attnpos.lessons.course.model import Grid

    lesson = load_course().lesson(1)
    return 1, next(i for i, s in enumerate(lesson.sections) if any(isinstance(b, Grid) and b.compare for b in s.blocks))


# name -> (what the app opens on, extra environment, keys after it settles)
Scene = tuple[dict, dict[str, str], Callable[..., Awaitable[None]]]


def scenes() -> dict[str, Scene]:
    return {
        "outline": ({}, {}, on_outline),
        "grid_in_colour": ({"start": grid_section()}, {}, on_grid),
        "grid_without_colour": ({"start": grid_section()}, {"NO_COLOR": "1"}, on_grid),
        "exercise": ({"start": "constant-offset"}, {}, after_a_check),
        "playground": ({"play": "the cat sat on the mat"}, {}, shuffled_with_the_ramp),
    }


async def shoot(name: str, scene: Scene, data_dir: Path) -> Path:
    from attnpos.tui.app.course_app import AttnposApp

    options, env, keys = scene
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)  # read when the app is made (NO_COLOR)
    try:
        app = AttnposApp(data_dir=data_dir / name, **options)
        app.animation_level = "none"
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await keys(pilot)
            await settle(pilot)
            svg = DOCS / f"{name}.svg"
            svg.write_text(faithful(app.export_screenshot(title="attnpos")), encoding="utf-8")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    png = DOCS / f"{name}.png"
    subprocess.run(["rsvg-convert", str(svg), "-o", str(png)], check=True)
    svg.unlink()
    return png


async def main() -> int:
    if shutil.which("rsvg-convert") is None:
        print("screenshots.py needs rsvg-convert (librsvg2-bin)", file=sys.stderr)
        return 1
    os.environ.setdefault("COLORTERM", "truecolor")  # the colour pictures in 24-bit colour, as most terminals
    os.environ.pop("NO_COLOR", None)
    with tempfile.TemporaryDirectory(prefix="attnpos-shots-") as folder:  # a fresh learner for every picture
        for name, scene in scenes().items():
            print(await shoot(name, scene, Path(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
