"""The project's own pytest tests, run in a child of a version's process.

Two uses: the baseline runs them with the original, capturing the arguments
the target is called with and which tests call it; a check runs those tests
with the new version in the original's place, and they must pass again.
pytest is imported only in these children, never where the checked calls run.
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import sys
from typing import Any

from . import executor

CAPTURE_LIMIT = 100


class Outcomes:
    """A pytest plugin that notes what passed, what failed and why, and which tests benchmark."""

    def __init__(self) -> None:
        self.passed: set[str] = set()
        self.failures: dict[str, str] = {}
        self.benchmarked: set[str] = set()
        self.collection_error: str | None = None

    def pytest_collection_modifyitems(self, items: list[Any]) -> None:
        self.benchmarked = {item.nodeid for item in items if "benchmark" in getattr(item, "fixturenames", ())}

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed and self.collection_error is None:
            lines = str(report.longreprtext).strip().splitlines()
            self.collection_error = "{}: {}".format(report.nodeid or "collection", (lines[-1] if lines else "")[:200])

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" and report.passed:
            self.passed.add(report.nodeid)
        elif report.failed:
            lines = str(report.longreprtext).strip().splitlines()
            self.failures[report.nodeid] = (lines[-1] if lines else "failed")[:300]


def _profiled_plugin(pytest: Any, hook: Any) -> Any:
    """Profiles the tests' own code only: pytest's machinery runs at full speed."""

    @contextlib.contextmanager
    def profiled() -> Any:
        sys.setprofile(hook)
        try:
            yield
        finally:
            sys.setprofile(None)

    class Plugin:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_setup(self, item: Any) -> Any:
            with profiled():
                yield

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item: Any) -> Any:
            with profiled():
                yield

    return Plugin()


def run_pytest(project: str, tests: list[str], hook: Any, outcomes: Outcomes) -> None:
    import importlib.util

    import pytest

    # Plain asserts: rewriting every plugin and test module costs seconds; only pass or fail counts here.
    options = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--assert=plain", "--rootdir", project]
    if importlib.util.find_spec("pytest_benchmark") is not None:
        options.append("--benchmark-disable")
    plugins: list[Any] = [outcomes]
    if hook is not None:
        plugins.append(_profiled_plugin(pytest, hook))
    os.chdir(project)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            pytest.main([*options, *tests], plugins=plugins)
        except BaseException as error:
            outcomes.collection_error = outcomes.collection_error or f"{type(error).__name__}: {error}"


def frame_arguments(frame: Any) -> Any:
    """The (args, kwargs) a function was called with, read from its frame at the call."""
    code = frame.f_code
    values, names = frame.f_locals, code.co_varnames
    positional, keyword_only = code.co_argcount, code.co_kwonlyargcount
    args = [values[name] for name in names[:positional]]
    kwargs = {name: values[name] for name in names[positional : positional + keyword_only]}
    extra = positional + keyword_only
    if code.co_flags & 0x04:  # CO_VARARGS
        args.extend(values[names[extra]])
        extra += 1
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        kwargs.update(values[names[extra]])
    return tuple(args), kwargs


def _pickled(call: Any, refs: dict[int, str]) -> bytes | None:
    """The call pickled (see executor.dumps_with_refs); None when it cannot be kept at all."""
    try:
        return executor.dumps_with_refs(call, refs)
    except Exception:
        return None


def capture(version: executor.Version, project: str, selection: list[str]) -> dict[str, Any]:
    """Run the tests (every one, or those the pytest arguments `selection` select) with the
    original: the calls it gets, and the tests that call it and pass."""
    target_code = version.original.__code__
    refs = version.refs()
    outcomes = Outcomes()
    calls: list[bytes] = []
    seen: dict[bytes, int] = {}
    benchmarked: set[int] = set()
    covering: set[str] = set()
    dropped = [0]

    def hook(frame: Any, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code is not target_code:
            return
        current = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        if current:
            covering.add(current)
        data = _pickled(frame_arguments(frame), refs)  # type: ignore[arg-type]
        if data is None:
            dropped[0] += 1
            return
        if data not in seen and len(calls) < CAPTURE_LIMIT:
            seen[data] = len(calls)
            calls.append(data)
        if data in seen and current in outcomes.benchmarked:
            benchmarked.add(seen[data])

    run_pytest(project, selection, hook, outcomes)
    return {
        "calls": [base64.b64encode(call).decode("ascii") for call in calls],
        "benchmark": sorted(benchmarked),
        "covering": sorted(covering & outcomes.passed),
        "failing": sorted(covering - outcomes.passed),
        "dropped": dropped[0],
        "collection_error": outcomes.collection_error,
    }


def run_with_version(version: executor.Version, project: str, tests: list[str]) -> dict[str, Any]:
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
    return {"passed": len(tests) - len(broken), "broken": broken[:1],
            "failure": outcomes.failures.get(broken[0], "it did not pass") if broken else None}


def _in_child(work: Any) -> dict[str, Any]:
    answer = executor.in_child(work, None)  # no deadline of its own: the check's timeout bounds it
    return answer if isinstance(answer, dict) else {"crashed": "an answer that is not an object"}


def capture_in_child(version: executor.Version, project: str | None, selection: list[str]) -> dict[str, Any]:
    if project is None:
        return {"calls": [], "benchmark": [], "covering": [], "failing": [], "dropped": 0, "collection_error": None}
    return _in_child(lambda: capture(version, project, selection))


def run_in_child(version: executor.Version, project: str | None, tests: list[str]) -> dict[str, Any]:
    if project is None or not tests:
        return {"passed": 0, "broken": [], "failure": None}
    return _in_child(lambda: run_with_version(version, project, tests))
