"""What the project's tests gave: a pytest plugin noting what passed, what failed and why, which
tests benchmark, which files could not be collected; it also keeps to the files and tests asked
for, and to a deadline."""

from __future__ import annotations

import time
from typing import Any


class Outcomes:
    """A pytest plugin that notes what passed, what failed and why, and which tests benchmark."""

    def __init__(
        self, only_files: list[str] | None = None, only_tests: list[str] | None = None, deadline: float | None = None
    ) -> None:
        self.passed: set[str] = set()
        self.failures: dict[str, str] = {}
        self.benchmarked: set[str] = set()
        self.collected: set[str] = set()  # the test files whose tests ran
        self.collection_error: str | None = None  # the first of `not_collected`, or pytest's own failure
        self.not_collected: dict[str, str] = {}  # test file: why it could not be collected
        self.timed_out: dict[str, float] = {}  # test: the limit it did not finish in (see time_limits)
        self.only_files = set(only_files) if only_files is not None else None
        self.only_tests = set(only_tests or ())
        self.deadline = deadline  # time.monotonic() after which no test starts
        self.started: set[str] = set()
        self.unfinished: list[str] = []
        self.session: Any = None

    def wanted(self, nodeid: str) -> bool:
        return self.only_files is None or nodeid.split("::", 1)[0] in self.only_files or nodeid in self.only_tests

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        if self.only_files is not None:
            kept = [item for item in items if self.wanted(item.nodeid)]
            left = [item for item in items if not self.wanted(item.nodeid)]
            if left:
                config.hook.pytest_deselected(items=left)
            items[:] = kept

    def pytest_collection_finish(self, session: Any) -> None:
        # After every plugin's selection (-k, -m, ours): what will really run.
        self.session = session
        self.benchmarked = {item.nodeid for item in session.items if "benchmark" in getattr(item, "fixturenames", ())}
        self.collected = {item.nodeid.split("::", 1)[0] for item in session.items}

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            lines = str(report.longreprtext).strip().splitlines()
            why = (lines[-1] if lines else "")[:200]
            self.not_collected[report.nodeid or "collection"] = why
            if self.collection_error is None:
                self.collection_error = "{}: {}".format(report.nodeid or "collection", why)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.started.add(nodeid)

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline and not self.unfinished:
            self.cut_at_deadline()

    def cut_at_deadline(self, running: str | None = None) -> None:
        """No test starts after this one; `running`, cut by the deadline, is left for later with them."""
        self.unfinished = [item.nodeid for item in self.session.items if item.nodeid not in self.started]
        if running is not None:
            self.unfinished.insert(0, running)
        if self.unfinished:
            self.session.shouldstop = "the deadline"

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" and report.passed:
            self.passed.add(report.nodeid)
        elif report.failed and report.nodeid not in self.timed_out and report.nodeid not in self.unfinished:
            lines = str(report.longreprtext).strip().splitlines()
            self.failures[report.nodeid] = (lines[-1] if lines else "failed")[:300]
