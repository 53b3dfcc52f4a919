"""The project's own pytest tests, run in a child of a version's process.

Two uses: once per review they run with the project as it is, capturing the
arguments every function of the project is called with and which tests call
it (`capture_all`, per test file, so that the host can keep what a change
does not touch); a check runs a function's tests with the new version in the
original's place, and they must pass again.
pytest is imported only in these children, never where the checked calls run.
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import sys
import time
from typing import Any

from . import checked_call, versions

CAPTURE_LIMIT = 100  # distinct calls kept per function and test file
ATTEMPT_LIMIT = 200  # calls pickled per function and test file, at most
TRIES_PER_TEST = 3  # calls pickled per function and test, at most: the calls of many tests differ more
FAILURE_LIMIT = 3  # calls per function and test file that cannot be kept (unpicklable, too big) before it stops
CALL_BYTES_LIMIT = 64 << 10  # a call's arguments bigger than this are not kept
BYTES_LIMIT = 24 << 20  # all calls kept, at most (the answer travels as JSON)


class Outcomes:
    """A pytest plugin that notes what passed, what failed and why, and which tests benchmark."""

    def __init__(self, only_files: list[str] | None = None, only_tests: list[str] | None = None,
                 deadline: float | None = None) -> None:  # fmt: skip
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
    options = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--assert=plain", "--rootdir", project,
               "--continue-on-collection-errors"]  # the other files' tests still count
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
    """The call pickled (see versions.dumps_with_refs); None when it cannot be kept at all."""
    try:
        return versions.dumps_with_refs(call, refs)
    except Exception:
        return None


class _Function:
    """A function of the project, as its calls are captured: its key and what pickles refer to by name."""

    def __init__(self, key: str, refs: dict[int, str]) -> None:
        self.key, self.refs = key, refs


class _Known:
    """A code object of the project's files: its file, its unit (see `unit_of`), and the function it
    is when a name reaches it."""

    def __init__(self, file: str, unit: str, function: _Function | None) -> None:
        self.file, self.unit, self.function = file, unit, function


def unit_of(file: str, code: Any) -> str:
    """`file:qualname` of the function or method whose source holds this code (a closure's is its
    outermost function's); `file:<module>` for code outside any (a module, a class body, a lambda there)."""
    outer = getattr(code, "co_qualname", "<module>").split(".<locals>", 1)[0]
    return f"{file}:{'<module>' if '<' in outer else outer}"


_UNSEEN = object()


class Recorder:
    """Per test file: the calls each function of the project got, the tests that called it, and the
    project's files whose functions its tests ran (what makes the file's record stale when one changes).

    Functions are told apart by module and qualified name (`pkg.mod:Class.method`); a code object
    that no module-level name reaches (a closure, a lambda) counts for its file only. The hook runs
    on every call the tests make: once a code object is noted for the running test (its file, its
    test, a few pickled calls) it costs a lookup and nothing more until the next test.
    """

    def __init__(self, project: str, outcomes: Outcomes) -> None:
        self.project = os.path.realpath(project) + os.sep
        self.outcomes = outcomes
        self.current: str | None = None  # the running test's node id
        self.files: dict[str, dict[str, Any]] = {}
        self._record: dict[str, Any] | None = None  # the running test's file's record
        self._index = 0  # the running test's, in its file's record
        self._noted: set[_Known] = set()  # done with for the running test
        self._tries: dict[_Known, int] = {}  # calls pickled in the running test
        self._codes: dict[Any, _Known | None] = {}
        self._modules: dict[str, Any] = {}
        self._bytes = 0
        self.import_units: set[str] = set()  # what ran before the first test
        self._import_codes: dict[Any, str | None] = {}

    def begin(self, nodeid: str) -> None:
        name = nodeid.split("::", 1)[0]
        if name not in self.files:
            self.files[name] = {"touched": set(), "calls": {}, "seen": {}, "attempts": {}, "failures": {},
                                "covering": {}, "tests": {}, "units": {}}  # fmt: skip
        self.current, self._record = nodeid, self.files[name]
        self._index = self._record["tests"].setdefault(nodeid, len(self._record["tests"]))
        self._noted, self._tries = set(), {}

    def end(self) -> None:
        self.current, self._record = None, None

    def hook(self, frame: Any, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        if self._record is None:
            self._imported(code)
            return
        known = self._codes.get(code, _UNSEEN)
        if known is _UNSEEN:
            known = self._codes[code] = self._identify(code)
        if known is None or known in self._noted:
            return
        self._note(known, frame)  # type: ignore[arg-type]

    def _imported(self, code: Any) -> None:
        # Modules are still being filled in: what a name reaches is not known yet, so nothing is cached
        # for the tests' sake, only the unit.
        unit = self._import_codes.get(code, "")
        if unit == "":
            file = self._where(code)
            unit = self._import_codes[code] = unit_of(file, code) if file is not None else None
        if unit is not None:
            self.import_units.add(unit)

    def _note(self, known: _Known, frame: Any) -> None:
        record = self._record
        if record is None:
            return
        record["touched"].add(known.file)
        record["units"].setdefault(known.unit, set()).add(self._index)
        function = known.function
        if function is None:
            self._noted.add(known)
            return
        record["covering"].setdefault(function.key, set()).add(self.current)
        tries = self._tries.get(known, 0) + 1
        self._tries[known] = tries
        if not self._capture(record, function, frame) or tries >= TRIES_PER_TEST:
            self._noted.add(known)  # enough of this function's calls from this test

    def _capture(self, record: dict[str, Any], function: _Function, frame: Any) -> bool:
        """Pickle this call; False once the function's calls from this test file are complete."""
        key = function.key
        attempts = record["attempts"].get(key, 0)
        calls = record["calls"].setdefault(key, [])
        failures = record["failures"].get(key, 0)
        if (attempts >= ATTEMPT_LIMIT or len(calls) >= CAPTURE_LIMIT or failures >= FAILURE_LIMIT
                or self._bytes > BYTES_LIMIT):  # fmt: skip
            return False  # a hot function: pickling every call would cost more than the tests
        record["attempts"][key] = attempts + 1
        data = _pickled(frame_arguments(frame), function.refs)
        if data is None or len(data) > CALL_BYTES_LIMIT:
            record["failures"][key] = failures + 1  # e.g. a whole grammar or tree as `self`: rarely worth it
            return True
        seen = record["seen"].setdefault(key, {})
        if data not in seen:
            seen[data] = len(calls)
            calls.append([base64.b64encode(data).decode("ascii"), False])
            self._bytes += len(data)
        if self.current in self.outcomes.benchmarked:
            calls[seen[data]][1] = True
        return True

    def _where(self, code: Any) -> str | None:
        """The project file of this code, relative to the project; None for code outside it."""
        if code.co_filename.startswith("<"):
            return None  # frozen modules, code made by exec or compile
        path: str = os.path.realpath(code.co_filename)
        if not path.startswith(self.project) or "site-packages" in path:
            return None
        return path[len(self.project):]

    def _identify(self, code: Any) -> _Known | None:
        file = self._where(code)
        if file is None:
            return None
        unit = unit_of(file, code)
        qualname = getattr(code, "co_qualname", code.co_name)
        module = self._module(self.project + file)
        if module is None or "<" in qualname or qualname.count(".") > 1:
            return _Known(file, unit, None)
        owner: Any = module
        *classes, name = qualname.split(".")
        if classes:
            owner = vars(module).get(classes[0])
        function = versions.static_function(owner, name) if owner is not None else None
        if getattr(function, "__code__", None) is not code:
            return _Known(file, unit, None)
        refs = dict(versions.protected_objects(module))
        for default, value in versions.defaults_of(function).items():  # type: ignore[arg-type]
            if not versions.is_plain(value):
                refs[id(value)] = "default:" + default
        return _Known(file, unit, _Function(f"{module.__name__}:{qualname}", refs))

    def _module(self, path: str) -> Any:
        if path not in self._modules:
            self._modules[path] = None
            for module in list(sys.modules.values()):
                file = getattr(module, "__file__", None)
                if isinstance(file, str) and os.path.realpath(file) == path:
                    self._modules[path] = module
                    break
        return self._modules[path]

    def result(self) -> dict[str, Any]:
        """Per test file: its tests' outcomes, the files they ran, each function's calls and tests."""
        files: dict[str, dict[str, Any]] = {}
        for name in self.outcomes.collected:
            files[name] = Recorder._empty()
        for nodeid in self.outcomes.passed:
            files.setdefault(nodeid.split("::", 1)[0], self._empty())["passed"].append(nodeid)
        for nodeid, why in self.outcomes.failures.items():
            files.setdefault(nodeid.split("::", 1)[0], self._empty())["failed"][nodeid] = why
        for name, record in self.files.items():
            entry = files.setdefault(name, self._empty())
            entry["touched"] = sorted(record["touched"])
            entry["calls"] = record["calls"]
            entry["covering"] = {key: sorted(tests) for key, tests in record["covering"].items()}
            entry["tests"] = list(record["tests"])  # in the order they ran: the units' indexes
            entry["units"] = {unit: sorted(indexes) for unit, indexes in record["units"].items()}
        for entry in files.values():
            entry["passed"].sort()
        return files

    @staticmethod
    def _empty() -> dict[str, Any]:
        return {"tests": [], "passed": [], "failed": {}, "touched": [], "calls": {}, "covering": {}, "units": {}}


def capture_all(project: str, selection: list[str], only_files: list[str] | None,
                only_tests: list[str] | None = None, deadline_s: float | None = None) -> dict[str, Any]:  # fmt: skip
    """Run the project's tests (those the pytest arguments `selection` select; of those, only the
    ones in `only_files` or `only_tests` when `only_files` is given) once, capturing the calls of
    every function of the project; no test starts after `deadline_s` seconds."""
    deadline = time.monotonic() + deadline_s if deadline_s is not None else None
    outcomes = Outcomes(only_files, only_tests, deadline)
    recorder = Recorder(project, outcomes)
    run_pytest(project, selection, recorder, outcomes)
    return {"files": recorder.result(), "import_units": sorted(recorder.import_units),
            "unfinished": outcomes.unfinished, "collection_error": outcomes.collection_error}


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
    return {"passed": len(tests) - len(broken), "broken": broken[:1],
            "failure": outcomes.failures.get(broken[0], "it did not pass") if broken else None}


def _in_child(work: Any) -> dict[str, Any]:
    answer = checked_call.in_child(work, None)  # no deadline of its own: the check's timeout bounds it
    return answer if isinstance(answer, dict) else {"crashed": "an answer that is not an object"}


def run_in_child(version: versions.Version, project: str | None, tests: list[str]) -> dict[str, Any]:
    if project is None or not tests:
        return {"passed": 0, "broken": [], "failure": None}
    return _in_child(lambda: run_with_version(version, project, tests))
