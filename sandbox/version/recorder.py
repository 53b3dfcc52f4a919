"""What the project's tests call, recorded while they run: the calls of the functions asked for
(a bounded sample, pickled within limits), the tests that call each function of the project, and
the tests that ran each piece of its code.

While the modules are imported and the tests collected, a trace function notes what runs, from the
first import of one of the project's files (pytest's own start is not traced); it is paid once, and
bounded: a suite that computes while it is collected would pay it on every call.
Before the first test, or after TRACED_CALLS calls, it is turned off and every function of the
project gets stub code (stubs.py). Until the first test a stub's call counts for the import, as
does every function made after the trace was cut (whether it ran is unseen). In a test, at a
function's first call the stub notes it and puts the real code back, and
the next test gives the stub back to those it ran. A function asked for keeps its stub while its
calls are sampled (a test function's call is kept in every test: the test, to run again), at a
few points of each test (its 1st, 2nd, 4th... call: a loop's later calls
differ more than its first ones) while those still give calls not kept yet, and at each call of a
kind not seen yet (`call_shape`: the arguments' types, emptiness, falsiness), under limits of count,
size and time: recording takes at most a share of the tests' own time, but for each function's
first call kept. The rest of a test runs at the speed of no recording.

What the stubs cannot see is counted where it is sound to (kept_tests.py relies on it): a module
first imported during a test counts, all its functions, for that test; code that got no stub (an
async generator, a generator already running when the tests began) counts as run on import. Not
seen: a generator resumed in a test after the one that started it counts for that one only.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import importlib.machinery
import inspect
import os
import pickle
import sys
import time
import types
from typing import Any

from . import project_objects, stubs, versions
from .fixture_values import FixtureValues
from .outcomes import Outcomes

CAPTURE_LIMIT = 100  # distinct calls kept per function and test file
ATTEMPT_LIMIT = 200  # calls pickled per function and test file, at most
SAMPLE_POINTS = frozenset({1, 2, 4, 8, 16, 32})  # which of a function's calls in one test are pickled
LAST_SAMPLE = max(SAMPLE_POINTS)
SHAPE_LIMIT = 16  # kinds of call per function and test file pickled beside the sample points
_CONTAINERS = (list, tuple, set, frozenset, dict)
_SCALARS = (bool, int, float, complex, str, bytes)
TRACED_CALLS = 200_000  # calls the import's trace function sees, at most: about a second of its cost
FAILURE_LIMIT = 3  # calls per function and test file that cannot be kept (unpicklable, too big) before it stops
RUN_FAILURE_LIMIT = 6  # such calls in the whole run, none kept, before it stops in every file
CALL_BYTES_LIMIT = 64 << 10  # a call's arguments bigger than this are not kept (pickling stops there)
BYTES_LIMIT = 24 << 20  # all calls kept, at most (the answer travels as JSON)
# Recording (looking at the calls' kinds, pickling them) may take this share of the rest of the run
# so far, plus the allowance: what keeps a recorded run within twice the tests' own time, whatever
# the tests pass around. A function's first call kept is recorded regardless: its inputs; and so is
# each test's call of its test function (which the checks run again: planner/replays.py).
RECORD_SHARE = 0.4
RECORD_ALLOWANCE_S = 0.1
# Pickles in a row of calls already kept, after which a function's calls from a test file are
# sampled only for kinds not seen yet: a test file that calls it the same way throughout gave them all.
STALE_LIMIT = 12


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


def pickled(call: Any, refs: dict[int, str], watched: stubs.Stubs | None = None) -> bytes | None:
    """The call pickled as versions.dumps_with_refs pickles it; None when it cannot be kept: it does
    not pickle, or it is too big (found out after CALL_BYTES_LIMIT bytes, not after the whole).
    A function pickled by value is pickled with its real code, not its stub's."""
    stream = _Bounded()
    try:
        versions.RefPickler(stream, refs, drawn=False).dump(call)
    except _TooBig:
        return None
    except Exception:
        stream = _Bounded()
        try:
            import cloudpickle

            class RefCloudPickler(cloudpickle.Pickler):  # type: ignore[misc]
                def persistent_id(self, obj: Any) -> Any:
                    return versions.persistent_id(obj, refs)

                def reducer_override(self, obj: Any) -> Any:
                    if watched is not None and isinstance(obj, types.FunctionType):
                        obj = watched.real_function(obj)
                    reduced = versions.reduction(obj)
                    return super().reducer_override(obj) if reduced is NotImplemented else reduced

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


