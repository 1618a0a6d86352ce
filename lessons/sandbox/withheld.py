"""What no learner process may read although it lies among the packages it imports: the course's own folder.

``attnpos.lessons`` ships the course as data (``content/``: every
exercise's ``solution.py``, right answers and mistakes, the why questions
with their answers, the lessons). A learner's script needs none of it: it
imports NumPy and ``attnpos.core``, and the learner process calls the
checker's reading and substitutes, all code outside ``content/``. An answer
that read a solution could raise it in an error message, and a class
report (Gradescope's ``results.json``) would carry it to the student.

Every layer that decides what a learner process reads withholds these
folders: Landlock grants the packages around them but not them
(:func:`.landlock.learner_rules`), bubblewrap mounts an empty read-only
tmpfs over them (:mod:`.launch`), and a pooled fork server does the same in
its own mount namespace (:mod:`.pool`).
"""

from __future__ import annotations

import importlib.util
import os

# Folders of attnpos.lessons that hold data, not code a run imports.
_DATA_FOLDERS = ("content",)


def withheld_folders() -> list[str]:
    """The real paths of the course folders learner processes must not read, wherever attnpos is installed."""
    spec = importlib.util.find_spec("attnpos.lessons")
    packages = (spec.submodule_search_locations or ()) if spec is not None else ()
    folders = {os.path.realpath(os.path.join(package, data)) for package in packages for data in _DATA_FOLDERS}
    return sorted(folder for folder in folders if os.path.isdir(folder))


def split_around(roots: set[str], withheld: list[str]) -> list[str]:
    """Paths that together cover everything under ``roots`` except the ``withheld`` folders (real paths).

    A root holding a withheld folder is replaced by its entries, down to
    the withheld folder's siblings, so an allow-list (Landlock) can grant
    the rest: a rule on a folder grants all beneath it. Roots inside a
    withheld folder are dropped.
    """
    covering: list[str] = []
    pending = sorted({os.path.realpath(root) for root in roots if os.path.exists(root)})
    while pending:
        path = pending.pop()
        if any(path == folder or path.startswith(folder + os.sep) for folder in withheld):
            continue
        if not any(folder.startswith(path.rstrip(os.sep) + os.sep) for folder in withheld):
            covering.append(path)
            continue
        with os.scandir(path) as entries:
            pending.extend(os.path.realpath(entry.path) for entry in entries)
    return sorted(set(covering))
