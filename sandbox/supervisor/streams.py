"""A run's output, read under its limits, and the timing gate a check may wait at.

The child's stdout and stderr are captured up to the output limit, the judge's verdict on its
own channel up to a larger one, until they close or the wall-clock deadline passes; a check's
time spent waiting for the host's turn to time (the gate) does not count against it.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import sys
import time

TYPE_CHECKING = False  # the runner imports as little as it can: typing only for the type checker
if TYPE_CHECKING:
    from typing import Any, Protocol

    Request = dict[str, Any]  # a request, or a result: JSON objects

    class Child(Protocol):
        """A running program as the runner holds it (serve.Child): its pid, its pipes, its exit."""

        pid: int
        stdout: int
        stderr: int
        verdict: int | None

        def poll(self) -> int | None: ...

        def wait(self) -> int: ...


VERDICT_LIMIT = 64 << 20


class Gate:
    """The timing gate: the judge asks before it times, the host answers when no other check
    of its times (timings side by side would disturb each other), and the wait does not count
    against the check's timeout.

    The judge writes `t` on `ask`; the runner tells the host (a line `{"gate": "timing"}` on
    stdout) and, on the host's line `go` on stdin, writes a byte on `go`; the judge's `d` when it
    is done becomes `{"gate": "done"}`. Only the judge holds the judge's ends: it closes them in
    the versions' processes, like the verdict channel.
    """

    def __init__(self) -> None:
        self.ask_read, self.ask_write = os.pipe()
        self.go_read, self.go_write = os.pipe()

    def judge_ends(self) -> tuple[int, int]:
        return self.ask_write, self.go_read

    def runner_ends(self) -> tuple[int, int]:
        return self.ask_read, self.go_write

    @staticmethod
    def tell_host(what: str) -> None:
        sys.stdout.write(json.dumps({"gate": what}) + "\n")
        sys.stdout.flush()

    def host_said_go(self) -> bool:
        line = sys.stdin.buffer.readline()
        if line.strip() != b"go":
            return False
        os.write(self.go_write, b"g")
        return True

    def close(self) -> None:
        for fd in self.runner_ends():
            with contextlib.suppress(OSError):
                os.close(fd)


def forward_early(verdict: bytearray) -> None:
    """Hand the host each complete frame at the start of `verdict` that is the judge's verdict so
    far (wire.EARLY), as a line `{"early": "<the verdict's JSON>"}`, and drop it: what stays is the
    last word, which the run's result carries."""
    from ..wire import EARLY, HEADER  # here: a run that is not a check never needs it

    while len(verdict) > HEADER.size and verdict[HEADER.size : HEADER.size + 1] == EARLY:
        end = HEADER.size + HEADER.unpack_from(verdict)[0]
        if len(verdict) < end:
            return  # the rest of this frame is still on its way
        sys.stdout.write(json.dumps({"early": verdict[HEADER.size + 1 : end].decode("utf-8", "replace")}) + "\n")
        sys.stdout.flush()
        del verdict[:end]


def collect(
    child: Child, deadline: float, limit: int, gate: Gate | None = None
) -> tuple[bytes, bytes, bytes, str | None]:
    """Read stdout, stderr (and a check's verdict) until they close or a limit is hit; pass
    the judge's timing requests to the host and its answers back (`gate`).

    Returns the captured bytes and why the run was cut short: "timeout",
    "output", or None. The verdict has its own, larger cap.
    """
    captured = {child.stdout: bytearray(), child.stderr: bytearray()}
    if child.verdict is not None:
        captured[child.verdict] = bytearray()
    selector = selectors.DefaultSelector()
    for fd in captured:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    if gate is not None:
        selector.register(gate.ask_read, selectors.EVENT_READ)
    total, reason, exited_at, asked_at = 0, None, None, None
    while any(fd in selector.get_map() for fd in captured):
        now = time.monotonic()
        if now >= deadline and asked_at is None:
            reason = "timeout"
            break
        if child.poll() is not None:
            # Grandchildren may hold the pipes open: drain briefly, then stop waiting.
            exited_at = exited_at or now
            if now - exited_at > 0.2:
                break
        # Waiting for the host's go, the deadline is on hold: no spinning on a timeout of 0 past it.
        wait = 0.05 if asked_at is not None else max(0.0, min(0.05, deadline - now))
        for key, _ in selector.select(timeout=wait):
            if gate is not None and key.fd in (gate.ask_read, 0):
                if key.fd == gate.ask_read:
                    said = os.read(gate.ask_read, 1)
                    if not said:
                        selector.unregister(gate.ask_read)
                    elif said == b"d":
                        gate.tell_host("done")
                    else:
                        gate.tell_host("timing")
                        asked_at = time.monotonic()
                        selector.register(0, selectors.EVENT_READ)
                    continue
                selector.unregister(0)
                if not gate.host_said_go():
                    reason = "timeout"  # the host is gone: nobody will ever say go
                    break
                assert asked_at is not None  # stdin is watched only while the judge waits for its go
                deadline += time.monotonic() - asked_at  # waiting for another check's timing is not this one's time
                asked_at = None
                continue
            chunk = os.read(key.fd, 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            if key.fd == child.verdict:
                if len(captured[child.verdict]) < VERDICT_LIMIT:
                    captured[child.verdict] += chunk
                    forward_early(captured[child.verdict])
                continue
            room = max(0, limit - total)
            captured[key.fd] += chunk[:room]
            total += len(chunk)
            if total > limit:
                reason = "output"
                break
        if reason:
            break
    selector.close()
    for fd in captured:
        os.close(fd)
    if gate is not None:
        gate.close()
    verdict = bytes(captured[child.verdict]) if child.verdict is not None else b""
    return bytes(captured[child.stdout]), bytes(captured[child.stderr]), verdict, reason
