"""What the project's tests call, recorded while they run: the calls of the functions asked for
(a bounded sample, pickled within limits), the tests that call each function of the project, and
the tests that ran each piece of its code.

One global trace function sees each Python call once (it returns None: no line events). A code
object is identified once per run; after its first call in a test it costs a dictionary lookup and
a comparison, and calls are pickled only for the functions asked for, at a few points of each test
(its 1st, 2nd, 4th... call: a loop's later calls differ more than its first ones), under limits of
count, size and time.
"""

from __future__ import annotations

import base64
import os
import pickle
import sys
import time
from collections.abc import Callable
from typing import Any

from . import versions
from .outcomes import Outcomes

CAPTURE_LIMIT = 100  # distinct calls kept per function and test file
ATTEMPT_LIMIT = 200  # calls pickled per function and test file, at most
SAMPLE_POINTS = frozenset({1, 2, 4, 8, 16, 32})  # which of a function's calls in one test are pickled
LAST_SAMPLE = max(SAMPLE_POINTS)
FAILURE_LIMIT = 3  # calls per function and test file that cannot be kept (unpicklable, too big) before it stops
CALL_BYTES_LIMIT = 64 << 10  # a call's arguments bigger than this are not kept (pickling stops there)
BYTES_LIMIT = 24 << 20  # all calls kept, at most (the answer travels as JSON)
# Pickling may take this share of the run's time so far (plus the allowance): what bounds the cost
# of recording whatever the tests pass around.
PICKLE_SHARE = 0.25
PICKLE_ALLOWANCE_S = 0.5


class _TooBig(Exception):
    """A call's pickle went past CALL_BYTES_LIMIT: stopped there rather than finished and dropped."""


