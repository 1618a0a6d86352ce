"""Answer files as every route reads them: opened without following a link, decoded as Python decodes source.

Apart from the app's side of the sandbox (:mod:`.client`) so that the learner
process, which decodes its own script, and the fork server it is forked from
import none of the app's machinery.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tokenize

from .protocol import MAX_SCRIPT_BYTES


class ScriptRefused(ValueError):
    """An answer file the sandbox will not run: a symbolic link, not a plain file, or too large; one line."""


def read_script(path: str | os.PathLike) -> bytes:
    """The bytes of the answer file at ``path``, opened without following a symbolic link.

    The one place answer files are opened, for ``check``, ``grade`` and
    ``watch`` alike: a link (``mallory.py -> alice.py``, or to a secret) is
    refused, not followed; so is anything but a plain file (a FIFO would
    block) and a file over :data:`MAX_SCRIPT_BYTES`. Raises ScriptRefused,
    or OSError when the file cannot be opened.
    """
    shown = os.fsdecode(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ScriptRefused(f"{shown} is a symbolic link; it is not followed (check the file itself)") from None
        raise
    with open(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ScriptRefused(f"{shown} is not a plain file")
        data = file.read(MAX_SCRIPT_BYTES + 1)
    refuse_if_too_large(max(info.st_size, len(data)), shown)
    return data


def decode_answer(data: bytes) -> str:
    """An answer file's bytes as source text, decoded as Python decodes a source file (PEP 263).

    The one decoding of answer bytes, on every route (check, watch, grade, grade-class, the app's
    external editor, the learner process reading its own script): a UTF-8 byte-order mark, which
    Windows editors write, is dropped, and a coding cookie on the first two lines is honoured;
    otherwise UTF-8. Raises UnicodeDecodeError when the bytes are not text in that encoding, or
    the cookie names no known encoding or contradicts the mark (Python's SyntaxError there).
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as problem:
        data.decode("utf-8")  # not UTF-8 where the cookie is looked for: raises with the byte it stops at
        raise UnicodeDecodeError("utf-8", data, 0, 1, problem.msg) from None
    return data.decode(encoding)


def encode_answer(source: str) -> bytes:
    """Bytes :func:`decode_answer` turns back into ``source``: UTF-8, or the encoding its own coding cookie declares."""
    data = source.encode("utf-8")
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data if declared in ("utf-8", "utf-8-sig") else source.encode(declared)
    except (SyntaxError, UnicodeEncodeError):  # Python reports what it cannot decode when it compiles the bytes
        return data


def refuse_if_too_large(size: int, shown: str) -> None:
    """Raise :class:`ScriptRefused` for a script of ``size`` bytes over :data:`MAX_SCRIPT_BYTES`, before anything reads it."""
    if size > MAX_SCRIPT_BYTES:
        raise ScriptRefused(f"{shown} is {size_text(size)}, more than the {MAX_SCRIPT_BYTES // 1024} KB an answer may be")


def size_text(count: int) -> str:
    """``count`` bytes as a person reads them: "1.2 MB", "300 bytes"."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
