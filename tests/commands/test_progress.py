"""The progress display: a live status line on terminals, plain lines in logs, nothing in hooks."""

from __future__ import annotations

import io
import threading

import pytest

from coderefine.commands.progress import Progress, choose_mode
from coderefine.engine import Facts, Iteration, Prompt, StopRule, Usage


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run_through(mode: str) -> str:
    stream = io.StringIO()
    progress = Progress(mode, stream)
    progress.begin(2, "changed since main")
    progress.started("a.py::f")
    progress.finished("a.py::f: 2.00x faster")
    progress.started("a.py::g")
    progress.close()
    return stream.getvalue()


def test_plain_mode_prints_every_event_as_its_own_line() -> None:
    assert run_through("plain").splitlines() == [
        "coderefine: changed since main: 2 function(s)",
        "coderefine: [1/2] a.py::f: baseline in the sandbox",
        "coderefine: [1/2] a.py::f: 2.00x faster",
        "coderefine: [2/2] a.py::g: baseline in the sandbox",
    ]


def test_live_mode_rewrites_one_status_line_and_keeps_results() -> None:
    text = run_through("live")
    assert "\r\x1b[Kcoderefine: [1/2] a.py::f: baseline in the sandbox" in text
    assert "coderefine: [1/2] a.py::f: 2.00x faster\n" in text
    assert text.endswith("\r\x1b[K")  # the status line is cleared at the end
    assert text.count("\n") == 2  # the headline and the result: statuses never add lines


def test_functions_side_by_side_each_report_their_own_drafts() -> None:
    stream = io.StringIO()
    progress = Progress("plain", stream)
    progress.begin(2, "staged")
    draft = Iteration(0, "", "", "", Facts(acceptable=False), None, False, "no code", Prompt(()), None, Usage(), 1.0)
    first_started, second_done = threading.Event(), threading.Event()

    def first() -> None:
        progress.started("a.py::f")
        first_started.set()
        second_done.wait(10)  # g starts and drafts while f is still on its first draft
        progress.iteration(draft, StopRule(max_iterations=2))

    def second() -> None:
        first_started.wait(10)
        progress.started("a.py::g")
        progress.iteration(draft, StopRule(max_iterations=2))
        second_done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    drafts = [line for line in stream.getvalue().splitlines() if "draft 1/2" in line]
    assert [line.split(": draft")[0] for line in drafts] == ["coderefine: [1/2] a.py::g", "coderefine: [1/2] a.py::f"]


def test_quiet_mode_prints_nothing() -> None:
    assert run_through("quiet") == ""


def test_auto_is_live_on_a_terminal_and_plain_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert choose_mode("auto", Terminal()) == "live"
    assert choose_mode("auto", io.StringIO()) == "plain"
    monkeypatch.setenv("CI", "true")
    assert choose_mode("auto", Terminal()) == "plain"
    assert choose_mode("quiet", Terminal()) == "quiet"
