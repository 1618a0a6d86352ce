"""The course glossary: lessons/content/glossary.toml read into typed terms.

Each meaning may quote figures (``{{alibi.window_steep:.0f}}``) and inline math
like lesson prose; problems are reported as ``file:line: message`` with the
lesson loader's own reporter.
"""

from __future__ import annotations

import sys
from pathlib import Path

from msgspec import Struct

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

GLOSSARY_NAME = "glossary.toml"  # beside the lessons' content folder


class Term(Struct, frozen=True):
    """One glossary entry and the lesson that teaches it."""

    term: str
    meaning: str
    lesson: int


def parse_glossary(path: Path, lessons: set[int], report, text) -> tuple[Term, ...]:
    """Terms from ``path``; ``report(line, message)`` collects problems, ``text(value, line)`` fills figures.

    The line of a term is that of its ``[[term]]`` header, so a problem points at the entry.
    """
    try:
        source = path.read_text(encoding="utf-8")
        data = tomllib.loads(source)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        report(1, f"cannot read the glossary: {error}")
        return ()
    headers = [number for number, line in enumerate(source.splitlines(), 1) if line.strip() == "[[term]]"]
    terms, seen = [], set()
    for index, entry in enumerate(data.get("term", [])):
        line = headers[index] if index < len(headers) else 1
        if not (isinstance(entry.get("term"), str) and isinstance(entry.get("meaning"), str) and isinstance(entry.get("lesson"), int)):
            report(line, "a glossary term needs 'term' and 'meaning' (strings) and 'lesson' (a lesson number)")
            continue
        if entry["term"] in seen:
            report(line, f"the glossary lists {entry['term']!r} twice")
        if entry["lesson"] not in lessons:
            report(line, f"{entry['term']!r} names lesson {entry['lesson']}, which the course does not have")
        seen.add(entry["term"])
        terms.append(Term(entry["term"], text(entry["meaning"], line), entry["lesson"]))
    if not terms:
        report(1, "the glossary has no [[term]] entries")
    return tuple(terms)
