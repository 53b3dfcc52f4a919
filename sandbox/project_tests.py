"""The project's own pytest tests, run in a child of a version's process.

Two uses: once per review they run with the project as it is, capturing the
arguments every function of the project is called with and which tests call
it (`capture_all`, per test file, so that the host can keep what a change
does not touch); a check runs a function's tests with the new version in the
original's place, and they must pass again.
What the tests call is recorded by recorder.py.
pytest is imported only in these children, never where the checked calls run.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from typing import Any

from . import checked_call, versions
from .recorder import Recorder


class Outcomes:
    """A pytest plugin that notes what passed, what failed and why, and which tests benchmark."""

    def __init__(
        self, only_files: list[str] | None = None, only_tests: list[str] | None = None, deadline: float | None = None
    ) -> None:
        self.passed: set[str] = set()
        self.failures: dict[str, str] = {}
        self.benchmarked: set[str] = set()
        self.collected: set[str] = set()  # the test files whose tests ran
        self.collection_error: str | None = None
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
        if report.failed and self.collection_error is None:
            lines = str(report.longreprtext).strip().splitlines()
            self.collection_error = "{}: {}".format(report.nodeid or "collection", (lines[-1] if lines else "")[:200])

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.started.add(nodeid)

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline and not self.unfinished:
            self.unfinished = [item.nodeid for item in self.session.items if item.nodeid not in self.started]
            if self.unfinished:
                self.session.shouldstop = "the deadline"

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" and report.passed:
            self.passed.add(report.nodeid)
        elif report.failed:
            lines = str(report.longreprtext).strip().splitlines()
            self.failures[report.nodeid] = (lines[-1] if lines else "failed")[:300]


def _profiled_plugin(pytest: Any, recorder: Recorder) -> Any:
    """Watches the tests' own code only: pytest's machinery runs at full speed. A trace function
    that returns None sees each Python call once and no line of it (a profile function would also
    see every return and every call into C)."""

    @contextlib.contextmanager
    def profiled(item: Any) -> Any:
        recorder.begin(item.nodeid)
        sys.settrace(recorder.hook)
        try:
            yield
        finally:
            sys.settrace(None)
            recorder.end()

    class Plugin:
        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]  # pytest comes in as Any
        def pytest_runtest_setup(self, item: Any) -> Any:
            with profiled(item):
                yield

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]
        def pytest_runtest_call(self, item: Any) -> Any:
            with profiled(item):
                yield

    return Plugin()


def run_pytest(project: str, tests: list[str], recorder: Recorder | None, outcomes: Outcomes) -> None:
    import importlib.util

    import pytest

    # Plain asserts: rewriting every plugin and test module costs seconds; only pass or fail counts here.
    options = [
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--assert=plain",
        "--rootdir",
        project,
        "--continue-on-collection-errors",
    ]  # the other files' tests still count
    if importlib.util.find_spec("pytest_benchmark") is not None:
        options.append("--benchmark-disable")
    plugins: list[Any] = [outcomes]
    if recorder is not None:
        plugins.append(_profiled_plugin(pytest, recorder))
    os.chdir(project)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            if recorder is not None:
                sys.settrace(recorder.hook)  # the project's modules as they are imported, up to the first test
            pytest.main([*options, *tests], plugins=plugins)
        except BaseException as error:
            outcomes.collection_error = outcomes.collection_error or f"{type(error).__name__}: {error}"
        finally:
            sys.settrace(None)


def capture_all(
    project: str,
    selection: list[str],
    only_files: list[str] | None,
    only_tests: list[str] | None = None,
    deadline_s: float | None = None,
) -> dict[str, Any]:
    """Run the project's tests (those the pytest arguments `selection` select; of those, only the
    ones in `only_files` or `only_tests` when `only_files` is given) once, capturing the calls of
    every function of the project; no test starts after `deadline_s` seconds."""
    deadline = time.monotonic() + deadline_s if deadline_s is not None else None
    outcomes = Outcomes(only_files, only_tests, deadline)
    recorder = Recorder(project, outcomes)
    run_pytest(project, selection, recorder, outcomes)
    return {
        "files": recorder.result(),
        "import_units": sorted(recorder.import_units),
        "unfinished": outcomes.unfinished,
        "collection_error": outcomes.collection_error,
    }


def run_with_version(version: versions.Version, project: str, tests: list[str]) -> dict[str, Any]:
    """Run `tests` with this version in the original's place."""
    replacement = version.function
    original = version.original
    # Tests may hold the original by `from module import name`: give that very object the new code.
    original.__code__ = replacement.__code__
    original.__defaults__ = replacement.__defaults__
    original.__kwdefaults__ = replacement.__kwdefaults__
    vars(version.module).update({k: v for k, v in replacement.__globals__.items() if k not in vars(version.module)})
    outcomes = Outcomes()
    run_pytest(project, tests, None, outcomes)
    broken = [test for test in tests if test not in outcomes.passed]
    return {
        "passed": len(tests) - len(broken),
        "broken": broken[:1],
        "failure": outcomes.failures.get(broken[0], "it did not pass") if broken else None,
    }


def _in_child(work: Any) -> dict[str, Any]:
    answer = checked_call.in_child(work, None)  # no deadline of its own: the check's timeout bounds it
    return answer if isinstance(answer, dict) else {"crashed": "an answer that is not an object"}


def run_in_child(version: versions.Version, project: str | None, tests: list[str]) -> dict[str, Any]:
    if project is None or not tests:
        return {"passed": 0, "broken": [], "failure": None}
    return _in_child(lambda: run_with_version(version, project, tests))
