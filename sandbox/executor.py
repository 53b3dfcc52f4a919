"""A version's own process: it loads the original or the new version and runs what the judge asks.

It never judges. Each checked call runs in a fresh child forked from this warm
process (nothing a call leaves behind reaches the next one), under a time
limit, and its outcome travels back to the judge as JSON (see encoding.encode):
the return value (iterators consumed to a bound), the exception type, the
arguments after the call, what it printed, and the lines it ran. Timing
rounds run here too, and the judge times them with its own clock.

The judge trusts nothing this process says: a hostile new version can at most
make its own answers wrong, late or missing, which is a failed check.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import os
import pickle
import signal
import sys
import time
import traceback
from typing import Any, Callable

from . import compare, encoding, wire

NEW_VERSION_FILE = "<new version>"  # the file name the new version's code objects carry
MESSAGE_LIMIT = 300


class CallTimeout(BaseException):
    """The call ran past its limit (a BaseException: `except Exception` in the code cannot swallow it)."""


class Version:
    """The original function, or the new version defined in a copy of the original's module."""

    def __init__(self, target: Any, candidate: str | None) -> None:
        self.module = importlib.import_module(target.module)
        self.owner: Any = self.module
        if target.class_name:
            self.owner = getattr(self.module, target.class_name)
        original = static_function(self.owner, target.function_name)
        if original is None:
            raise LookupError(f"{target.module} has no function {target.label}")
        self.original = original
        self.function = original if candidate is None else self._define(candidate, target.function_name)
        self.filename = self.function.__code__.co_filename
        self.globals_refs = protected_objects(self.module)

    def _define(self, source: str, name: str) -> Callable[..., Any]:
        namespace = dict(vars(self.module))
        exec(compile(source, NEW_VERSION_FILE, "exec"), namespace)
        function = namespace.get(name)
        if isinstance(function, (staticmethod, classmethod)):
            function = function.__func__
        if not callable(function):
            raise LookupError(f"the new version defines no function {name}")
        return function

    def refs(self) -> dict[int, str]:
        """Objects whose identity a caller can see: module-level objects and this version's defaults."""
        refs = dict(self.globals_refs)
        for name, value in defaults_of(self.function).items():
            if not is_plain(value):
                refs[id(value)] = "default:" + name
        return refs


_PLAIN = (type(None), bool, int, float, complex, str, bytes)


def is_plain(value: Any) -> bool:
    """A value whose identity no caller can rely on (small ints and strings are shared anyway)."""
    return isinstance(value, _PLAIN) or (type(value) is tuple and all(isinstance(v, _PLAIN) for v in value))


def static_function(owner: Any, name: str) -> Callable[..., Any] | None:
    raw = owner.__dict__.get(name) if hasattr(owner, "__dict__") else None
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__
    return getattr(owner, name, None)


def protected_objects(module: Any) -> dict[int, str]:
    return {id(value): "global:" + name for name, value in vars(module).items()
            if not is_plain(value) and not isinstance(value, type(module))}


def defaults_of(function: Callable[..., Any]) -> dict[str, Any]:
    code = function.__code__
    positional = code.co_varnames[: code.co_argcount]
    values = dict(zip(positional[len(positional) - len(function.__defaults__ or ()):], function.__defaults__ or ()))
    values.update(function.__kwdefaults__ or {})
    return values


class RefPickler(pickle.Pickler):
    """Pickles arguments with module-level objects and defaults as names, resolved by the receiver."""

    def __init__(self, stream: Any, refs: dict[int, str]) -> None:
        super().__init__(stream, protocol=pickle.HIGHEST_PROTOCOL)
        self._refs = refs

    def persistent_id(self, obj: Any) -> str | None:
        return self._refs.get(id(obj))


