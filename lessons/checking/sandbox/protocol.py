"""The wire protocol between the app, the supervisor and the learner process.

The app and the supervisor talk over a socket pair in length-prefixed JSON
frames: the app's request, the supervisor's ``{"pid": ...}``, then its report
of how the learner ended. The learner's results travel as files (see
:mod:`.learner` and :mod:`.results`); these constants bound what the app
accepts from them.
"""

from __future__ import annotations

import json
import socket
import struct

NUMERIC_KINDS = "biufc"
MAX_TEXT = 2000  # longest error message or type description kept from the learner


def send_frame(sock: socket.socket, message: dict) -> None:
    data = json.dumps(message).encode()
    sock.sendall(struct.pack("!I", len(data)) + data)


def recv_frame(sock: socket.socket) -> dict | None:
    """One length-prefixed JSON message, or None at end of stream."""
    header = _recv_exactly(sock, 4)
    if header is None:
        return None
    body = _recv_exactly(sock, struct.unpack("!I", header)[0])
    return None if body is None else json.loads(body)


def _recv_exactly(sock: socket.socket, count: int) -> bytes | None:
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)
