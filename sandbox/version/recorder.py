"""What the project's tests call, recorded while they run: each function's calls (pickled,
within limits), the tests that call it, and the tests that ran each function's code."""

from __future__ import annotations

import base64
import os
import sys
from typing import Any

from . import versions
from .outcomes import Outcomes

CAPTURE_LIMIT = 100  # distinct calls kept per function and test file
ATTEMPT_LIMIT = 200  # calls pickled per function and test file, at most
TRIES_PER_TEST = 6  # calls pickled per function and test, at most: the calls of many tests differ more
FAILURE_LIMIT = 3  # calls per function and test file that cannot be kept (unpicklable, too big) before it stops
CALL_BYTES_LIMIT = 64 << 10  # a call's arguments bigger than this are not kept
BYTES_LIMIT = 24 << 20  # all calls kept, at most (the answer travels as JSON)


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
            self.files[name] = {
                "touched": set(),
                "calls": {},
                "seen": {},
                "attempts": {},
                "failures": {},
                "covering": {},
                "tests": {},
                "units": {},
            }
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
        if (
            attempts >= ATTEMPT_LIMIT
            or len(calls) >= CAPTURE_LIMIT
            or failures >= FAILURE_LIMIT
            or self._bytes > BYTES_LIMIT
        ):
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
        return path[len(self.project) :]

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
        function, role = versions.function_of_code(owner, name, code) if owner is not None else (None, "")
        if function is None:
            return _Known(file, unit, None)
        refs = dict(versions.protected_objects(module))
        for default, value in versions.defaults_of(function).items():
            if not versions.is_plain(value):
                refs[id(value)] = "default:" + default
        return _Known(file, unit, _Function(f"{module.__name__}:{qualname}{role}", refs))

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