class RefUnpickler(pickle.Unpickler):
    def __init__(self, stream: Any, version: Version) -> None:
        super().__init__(stream)
        self._version = version

    def persistent_load(self, pid: Any) -> Any:
        kind, _, name = str(pid).partition(":")
        if kind == "global":
            return vars(self._version.module)[name]
        if kind == "default":
            return defaults_of(self._version.function)[name]
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def dumps_with_refs(value: Any, refs: dict[int, str]) -> bytes:
    """Pickled with module-level objects and defaults as names; lambdas and local classes by value
    (cloudpickle) where plain pickle cannot keep them."""
    stream = io.BytesIO()
    try:
        RefPickler(stream, refs).dump(value)
    except Exception:
        import cloudpickle

        class RefCloudPickler(cloudpickle.Pickler):  # type: ignore[misc]
            def persistent_id(self, obj: Any) -> str | None:
                return refs.get(id(obj))

        stream = io.BytesIO()
        RefCloudPickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return stream.getvalue()


def loads_with_refs(data: bytes, version: Version) -> Any:
    return RefUnpickler(io.BytesIO(data), version).load()


# -- one checked call ------------------------------------------------------------------------


class ArcTracer:
    """Which (line, next line) arcs of one file ran: coverage.py's arc convention, negative = the exit."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.arcs: set[tuple[int, int]] = set()

    def __enter__(self) -> ArcTracer:
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)

    def _call(self, frame: Any, event: str, arg: Any) -> Any:
        if event != "call" or frame.f_code.co_filename != self.filename:
            return None
        first = frame.f_code.co_firstlineno
        last = [-first]
        arcs = self.arcs

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                arcs.add((last[0], frame.f_lineno))
                last[0] = frame.f_lineno
            elif event == "return":
                arcs.add((last[0], -first))
            return local

        return local


def _alarm(signum: int, frame: Any) -> None:
    raise CallTimeout()


TRACED_SLOWDOWN = 20  # how much slower a loop runs traced (21-22x measured on the suite's loops)
TRACED_SHARE = 0.1  # of a call's time limit, for its traced run


def run_call(version: Version, payload: bytes, limit: float, trace: bool) -> dict[str, Any]:
    """One call, as the judge will compare it. Runs in a fresh child. A traced call that runs out
    of its share of the limit runs again untraced (a slow original would otherwise time out only
    because it was traced): its value is compared, and the lines the cut run reached are kept
    apart, as `cut_arcs`: they ran, but not in a run whose result anyone compared."""
    if not trace:
        return _run_call(version, payload, limit, False)
    traced = _run_call(version, payload, limit * TRACED_SHARE, True)
    if not traced.get("timeout"):
        return traced
    untraced = _run_call(version, payload, limit, False)
    untraced["cut_arcs"] = traced["arcs"]
    return untraced


def _run_call(version: Version, payload: bytes, limit: float, trace: bool) -> dict[str, Any]:
    args, kwargs = loads_with_refs(payload, version)
    refs = version.refs()
    result_refs = dict(refs)
    for index, value in enumerate(args):
        if not is_plain(value):
            result_refs.setdefault(id(value), f"arg:{index}")
    # Iterators among the arguments are left unread: reading them would leave the call nothing. A call
    # given one may use it up, so such inputs count as changed (timing then gives every loop a fresh copy).
    before = encoding.encode((args, kwargs), refs=refs, consume=False)
    takes_iterators = _has_iterator((*args, *kwargs.values()))
    printed = io.StringIO()
    outcome: dict[str, Any] = {"raised": None}
    tracer = ArcTracer(version.filename) if trace else contextlib.nullcontext()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    started = time.perf_counter()
    try:
        with contextlib.redirect_stdout(printed), tracer:
            value = version.function(*args, **kwargs)
            # Iterators are consumed inside the limit, with the tracer on: their lines count.
            outcome["value"] = encoding.encode(value, refs=result_refs)
    except CallTimeout:
        outcome = {"timeout": True}
    except BaseException as error:
        outcome["raised"] = {"type": type(error).__qualname__, "message": _short(error),
                             "deliberate": _raised_by_own_code(error, version.filename)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    outcome["seconds"] = time.perf_counter() - started
    if "timeout" not in outcome:
        # Now iterator arguments are read too: what a call left of them is what its caller sees next.
        outcome["args_after"] = encoding.encode((args, kwargs), refs=refs)
        outcome["mutated"] = takes_iterators or compare.compare(before, outcome["args_after"]) is not None
        outcome["printed"] = printed.getvalue()[-10000:]
    if trace:
        outcome["arcs"] = sorted(tracer.arcs)  # type: ignore[union-attr]
    return outcome


def _raised_by_own_code(error: BaseException, filename: str) -> bool:
    """Whether a `raise` statement of the version's own file raised it (`raise TypeError(...)`),
    not a builtin it called (`len(None)`): the first means the code rejects such input on purpose."""
    import linecache

    last = None
    traceback = error.__traceback__
    while traceback is not None:
        last = traceback
        traceback = traceback.tb_next
    if last is None or last.tb_frame.f_code.co_filename != filename:
        return False
    return linecache.getline(filename, last.tb_lineno).lstrip().startswith("raise")


def _has_iterator(values: tuple[Any, ...]) -> bool:
    import collections.abc

    return any(isinstance(value, collections.abc.Iterator) for value in values)


def _short(error: BaseException) -> str:
    try:
        text = str(error)
    except BaseException:
        text = "<unprintable>"
    return text[:MESSAGE_LIMIT]


def call_in_child(version: Version, payload: bytes, limit: float, trace: bool) -> dict[str, Any]:
    """`run_call` in a forked child; a child that dies, hangs or floods is an answer too."""
    answers = calls_in_child(version, [payload], limit, trace)
    return answers[0]


def calls_in_child(version: Version, payloads: list[bytes], limit: float, trace: bool) -> list[dict[str, Any]]:
    """`run_call` on each payload, one after the other, in one fresh child of this process (a fork
    per call would cost more than the calls); one answer per payload, or a single `crashed` one when
    the child died, hung or flooded."""
    deadline = time.monotonic() + ((1 + TRACED_SHARE) * limit + 1.0) * len(payloads) + 5.0
    answer = in_child(lambda: [run_call(version, payload, limit, trace) for payload in payloads], deadline)
    if not isinstance(answer, list) or not all(isinstance(item, dict) for item in answer):
        return [answer if isinstance(answer, dict) and "crashed" in answer else
                {"crashed": "an answer that is not a list of objects"}]
    return answer


def in_child(work: Callable[[], Any], deadline: float | None) -> Any:
    """`work()` in a fresh fork of this process, its result back as JSON; {"crashed": why} when the
    child died, missed the deadline or answered more than the wire allows."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(read_end)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            wire.send_json(write_end, work())
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    try:
        return wire.receive_json(read_end, deadline)
    except wire.ChannelClosed as problem:
        return {"crashed": str(problem)}
    finally:
        os.close(read_end)
        _reap(pid)


