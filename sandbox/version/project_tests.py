"""The project's own pytest tests, run in a child of a version's process.

Two uses: once per review they run with the project as it is, capturing the
arguments the functions under review are called with, which tests call each
function of the project and which tests ran each piece of its code
(`capture_all`, per test file, so that the host can keep what a change does
not touch); a check runs a function's tests with the new version in the
original's place, and they must pass again.
What the tests call is recorded by recorder.py; each test runs under a time
limit (time_limits.py). The same tests run once more with nothing recorded
when the host asks (`record` off), for the time they take natively.
pytest is imported only in these children, never where the checked calls run.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import time
from typing import Any

from .. import contract
from . import checked_call, time_limits, versions
from .outcomes import Outcomes
from .recorder import Recorder


def _recording_plugin(pytest: Any, recorder: Recorder) -> Any:
    """Tells the recorder which test runs (its setup and its call; teardowns are not recorded), and
    what each fixture made."""

    @contextlib.contextmanager
    def recording(item: Any) -> Any:
        recorder.begin(item.nodeid)
        try:
            yield
        finally:
            recorder.end()

    class Plugin:
        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]  # pytest comes in as Any
        def pytest_runtest_setup(self, item: Any) -> Any:
            with recording(item):
                yield

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]
        def pytest_runtest_call(self, item: Any) -> Any:
            with recording(item):
                yield

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]
        def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Any:
            outcome = yield
            if outcome.excinfo is None:
                with contextlib.suppress(Exception):  # what the recorder cannot note is not the test's failure
                    recorder.fixture(outcome.get_result())

    return Plugin()


def run_pytest(
    project: str, tests: list[str], recorder: Recorder | None, outcomes: Outcomes, limits: Any = None
) -> None:
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
    if importlib.util.find_spec("pytest_cov") is not None:
        # A project's `--cov` in its addopts: coverage's tracer would fight the recorder's and write
        # its data file into the project, which is read-only here.
        options.append("--no-cov")
        os.environ["COVERAGE_FILE"] = os.path.join(tempfile.gettempdir(), ".coverage")
    plugins: list[Any] = [outcomes]
    if limits is not None:
        plugins.append(limits(pytest))
    if recorder is not None:
        plugins.append(_recording_plugin(pytest, recorder))
    os.chdir(project)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            if recorder is not None:
                # The project's modules as they are imported; the recorder ends it at the first test.
                recorder.trace_from_first_import()
            pytest.main([*options, *tests], plugins=plugins)
        except BaseException as error:
            outcomes.collection_error = outcomes.collection_error or f"{type(error).__name__}: {error}"
        finally:
            sys.settrace(None)
            if recorder is not None:
                recorder.stop_watching_imports()


def capture_all(job: contract.CaptureJob) -> dict[str, Any]:
    """Run the project's tests (those the pytest arguments `baseline_tests` select; of those, only the
    ones in `only_files` or `only_tests` when `only_files` is given) once, capturing the calls of
    the functions asked for (all when None); each test has `test_timeout` seconds, and no test runs
    past `deadline_s` seconds. With `record` off nothing is recorded: the tests' own time."""
    started = time.monotonic()
    deadline = started + job.deadline_s if job.deadline_s is not None else None
    only = list(job.only_files) if job.only_files is not None else None
    outcomes = Outcomes(only, list(job.only_tests), deadline)
    functions = list(job.functions) if job.functions is not None else None
    recorder = Recorder(job.project, outcomes, functions) if job.record else None

    def limits(pytest: Any) -> Any:
        return time_limits.plugin(pytest, outcomes, job.test_timeout, deadline)

    run_pytest(job.project, list(job.baseline_tests), recorder, outcomes, limits)
    seconds = time.monotonic() - started
    if recorder is not None:
        files, import_units = recorder.result(), sorted(recorder.import_units)
    else:
        files, import_units = {name: {"tests": []} for name in outcomes.collected}, []
        for nodeid in sorted(outcomes.started):
            files.setdefault(nodeid.split("::", 1)[0], {"tests": []})["tests"].append(nodeid)
    return {
        "files": files,
        "import_units": import_units,
        "unfinished": outcomes.unfinished,
        "collection_error": outcomes.collection_error,
        "not_collected": outcomes.not_collected,
        "timed_out": sorted(outcomes.timed_out),
        "seconds": seconds,
    }


def run_with_version(version: versions.Version, project: str, tests: list[str]) -> dict[str, Any]:
    """Run `tests` with this version in the original's place."""
    replacement = version.inner
    original = version.original_code
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
        "broken": broken,
        "failure": outcomes.failures.get(broken[0], "it did not pass") if broken else None,
        "failures": {test: outcomes.failures.get(test, "it did not pass") for test in broken[:50]},
    }


def _in_child(work: Any) -> dict[str, Any]:
    answer = checked_call.in_child(work, None)  # no deadline of its own: the check's timeout bounds it
    return answer if isinstance(answer, dict) else {"crashed": "an answer that is not an object"}


def run_in_child(version: versions.Version, project: str | None, tests: list[str]) -> dict[str, Any]:
    if project is None or not tests:
        return {"passed": 0, "broken": [], "failure": None}
    return _in_child(lambda: run_with_version(version, project, tests))
