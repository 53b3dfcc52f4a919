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
from .outcomes import Outcomes
from .recorder import Recorder


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
    # A method whose new version reads `__class__` (`super()`) where the original does not (or the
    # other way round) cannot take the other's code; its class already holds the new version.
    with contextlib.suppress(ValueError):
        original.__code__ = replacement.__code__
        original.__defaults__ = replacement.__defaults__
        original.__kwdefaults__ = replacement.__kwdefaults__
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