def call_shape(frame: Any) -> tuple[Any, ...]:
    """The kinds of a call's arguments, found without pickling: each one's type, a container's
    emptiness and first item's type, a built-in scalar's falsiness (no project code runs)."""
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    values = frame.f_locals
    return tuple(_kind(values.get(name)) for name in code.co_varnames[:count])


def _kind(value: Any) -> Any:
    kind = type(value)
    if kind in _CONTAINERS:
        return (kind, type(next(iter(value))) if value else None)
    if kind in _SCALARS:
        return (kind, not value)
    return kind


class _Function:
    """A function of the project that a name reaches: its key (`module:qualname`), whether its calls
    are recorded, and what its pickles refer to by name (found when first needed)."""

    def __init__(self, key: str, module: Any, function: Any, recorded: bool, test: bool = False) -> None:
        self.key, self.module, self.function, self.recorded = key, module, function, recorded
        self.test = test  # a test function of a test file: each test's call of it is kept (planner/replays.py)
        self._refs: dict[int, str] | None = None
        self._named: project_objects.Named | None = None  # what `_refs` was made with

    def refs(self, by_module: dict[str, dict[int, str]], named: project_objects.Named) -> dict[int, str]:
        if self._refs is None or self._named is not named:
            self._named = named
            name = self.module.__name__
            if name not in by_module:
                # Its own module's objects by their global names, as a version names them; those of
                # the project's other modules by where they are found.
                own = project_objects.PREFIX + name + ":"
                others = {key: path for key, path in named.refs.items() if not path.startswith(own)}
                by_module[name] = {**others, **versions.protected_objects(self.module)}
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