def _reap(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


# -- timing and profile ----------------------------------------------------------------------


class Workload:
    """Inputs to time with, unpickled once; fresh copies per loop when the function mutates them."""

    def __init__(self, version: Version, payloads: list[bytes], mutates: bool) -> None:
        self.mutates = mutates
        self.copies = [_copier(payload, version) for payload in payloads]
        self.calls = [copy() for copy in self.copies]

    def batches(self, loops: int) -> list[list[Any]]:
        if not self.mutates:
            return [self.calls] * loops
        return [[copy() for copy in self.copies] for _ in range(loops)]


def _copier(payload: bytes, version: Version) -> Callable[[], Any]:
    """A maker of fresh copies of one input. Plain unpickling costs a third of unpickling with
    references, and a round of a function that changes its inputs makes a copy per call."""
    try:
        pickle.loads(payload)
    except Exception:  # it names module-level objects or defaults: they must be this version's
        return functools.partial(loads_with_refs, payload, version)
    return functools.partial(pickle.loads, payload)


def _timed_round(version: Version, workload: Workload, loops: int, requests: int, answers: int) -> dict[str, Any]:
    """Copies are made first; then the judge says go and times the round with its own clock."""
    batches = workload.batches(loops)
    function = version.function
    wire.send_json(answers, {"prepared": True})
    wire.receive(requests)
    with contextlib.redirect_stdout(io.StringIO()):
        started = time.perf_counter()
        for batch in batches:
            for args, kwargs in batch:
                function(*args, **kwargs)
        return {"seconds": time.perf_counter() - started}


def profile_rows(version: Version, workload: Workload, top: int = 8) -> str:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    batch = workload.batches(1)[0]
    with contextlib.redirect_stdout(io.StringIO()):
        profiler.enable()
        for args, kwargs in batch:
            with contextlib.suppress(Exception):
                version.function(*args, **kwargs)
        profiler.disable()
    rows = []
    for (filename, line, name), (_, calls, own, total, _) in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        if name == "<method 'disable' of '_lsprof.Profiler' objects>":
            continue
        rows.append((own, total, calls, name, filename, line))
    rows.sort(reverse=True)
    spent = sum(row[0] for row in rows) or 1.0
    lines = []
    for own, total, calls, name, filename, line in rows[:top]:
        where = "" if filename == "~" else f" ({os.path.basename(filename)}:{line})"
        # Coarse shares, not milliseconds: the same code gives the same prompt on the next run.
        lines.append(f"{name[:80]}{where}: {calls} calls, about {_share(own, spent)}% of the time in its own code, "
                     f"{_share(total, spent)}% with what it calls")
    return "\n".join(lines)


def _share(seconds: float, spent: float) -> int:
    return min(100, round(seconds / spent * 10) * 10)


# -- the server loop -------------------------------------------------------------------------


def serve(requests: int, answers: int, target: Any, candidate: str | None, project: str | None,
          project_tests: Any) -> None:
    """Load the version, then answer the judge's requests until it says stop or goes away."""
    try:
        version = Version(target, candidate)
    except BaseException as error:
        wire.send_json(answers, {"ready": False, "error": f"{type(error).__name__}: {_short(error)}"})
        return
    wire.send_json(answers, {"ready": True})
    workload: Workload | None = None
    while True:
        try:
            request = pickle.loads(wire.receive(requests))
        except (wire.ChannelClosed, EOFError):
            return
        kind = request["kind"]
        if kind == "stop":
            return
        if kind == "call":
            answer = call_in_child(version, request["payload"], request["limit"], request["trace"])
        elif kind == "calls":
            answer = {"answers": calls_in_child(version, request["payloads"], request["limit"], request["trace"])}
        elif kind == "workload":
            workload = Workload(version, request["payloads"], request["mutates"])
            answer = {"calls": len(workload.calls)}
        elif kind == "round":
            answer = _timed_round(version, workload, request["loops"], requests, answers)  # type: ignore[arg-type]
        elif kind == "profile":
            answer = {"profile": profile_rows(version, workload)}  # type: ignore[arg-type]
        elif kind == "pin":
            with contextlib.suppress(AttributeError, OSError):
                os.sched_setaffinity(0, request["cpus"])  # onto the timing CPU and back (judge.Gate)
            answer = {"pinned": True}
        else:
            answer = _project_request(version, request, project, project_tests)
        wire.send_json(answers, answer)


def _project_request(
    version: Version, request: dict[str, Any], project: str | None, project_tests: Any
) -> dict[str, Any]:
    if request["kind"] == "tests":
        answer: dict[str, Any] = project_tests.run_in_child(version, project, request["tests"])
        return answer
    return {"crashed": "unknown request {!r}".format(request["kind"])}


def main_for_child(requests: int, answers: int, target: Any, candidate: str | None, project: str | None) -> None:
    code = 0
    try:
        from . import project_tests  # now: the package's names are hidden below

        # Code under test finds none of the checker's modules by name (it could behave otherwise if it did).
        for name in [name for name in sys.modules if name == __package__ or name.startswith(f"{__package__}.")]:
            del sys.modules[name]
        serve(requests, answers, target, candidate, project, project_tests)
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        code = 1
    finally:
        os._exit(code)
