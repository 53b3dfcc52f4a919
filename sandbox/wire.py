"""Frames between the judge and a version's process: length-prefixed, over pipes.

The judge sends pickles (the version's process trusts the judge); a version's
process answers in JSON only, which the judge reads with a size cap and a
deadline, so nothing it sends can run code in the judge or make it wait forever.
"""

from __future__ import annotations

import json
import os
import pickle
import select
import struct
import time
from typing import Any

HEADER = struct.Struct(">I")
# The first byte of a judge's frame that is its verdict so far, not its last word: the runner hands
# it to the host at once (supervisor/streams.forward_early); a frame of JSON starts with `{`.
EARLY = b"E"
MAX_ANSWER = 64 << 20  # bytes: a bigger answer is a failed version, not a bigger buffer


class ChannelClosed(Exception):
    """The other side is gone, sent too much, sent garbage, or missed its deadline."""


def send(fd: int, data: bytes) -> None:
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def send_pickle(fd: int, value: Any) -> None:
    send(fd, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def send_json(fd: int, value: Any) -> None:
    send(fd, json.dumps(value, separators=(",", ":"), allow_nan=False).encode("utf-8"))


def send_early_json(fd: int, value: Any) -> None:
    send(fd, EARLY + json.dumps(value, separators=(",", ":"), allow_nan=False).encode("utf-8"))


def receive(fd: int, deadline: float | None = None, limit: int = MAX_ANSWER) -> bytes:
    """One frame; ChannelClosed when the writer is gone, too late or too big."""
    size = HEADER.unpack(_read_exactly(fd, HEADER.size, deadline))[0]
    if size > limit:
        raise ChannelClosed(f"an answer of {size} bytes, more than the {limit} allowed")
    return _read_exactly(fd, size, deadline)


def receive_json(fd: int, deadline: float | None = None, limit: int = MAX_ANSWER) -> Any:
    data = receive(fd, deadline, limit)
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ChannelClosed(f"an answer that is not JSON: {error}") from None


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes:
    chunks = []
    while size:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise ChannelClosed("no answer in time")
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise ChannelClosed("the other side closed the channel")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)
