"""The browser sessions of `attnpos serve`: tokens only the server issues, each naming a data folder it chose.

A session token is a random cookie value the server made and remembers; a
cookie it never issued names nothing, so a planted one gets a fresh session,
never the folder its name might suggest (folders are named by ids of their
own, never by a token). Every page load replaces the browser's token with a
new one for the same folder and forgets the old one: a token someone obtained
from this server and planted in a victim's browser (any page on the same host
name can set its cookies, whatever its port) stops working at the victim's
first page load, so the planter never sees what the victim does next.

Tokens whose folder holds saved progress are kept across restarts, by their
SHA-256 only, in ``SESSIONS/.tokens.json`` (mode 0600); the others live in
memory, at most ``MAX_UNSAVED`` of them, the oldest idle ones forgotten first.
A session that ends having saved nothing leaves no folder behind. One server
holds a lock on the sessions folder, so two never run apps on one folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import IO

from msgspec import Struct

TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
FOLDER_ID = re.compile(r"[0-9a-f]{32}")  # secrets.token_hex(16)
SAVED_STATE = "progress.json"  # what the app writes once the learner has done anything; a folder without it was never used
TOKENS_FILE = ".tokens.json"
LOCK_FILE = ".serve.lock"
MAX_UNSAVED = 10_000  # tokens of folders with nothing saved yet (each page load of a new browser makes one)


class SessionsInUse(Exception):
    """Another `attnpos serve` already serves this sessions folder."""


class _Entry(Struct):
    folder: str
    issued: float  # time.monotonic() of its issue: the oldest unsaved ones are forgotten first


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


class SessionBook:
    """The tokens this server issued and the folder each names, under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = _lock(root)
        self._tokens: dict[str, _Entry] = {}  # by the token's digest
        for digest, folder in _read_saved(root / TOKENS_FILE).items():
            self._tokens[digest] = _Entry(folder, time.monotonic())
        self._sweep()

    def close(self) -> None:
        self._lock.close()

    def folder_of(self, token: str) -> str | None:
        """The folder id a token issued by this server names, or None for any other cookie value."""
        entry = self._tokens.get(_digest(token)) if TOKEN.fullmatch(token) else None
        return entry.folder if entry is not None else None

    def issue(self, token: str, keep: frozenset[str] = frozenset()) -> tuple[str, str]:
        """A new token for the folder ``token`` names (which then names nothing), or for a new folder; and that folder.

        ``keep``: folders in use, whose unsaved tokens are never forgotten to make room.
        """
        folder = self.folder_of(token)
        if folder is None:
            folder = secrets.token_hex(16)
        else:
            del self._tokens[_digest(token)]
        fresh = secrets.token_urlsafe(32)
        self._tokens[_digest(fresh)] = _Entry(folder, time.monotonic())
        self._forget_oldest_unsaved(keep | {folder})
        if self.saved(folder):
            self._save()
        return fresh, folder

    def path(self, folder: str) -> Path:
        return self.root / folder

    def saved(self, folder: str) -> bool:
        """Whether the app has saved anything in ``folder``."""
        return (self.root / folder / SAVED_STATE).exists()

    def ended(self, folder: str) -> None:
        """A session on ``folder`` ended: keep its tokens if it saved anything, else remove the folder."""
        if self.saved(folder):
            self._save()
        else:
            shutil.rmtree(self.root / folder, ignore_errors=True)

    def _forget_oldest_unsaved(self, keep: frozenset[str]) -> None:
        """Past ``MAX_UNSAVED`` tokens, forget the oldest unsaved ones down to nine tenths (so the scan is rare)."""
        if len(self._tokens) <= MAX_UNSAVED:
            return
        unsaved = [(entry.issued, digest) for digest, entry in self._tokens.items() if entry.folder not in keep and not self.saved(entry.folder)]
        excess = len(unsaved) - MAX_UNSAVED * 9 // 10
        for _, digest in sorted(unsaved)[: max(excess, 0)]:
            del self._tokens[digest]

    def _save(self) -> None:
        kept = {digest: entry.folder for digest, entry in self._tokens.items() if self.saved(entry.folder)}
        staging = self.root / (TOKENS_FILE + ".new")
        with open(os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="ascii") as handle:
            json.dump(kept, handle)
        os.replace(staging, self.root / TOKENS_FILE)

    def _sweep(self) -> None:
        """Remove the folders no token names that hold nothing saved (a session's, left by a server stopped mid-way)."""
        named = {entry.folder for entry in self._tokens.values()}
        for child in self.root.iterdir():
            # By name only what a server made (a folder id, or a token, as earlier versions named folders), so a
            # sessions folder pointed at a folder of the user's own loses nothing else.
            session_like = FOLDER_ID.fullmatch(child.name) or TOKEN.fullmatch(child.name)
            if session_like and child.is_dir() and not child.is_symlink() and child.name not in named and not (child / SAVED_STATE).exists():
                shutil.rmtree(child, ignore_errors=True)


def _lock(root: Path) -> IO[bytes]:
    handle = open(root / LOCK_FILE, "a+b")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SessionsInUse(f"another attnpos serve already serves {root}") from None
    return handle


def _read_saved(path: Path) -> dict[str, str]:
    """The saved tokens' digests and folders; what is not in that shape is left out."""
    try:
        saved = json.loads(path.read_text(encoding="ascii"))
    except (OSError, ValueError):
        return {}
    if not isinstance(saved, dict):
        return {}
    return {
        digest: folder for digest, folder in saved.items() if isinstance(folder, str) and FOLDER_ID.fullmatch(folder) and re.fullmatch(r"[0-9a-f]{64}", digest)
    }
