"""Progress of a run over many functions: live on a terminal, plain lines in CI logs, or nothing.

`live` keeps one status line at the bottom, rewritten in place, and prints a
line for each function as it finishes; `plain` prints every event as its own
line (fit for CI logs, which do not understand carriage returns); `quiet`
prints nothing (hooks: the result speaks, if there is one). Functions worked
on side by side (`--jobs`) report from several threads: one line at a time.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from typing import TextIO

from coderefine.engine import Iteration, StopRule
from coderefine.review.reports import progress_line

MODES = ("auto", "live", "plain", "quiet")


def choose_mode(requested: str, stream: TextIO) -> str:
    """`auto`: live on a terminal, else plain lines."""
    if requested != "auto":
        return requested
    interactive = stream.isatty() and os.environ.get("TERM") != "dumb" and not os.environ.get("CI")
    return "live" if interactive else "plain"


class Progress:
    def __init__(self, mode: str, stream: TextIO) -> None:
        self.mode, self.stream = mode, stream
        self.total = 0
        self.done = 0
        self._current = threading.local()  # functions side by side: each thread's function is its own
        self._status_shown = False
        self._lock = threading.RLock()

    def begin(self, total: int, what: str) -> None:
        self.total = total
        self._line(f"{what}: {total} function(s)")

    def started(self, where: str) -> None:
        self._current.where = where
        self._status(f"{self._count()} {where}: baseline in the sandbox")

    def iteration(self, iteration: Iteration, rule: StopRule) -> None:
        where = getattr(self._current, "where", "")
        self._status(f"{self._count()} {where}: {progress_line(iteration, rule)}")

    def finished(self, line: str) -> None:
        with self._lock:
            self.done += 1
            self._line(f"[{self.done}/{self.total}] {line}")

    def note(self, text: str) -> None:
        """A line about the run as a whole (the project's tests), shown in every mode but quiet."""
        self._line(text)

    def close(self) -> None:
        self._clear()

    def _count(self) -> str:
        return f"[{self.done + 1}/{self.total}]"

    def _status(self, text: str) -> None:
        with self._lock:
            self._write_status(text)

    def _write_status(self, text: str) -> None:
        if self.mode == "plain":
            self._line(text)
        elif self.mode == "live":
            width = shutil.get_terminal_size((100, 20)).columns - 1
            self.stream.write(f"\r\033[Kcoderefine: {text}"[: width + 4])
            self.stream.flush()
            self._status_shown = True

    def _line(self, text: str) -> None:
        if self.mode == "quiet":
            return
        with self._lock:
            self._clear()
            self.stream.write(f"coderefine: {text}\n")
            self.stream.flush()

    def _clear(self) -> None:
        if self._status_shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._status_shown = False


def print_progress(iteration: Iteration, rule: StopRule) -> None:
    """A one-function run's line per draft (optimize, readability, text), on stderr."""
    print(f"coderefine: {progress_line(iteration, rule)}", file=sys.stderr, flush=True)
