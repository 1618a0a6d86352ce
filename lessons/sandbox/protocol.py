"""The wire protocol between the app, the supervisor and the learner process.

The app and the supervisor talk over a socket pair in length-prefixed JSON
frames: the app's request, the supervisor's ``{"pid": ...}``, then its report
of how the learner ended. The learner's results travel as files (see
:mod:`.learner` and :mod:`.results`); these constants bound what the app
accepts from them.
"""

from __future__ import annotations

import _socket
import array
import json
import re
import struct

NUMERIC_KINDS = "biufc"
# A value comes back as its raw bytes in a file of this suffix, its dtype and shape in status.json: nothing the
# app reads back is parsed as Python (a .npy header is, with ast, and CPython 3.11's AST building is not
# thread-safe: two checks reading results at once failed one in thousands with "AST constructor recursion
# depth mismatch", python/cpython#106905).
VALUE_SUFFIX = ".data"
# The dtypes a value may come back as: byte order, a numeric kind, an item size ("<f8", "|b1", "<c16").
VALUE_DTYPE = re.compile(rf"[<>|=][{NUMERIC_KINDS}][0-9]{{1,2}}")
MAX_TEXT = 2000  # longest error message or type description kept from the learner
# Largest script a run takes. An answer is a few kilobytes; past this the rerun's syntax tree alone would cost
# the checker hundreds of megabytes (an 18 MB file grew it to 7 GB).
MAX_SCRIPT_BYTES = 256 * 1024
# Most bytes of arrays the app reads back from one run, counted as float64: 8 M elements, eight times what
# the checker judges in one array (lessons/checker/values.py), for the names of an exercise together.
MAX_READ_BACK_BYTES = 64 * 1024 * 1024
# Longest traceback kept from the learner (its last lines).
MAX_TRACEBACK = 10 * MAX_TEXT
# Largest status.json the app reads back, and its deepest nesting (a report nests three levels). Its texts are
# capped at about 20 * MAX_TEXT characters, and JSON may spell one as 12 bytes (a surrogate pair).
MAX_STATUS_BYTES = 1024 * 1024
MAX_STATUS_DEPTH = 8
# The learner's exit code when its confinement could not be applied (the script never ran); from sysexits' EX_OSERR.
CONFINEMENT_FAILED = 71


def read_back_budget(memory_mb: int) -> int:
    """Bytes of arrays (as :func:`judged_bytes` counts them) a run may hand back: its memory cap, at most
    :data:`MAX_READ_BACK_BYTES`, for the app holds them all, and judges them, in its own process."""
    return min(memory_mb * 1024 * 1024, MAX_READ_BACK_BYTES)


def judged_bytes(elements: int, itemsize: int) -> int:
    """What an array of ``elements`` costs against a run's read-back budget: the float64 (or complex) copy the
    checker makes of it, so float16 gets no more elements than float64."""
    return elements * max(itemsize, 8)


def encode_frame(message: dict) -> bytes:
    data = json.dumps(message).encode()
    return struct.pack("!I", len(data)) + data


def send_frame(sock: _socket.socket, message: dict) -> None:
    sock.sendall(encode_frame(message))


def recv_frame(sock: _socket.socket) -> dict | None:
    """One length-prefixed JSON message, or None at end of stream."""
    header = _recv_exactly(sock, 4)
    if header is None:
        return None
    body = _recv_exactly(sock, struct.unpack("!I", header)[0])
    return None if body is None else json.loads(body)


def recv_frame_with_fds(sock: _socket.socket, max_fds: int) -> tuple[dict | None, list[int]]:
    """One frame sent with :func:`send_fds` and the descriptors that came with it."""
    header, fds = recv_fds(sock, 4, max_fds)  # the descriptors ride on the frame's first bytes
    rest = _recv_exactly(sock, 4 - len(header)) if header else None
    if rest is None:
        return None, fds
    body = _recv_exactly(sock, struct.unpack("!I", header + rest)[0])
    return (None if body is None else json.loads(body)), fds


def send_fds(sock: _socket.socket, data: bytes, fds: list[int]) -> None:
    """``socket.send_fds``: ``data`` with the descriptors ``fds`` riding on it.

    Here, on ``_socket``, as the rest of this module: the fork server imports
    it, and ``socket``'s enums of constants cost its start 15 M instructions
    (docs/PERFORMANCE.md); ``socket.socket`` objects are ``_socket.socket``
    ones too.
    """
    sock.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", fds))])


def recv_fds(sock: _socket.socket, size: int, max_fds: int) -> tuple[bytes, list[int]]:
    """``socket.recv_fds``: up to ``size`` bytes and the descriptors (at most ``max_fds``) that came with them."""
    fds = array.array("i")
    data, ancillary, _, _ = sock.recvmsg(size, _socket.CMSG_LEN(max_fds * fds.itemsize))
    for level, kind, payload in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - (len(payload) % fds.itemsize)])
    return data, list(fds)


def _recv_exactly(sock: _socket.socket, count: int) -> bytes | None:
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)