class _Bounded:
    """A stream that refuses more than CALL_BYTES_LIMIT bytes (the pickler writes frame by frame)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, data: Any) -> int:
        self.size += len(data)
        if self.size > CALL_BYTES_LIMIT:
            raise _TooBig
        self.parts.append(bytes(data))
        return len(data)


def pickled(call: Any, refs: dict[int, str]) -> bytes | None:
    """The call pickled as versions.dumps_with_refs pickles it; None when it cannot be kept: it does
    not pickle, or it is too big (found out after CALL_BYTES_LIMIT bytes, not after the whole)."""
    stream = _Bounded()
    try:
        versions.RefPickler(stream, refs).dump(call)
    except _TooBig:
        return None
    except Exception:
        stream = _Bounded()
        try:
            import cloudpickle

            class RefCloudPickler(cloudpickle.Pickler):  # type: ignore[misc]
                def persistent_id(self, obj: Any) -> Any:
                    return versions.persistent_id(obj, refs)

            RefCloudPickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump(call)
        except Exception:
            return None
    return b"".join(stream.parts)


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


class _Function:
    """A function of the project that a name reaches: its key (`module:qualname`), whether its calls
    are recorded, and what its pickles refer to by name (found when first needed)."""

    def __init__(self, key: str, module: Any, function: Any, recorded: bool) -> None:
        self.key, self.module, self.function, self.recorded = key, module, function, recorded
        self._refs: dict[int, str] | None = None

    def refs(self, by_module: dict[str, dict[int, str]]) -> dict[int, str]:
        if self._refs is None:
            name = self.module.__name__
            if name not in by_module:
                by_module[name] = dict(versions.protected_objects(self.module))
            refs = dict(by_module[name])
            for default, value in versions.defaults_of(self.function).items():
                if not versions.is_plain(value):
                    refs[id(value)] = "default:" + default
            self._refs = refs
        return self._refs


class _Known:
    """A code object of the project's files: its file, its unit (see `unit_of`), the function it is
    when a name reaches it, and what the running test did with it so far."""

    def __init__(self, file: str, unit: str, function: _Function | None) -> None:
        self.file, self.unit, self.function = file, unit, function
        self.test = -1  # the serial of the test that last called it
        self.calls = 0  # its calls in that test
        self.done = False  # nothing more to note or pickle in that test


def unit_of(file: str, code: Any) -> str:
    """`file:qualname` of the function or method whose source holds this code (a closure's is its
    outermost function's); `file:<module>` for code outside any (a module, a class body, a lambda there)."""
    outer = getattr(code, "co_qualname", "<module>").split(".<locals>", 1)[0]
    return f"{file}:{'<module>' if '<' in outer else outer}"


_UNSEEN = object()


class Recorder:
    """Per test file: the calls each function asked for got, the tests that called each function of
    the project, and the project's files whose code its tests ran (what makes the file's record
    stale when one changes).

    Functions are told apart by module and qualified name (`pkg.mod:Class.method`); a code object
    that no module-level name reaches (a closure, a lambda) counts for its file only. `functions`
    are the keys whose calls are recorded (None: every function's).
    """

    def __init__(self, project: str, outcomes: Outcomes, functions: list[str] | None = None) -> None:
        self.project = os.path.realpath(project) + os.sep
        self.outcomes = outcomes
        self.functions = set(functions) if functions is not None else None
        self.current: str | None = None  # the running test's node id
        self.files: dict[str, dict[str, Any]] = {}
        self._record: dict[str, Any] | None = None  # the running test's file's record
        self._index = 0  # the running test's, in its file's record
        self._serial = 0  # counts the tests begun
        # By id: a code object's hash is computed from its contents at every lookup. The codes are
        # kept alive in `_alive`, so that no other takes an id while it is in there.
        self._codes: dict[int, _Known | None] = {}
        self._alive: list[Any] = []
        self._modules: dict[str, Any] = {}
        self._refs: dict[str, dict[int, str]] = {}
        self._bytes = 0
        self._started = time.perf_counter()
        self._pickling = 0.0  # seconds spent pickling
        self.import_units: set[str] = set()  # what ran before the first test
        self._import_codes: dict[Any, str | None] = {}
        self.hook = self._make_hook()

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
        self._serial += 1

    def end(self) -> None:
        self.current, self._record = None, None

    def _make_hook(self) -> Callable[[Any, str, Any], None]:
        # A closure, not a method: it runs on every call the tests make, and each attribute lookup counts.
        codes, unseen = self._codes, _UNSEEN
        recorder = self

        def hook(frame: Any, event: str, arg: Any) -> None:
            code = frame.f_code
            known = codes.get(id(code), unseen)
            if known is None:
                return
            if known is not unseen and known.done and known.test == recorder._serial:  # type: ignore[attr-defined]
                return
            recorder._slow(frame, code, known)

        return hook

    def _slow(self, frame: Any, code: Any, known: Any) -> None:
        if self._record is None:
            self._imported(code)
            return
        if known is _UNSEEN:
            self._alive.append(code)
            known = self._codes[id(code)] = self._identify(code)
            if known is None:
                return
        self._note(known, frame)

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
        function = known.function
        if known.test != self._serial:  # its first call in this test
            known.test, known.calls = self._serial, 0
            known.done = function is None or not function.recorded
            record["touched"].add(known.file)
            record["units"].setdefault(known.unit, set()).add(self._index)
            if function is not None:
                record["covering"].setdefault(function.key, set()).add(self.current)
        if known.done or function is None:
            return
        known.calls += 1
        if known.calls in SAMPLE_POINTS and not self._capture(record, function, frame):
            known.done = True  # enough of this function's calls from this test file
        if known.calls >= LAST_SAMPLE:
            known.done = True

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
        started = time.perf_counter()
        if self._pickling > PICKLE_ALLOWANCE_S + PICKLE_SHARE * (started - self._started):
            return True  # over the time share for now: a later call may be pickled
        record["attempts"][key] = attempts + 1
        try:
            data = pickled(frame_arguments(frame), function.refs(self._refs))
        finally:
            self._pickling += time.perf_counter() - started
        if data is None:
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
        key = f"{module.__name__}:{qualname}{role}"
        recorded = self.functions is None or key in self.functions
        return _Known(file, unit, _Function(key, module, function, recorded))

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
            files[name] = self._empty()
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
            entry["recorded"] = sorted(self.functions) if self.functions is not None else None
        return files

    def _empty(self) -> dict[str, Any]:
        return {"tests": [], "passed": [], "failed": {}, "touched": [], "calls": {}, "covering": {}, "units": {}}