class _FirstImport:
    """A finder that finds nothing: at the first top-level import found in the project's folder it
    starts the recorder's trace, and leaves the import to the finders after it."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if path is None:  # a submodule's package was imported first: it started the trace, or is not ours
            spec = importlib.machinery.PathFinder.find_spec(name)
            places = [spec.origin] if spec is not None and spec.origin else []
            places += list(spec.submodule_search_locations or ()) if spec is not None else []
            if any(os.path.realpath(place).startswith(self.recorder.project) for place in places):
                self.recorder._start_trace(self)
        return None


def unit_of(file: str, code: Any) -> str:
    """`file:qualname` of the function or method whose source holds this code (a closure's is its
    outermost function's); `file:<module>` for code outside any (a module, a class body, a lambda there)."""
    outer = getattr(code, "co_qualname", "<module>").split(".<locals>", 1)[0]
    return f"{file}:{'<module>' if '<' in outer else outer}"


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
        self._last: str | None = None  # the node id of the last test begun
        self._codes: dict[int, _Known] = {}  # by id: the codes stay alive in the stubs
        self._modules: dict[str, Any] = {}  # a project file (relative): its module
        self._paths: dict[str, str | None] = {}  # co_filename: the project file, relative
        self._refs: dict[str, dict[int, str]] = {}  # a module's name: what its functions' pickles name
        self._named: project_objects.Named | None = None
        self._named_modules = -1  # the project modules there were when `_named` was made
        self._bytes = 0
        self._started = time.perf_counter()
        self._own = 0.0  # seconds spent recording (see RECORD_SHARE)
        self._busy = False  # recording a call or a fixture now
        self._unkept: dict[str, int] = {}  # calls of a function that could not be kept (-1: one was)
        self.import_units: set[str] = set()  # what ran before the first test (or may run at any time)
        self._import_codes: dict[int, str | None] = {}
        self._alive: list[Any] = []  # what ids are kept of (`_import_codes`, `_watched`): alive, never reused
        self._stubs: stubs.Stubs | None = None
        self._hits: list[stubs.Entry] = []  # functions given their real code back in this test
        self._watched: set[int] = set()  # ids of the functions given a stub (kept alive by it)
        self._files: set[str] = set()  # the project files whose modules were looked for functions
        self._module_count = 0
        self._traced = 0  # calls seen by the trace function
        self._cut = False  # the trace was turned off before the first test: stubs note the import's calls
        self._fixtures = FixtureValues(self.functions, self._in_project)

    def hook(self, frame: Any, event: str, arg: Any) -> None:
        """The trace function while the modules are imported: the units that run then."""
        self._traced += 1
        if self._traced > TRACED_CALLS:
            try:
                self._cut_trace()
            except Exception:  # what the recorder cannot note must not fail the project's import
                self._cut = True
            return
        code = frame.f_code
        unit = self._import_codes.get(id(code), "")
        if unit == "":
            self._alive.append(code)
            file = self._where(code)
            unit = self._import_codes[id(code)] = unit_of(file, code) if file is not None else None
        if unit is not None:
            self.import_units.add(unit)

    def trace_from_first_import(self) -> None:
        """Turn the trace on at the first import of one of the project's files, not before: pytest's
        own start and its plugins' imports (tens of thousands of calls) are none of the project's."""
        sys.meta_path.insert(0, _FirstImport(self))

    @staticmethod
    def stop_watching_imports() -> None:
        sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, _FirstImport)]

    def _start_trace(self, finder: Any) -> None:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
        if self._serial == 0 and not self._cut:
            sys.settrace(self.hook)

    def _cut_trace(self) -> None:
        """Stubs from now on: what runs until the first test counts for the import (see `_adopt`)."""
        sys.settrace(None)
        self._stubs = self._make_stubs()
        self._adopt()
        self._cut = True

    def begin(self, nodeid: str) -> None:
        if self._serial == 0 and nodeid != self._last:
            sys.settrace(None)
            self.stop_watching_imports()
            if self._stubs is None:
                self._stubs = self._make_stubs()
            self._adopt(everything=self._cut)  # a module imported while the trace was cut went on after it
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
                "fixtures": {},
                "stale": {},
            }
        self.current, self._record = nodeid, self.files[name]
        self._index = self._record["tests"].setdefault(nodeid, len(self._record["tests"]))
        if nodeid != self._last:
            self._last = nodeid
            self._serial += 1
            for entry in self._hits:
                entry.function.__code__ = entry.stub
            self._hits.clear()

    def end(self) -> None:
        if len(sys.modules) != self._module_count:
            self._adopt()  # a module imported by the test: what it ran counts for the test
        self.current, self._record = None, None

    def _make_stubs(self) -> stubs.Stubs:
        # Closures, not methods: they run at every function's first call in each test.
        recorder, hits = self, self._hits

        def hook(index: int) -> Any:
            entry = entries[index]
            known = entry.known
            if recorder._record is None:  # between tests: nothing to note, but for the import's
                if recorder._serial == 0:
                    recorder.import_units.add(known.unit)
                entry.function.__code__ = entry.real
                hits.append(entry)
                return entry.function
            if known.test != recorder._serial:
                recorder._note(known)
            if not known.done:
                recorder._observe(known, sys._getframe(1))
                return entry.copy()
            entry.function.__code__ = entry.real
            hits.append(entry)
            return entry.function

        def nested_hook(index: int, cells: Any) -> Any:
            made = nested[index]
            if made.known.test != recorder._serial and recorder._record is not None:
                recorder._note(made.known)
            elif recorder._serial == 0:
                recorder.import_units.add(made.known.unit)
            return types.FunctionType(made.real, made.globals, made.code.co_name, None, cells)

        watched = stubs.Stubs(hook, nested_hook)
        entries, nested = watched.entries, watched.nested
        return watched

    def _adopt(self, everything: bool = False) -> None:
        """Give a stub to every function of the project that has none yet (looked for when a module
        was imported since, or `everything`). Those of a module imported during a test may have run
        in it unseen: their units count for that test; those made after the trace was cut and before
        the first test count for the import."""
        assert self._stubs is not None
        self._module_count = len(sys.modules)
        for module in list(sys.modules.values()):
            if (file := self._module_file(module)) is not None:
                self._modules.setdefault(file, module)
        files = set(self._modules)
        if not everything and not files - self._files:
            return
        new_files, self._files = files - self._files, self._files | files
        found: list[Any] = []
        for obj in gc.get_objects():
            if isinstance(obj, types.FunctionType):
                code = obj.__code__
                if (
                    id(obj) not in self._watched
                    and code.co_flags & inspect.CO_NEWLOCALS  # not a module or class body running (a cut trace)
                    and not self._stubs.is_known(code)
                    and self._where(code) is not None
                ):
                    found.append(obj)
            elif self._serial == 0 and isinstance(obj, (types.GeneratorType, types.CoroutineType)):
                running: Any = getattr(obj, "gi_code", None) or getattr(obj, "cr_code", None)
                if (file := self._where(running)) is not None:
                    self.import_units.add(unit_of(file, running))  # begun on import, it may go on in any test
        knowns = [self._known(function.__code__) for function in found]  # before any code is swapped
        first_nested, first_unwatched = len(self._stubs.nested), len(self._stubs.unwatched)
        for function, known in zip(found, knowns):
            entry = self._stubs.install(function)
            self._watched.add(id(function))
            if entry is not None:
                entry.known = known
            else:  # kept, or its id, once free, would hide another function (a comprehension's lives for one call)
                self._alive.append(function)
        for made in self._stubs.nested[first_nested:]:
            made.known = self._known(made.code)
        for code in self._stubs.unwatched[first_unwatched:]:
            self.import_units.add(self._known(code).unit)
        units = {known.unit for known in knowns if known.file in new_files} | {f"{f}:<module>" for f in new_files}
        if self._record is not None:
            for unit in units:
                self._record["units"].setdefault(unit, set()).add(self._index)
            self._record["touched"].update(new_files)
        elif self._cut and self._serial == 0:  # made after the trace was cut: whether they ran is unseen
            self.import_units.update(units | {known.unit for known in knowns})

    def _module_file(self, module: Any) -> str | None:
        file = getattr(module, "__file__", None)
        return self._project_file(file) if isinstance(file, str) else None

    def _note(self, known: _Known) -> None:
        """The first call in this test of a function: its file, its unit and its key."""
        record = self._record
        assert record is not None
        function = known.function
        known.test, known.calls = self._serial, 0
        known.done = function is None or not function.recorded
        record["touched"].add(known.file)
        record["units"].setdefault(known.unit, set()).add(self._index)
        if function is not None:
            record["covering"].setdefault(function.key, set()).add(self.current)

    def _observe(self, known: _Known, frame: Any) -> None:
        """A call in a test of a function asked for: pickled when it is of a kind not seen yet, or at a
        sample point while the function's calls still give new ones; within the time share, but for
        the function's first call kept. Past the share the function runs unwatched to the test's end."""
        assert self._record is not None and known.function is not None
        if self._busy:
            return  # called by the pickling of another call (a `__reduce__`): not the test's call
        started = time.perf_counter()
        key = known.function.key
        known.calls += 1
        self._busy = True
        try:
            whole = known.calls == 1 and known.function.test  # the test itself, to run again
            if whole or self._unkept.get(key, 0) >= 0 or not self._over_share(started):
                # A kind of call not seen yet is pickled too: the sample's points alone miss the
                # one int among a test's lists, which is what the inputs are widened from.
                fresh = self._record["stale"].get(key, 0) < STALE_LIMIT
                if self._new_shape(known, frame) or (fresh and known.calls in SAMPLE_POINTS):
                    self._sample(known, frame)
                if known.calls >= LAST_SAMPLE:
                    known.done = True
            else:
                known.done = True
        finally:
            self._busy = False
            self._own += time.perf_counter() - started

    def _over_share(self, now: float) -> bool:
        return self._own > RECORD_ALLOWANCE_S + RECORD_SHARE * (now - self._started - self._own)

    def _new_shape(self, known: _Known, frame: Any) -> bool:
        assert self._record is not None and known.function is not None
        shapes = self._record.setdefault("shapes", {}).setdefault(known.function.key, set())
        if len(shapes) >= SHAPE_LIMIT:
            return False
        shape = call_shape(frame)
        if shape in shapes:
            return False
        shapes.add(shape)
        return True

    def _sample(self, known: _Known, frame: Any) -> None:
        assert self._record is not None and known.function is not None
        if not self._capture(self._record, known.function, frame):
            known.done = True  # enough of this function's calls from this test file

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
            or self._unkept.get(key, 0) >= RUN_FAILURE_LIMIT
            or self._bytes > BYTES_LIMIT
        ):
            return False  # a hot function: pickling every call would cost more than the tests
        record["attempts"][key] = attempts + 1
        args, kwargs = frame_arguments(frame)
        if frame.f_code.co_name == "__init__" and args:
            args = (versions.Unbuilt(args[0]), *args[1:])
        data = pickled((args, kwargs), function.refs(self._refs, self._named_objects()), self._stubs)
        if data is None:
            record["failures"][key] = failures + 1  # e.g. a whole grammar or tree as `self`: rarely worth it
            if self._unkept.get(key, 0) >= 0:
                self._unkept[key] = self._unkept.get(key, 0) + 1
            return True
        self._unkept[key] = -1  # one kept: its other calls may be too
        seen = record["seen"].setdefault(key, {})
        if data not in seen:
            seen[data] = len(calls)
            calls.append([base64.b64encode(data).decode("ascii"), False])
            self._bytes += len(data)
            record["stale"][key] = 0
        else:
            record["stale"][key] = record["stale"].get(key, 0) + 1
        if self.current in self.outcomes.benchmarked:
            calls[seen[data]][1] = True
        return True

    def fixture(self, value: Any) -> None:
        """A value a fixture of the tests made: pickled (within the limits and the time share of
        the calls) for the functions asked for that take it, or its items."""
        record = self._record
        if record is None or self._busy:
            return
        for item, takers in self._fixtures.wanted(value):
            started = time.perf_counter()
            if self._bytes > BYTES_LIMIT or self._over_share(started):
                return  # over the time share: a later fixture may be pickled
            self._busy = True
            try:
                data = pickled(item, {}, self._stubs)
            finally:
                self._busy = False
                self._own += time.perf_counter() - started
            if data is None or not self._fixtures.keep(item, data):
                continue  # one that does not pickle (or is too big) is left out
            self._bytes += len(data)
            text = base64.b64encode(data).decode("ascii")
            for key in takers:
                record["fixtures"].setdefault(key, []).append(text)

    def _named_objects(self) -> project_objects.Named:
        """The project modules' objects by name, found again once more of its modules are imported."""
        if self._named is None or self._named_modules != len(self._modules):
            try:
                self._named = project_objects.named_objects(None, [self.project])
            except Exception:  # a module whose values cannot be walked: its objects travel as values
                self._named = project_objects.Named({}, ())
            self._named_modules = len(self._modules)
            self._refs.clear()
        return self._named

    def _in_project(self, cls: type) -> bool:
        name = getattr(cls, "__module__", None)
        return isinstance(name, str) and self._module_file(sys.modules.get(name)) is not None

    def _where(self, code: Any) -> str | None:
        """The project file of this code, relative to the project; None for code outside it."""
        return self._project_file(code.co_filename)

    def _project_file(self, filename: str) -> str | None:
        if filename not in self._paths:
            path = os.path.realpath(filename)
            inside = not filename.startswith("<") and path.startswith(self.project) and "site-packages" not in path
            self._paths[filename] = path[len(self.project) :] if inside else None  # not frozen, exec'd or compiled code
        return self._paths[filename]

    def _known(self, code: Any) -> _Known:
        """What a code object of the project's files is (its function found while it is not a stub)."""
        known = self._codes.get(id(code))
        if known is None:
            known = self._codes[id(code)] = self._identify(code)
        return known

    def _identify(self, code: Any) -> _Known:
        file = self._where(code)
        assert file is not None
        unit = unit_of(file, code)
        qualname = getattr(code, "co_qualname", code.co_name)
        module = self._module(file)
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
        test = file in self.outcomes.collected and name.startswith("test")
        recorded = self.functions is None or key in self.functions or test
        return _Known(file, unit, _Function(key, module, function, recorded, test))

    def _module(self, file: str) -> Any:
        """The module of a project file (relative to the project), if one was imported."""
        return self._modules.get(file)

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
            entry["fixtures"] = record["fixtures"]
        for entry in files.values():
            entry["passed"].sort()
            entry["recorded"] = sorted(self.functions) if self.functions is not None else None
        return files

    def _empty(self) -> dict[str, Any]:
        return {"tests": [], "passed": [], "failed": {}, "touched": [], "calls": {}, "covering": {}, "units": {}}
