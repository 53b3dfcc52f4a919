"""One checked call, in a version's process: run in a fresh child forked from it, under a time limit,
traced where the judge asks for the lines it ran; its outcome (the value, the exception, the
arguments afterwards, what it printed, what it changed of its process) travels back to the judge
as JSON."""

from __future__ import annotations

import collections
import contextlib
import io
import os
import signal
import sys
import time
from typing import Any, Callable

from .. import wire
from ..values import comparison, encoding
from . import conditions, process_state
from .versions import Version, is_plain, loads_with_refs

MESSAGE_LIMIT = 300


class CallTimeout(BaseException):
    """The call ran past its limit (a BaseException: `except Exception` in the code cannot swallow it)."""


class ArcTracer:
    """Which (line, next line) arcs of one file ran: coverage.py's arc convention, negative = the exit;
    and on the lines where an expression branches (`hot`), which way each condition went
    (conditions.py): opcode events there only, so other lines cost what line tracing costs."""

    def __init__(self, filename: str, hot: frozenset[int] = frozenset()) -> None:
        self.filename, self.hot = filename, hot
        self.arcs: set[tuple[int, int]] = set()
        self.outcomes: set[str] = set()

    def __enter__(self) -> ArcTracer:
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)

    def _call(self, frame: Any, event: str, arg: Any) -> Any:
        if event != "call" or frame.f_code.co_filename != self.filename:
            return None
        code = frame.f_code
        first = code.co_firstlineno
        last = [-first]
        pending: list[int | None] = [None]  # the offset of a conditional jump just run
        arcs, outcomes, hot = self.arcs, self.outcomes, self.hot
        jumps = conditions.jumps(code) if hot else frozenset()

        def went(frame: Any, watching: bool) -> None:
            if pending[0] is not None:
                outcomes.add(conditions.outcome(code, pending[0], frame.f_lasti))
            pending[0] = frame.f_lasti if watching and frame.f_lasti in jumps else None

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                went(frame, True)
            elif event == "line":
                arcs.add((last[0], frame.f_lineno))
                last[0] = frame.f_lineno
                if jumps:
                    # The line's first instruction gets its opcode event only where the line is hot.
                    frame.f_trace_opcodes = frame.f_lineno in hot
                    if not frame.f_trace_opcodes:
                        went(frame, False)
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
    # Iterators among the arguments are left unread: reading them would leave the call nothing. A call
    # given one may use it up, so such inputs count as changed (timing then gives every loop a fresh copy).
    before = encoding.encode((args, kwargs), refs=version.argument_refs(refs), consume=False)
    takes_iterators = _has_iterator((*args, *kwargs.values()))
    printed = io.StringIO()
    outcome: dict[str, Any] = {"raised": None}
    tracer = ArcTracer(version.filename, version.hot) if trace else contextlib.nullcontext()
    state = process_state.snapshot()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    started = time.perf_counter()
    try:
        with contextlib.redirect_stdout(printed), tracer:
            value = version.function(*args, **kwargs)
            refs = version.refs()  # the module's names as the call left them
            # Iterators are consumed inside the limit, with the tracer on: their lines count.
            outcome["value"] = encoding.encode(value, refs=results_refs(refs, args))
    except CallTimeout:
        outcome = {"timeout": True}
    except BaseException as error:
        outcome["raised"] = {
            "type": type(error).__qualname__,
            "message": short(error),
            "deliberate": _raised_by_own_code(error, version.filename),
        }
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    outcome["seconds"] = time.perf_counter() - started
    if "timeout" not in outcome:
        # Now iterator arguments are read too: what a call left of them is what its caller sees next.
        outcome["args_after"] = encoding.encode((args, kwargs), refs=version.argument_refs(refs))
        outcome["mutated"] = takes_iterators or comparison.compare(before, outcome["args_after"]) is not None
        outcome["printed"] = printed.getvalue()[-10000:]
        outcome["process"] = process_state.changes(state, process_state.snapshot())
    if trace:
        outcome["arcs"] = sorted(tracer.arcs)  # type: ignore[union-attr]
        outcome["conditions"] = sorted(tracer.outcomes)  # type: ignore[union-attr]
    return outcome


def results_refs(refs: dict[int, str], args: tuple[Any, ...]) -> dict[int, str]:
    """The references a result is encoded with: module-level objects, the call's own arguments (a
    function that returns its argument returns that object, not an equal one), and every mutable
    part of them (`arg:0.items`): a result that shares a list with an argument (a "copy" that takes
    the original's list) changes when the caller changes the other, an equal fresh one does not."""
    found = dict(refs)
    for index, value in enumerate(args):
        for path, part in _mutable_parts(value, f"arg:{index}"):
            found.setdefault(id(part), path)
    return found


_MUTABLE = (list, dict, set, bytearray, collections.deque)
MAX_PARTS = 5_000  # parts of the arguments named per call: enough for any argument a check draws
MAX_PART_DEPTH = 6


def _mutable_parts(value: Any, name: str) -> list[tuple[str, Any]]:
    """(path, object) for `value` and the mutable objects inside it, breadth first: items of lists,
    tuples and deques, values of dicts, attributes of instances (their `__dict__`, never a property:
    nothing of the user's runs). Iterators are not entered (reading one would consume it)."""
    found: list[tuple[str, Any]] = []
    seen: set[int] = set()
    pending: collections.deque[tuple[str, Any, int]] = collections.deque([(name, value, 0)])
    while pending and len(found) < MAX_PARTS:
        path, item, depth = pending.popleft()
        if is_plain(item) or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, _MUTABLE) or _instance_state(item) is not None:
            found.append((path, item))
        if depth >= MAX_PART_DEPTH:
            continue
        pending.extend((f"{path}{suffix}", child, depth + 1) for suffix, child in _children(item))
    return found


def _children(item: Any) -> list[tuple[str, Any]]:
    if type(item) in (list, tuple, collections.deque):
        return [(f"[{index}]", child) for index, child in enumerate(list(item)[:MAX_PARTS])]
    if type(item) is dict:
        return [(f"[{key!r}]", child) for key, child in list(item.items())[:MAX_PARTS] if is_plain(key)]
    state = _instance_state(item)
    return [(f".{key}", child) for key, child in state.items() if isinstance(key, str)] if state else []


def _instance_state(item: Any) -> dict[str, Any] | None:
    """An instance's own attributes (its `__dict__`, then its slots), or None for a builtin value."""
    if type(item).__module__ == "builtins":
        return None
    state: dict[str, Any] = {}
    with contextlib.suppress(AttributeError, TypeError):
        state.update(object.__getattribute__(item, "__dict__"))
    for cls in type(item).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__"):
                with contextlib.suppress(AttributeError, TypeError):
                    state.setdefault(slot, object.__getattribute__(item, slot))
    return state


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


def short(error: BaseException) -> str:
    try:
        text = str(error)
    except BaseException:
        text = "<unprintable>"
    return text[:MESSAGE_LIMIT]


def call_in_child(version: Version, payload: bytes, limit: float, trace: bool, moved: bool = False) -> dict[str, Any]:
    """`run_call` in a forked child; a child that dies, hangs or floods is an answer too."""
    answers = calls_in_child(version, [payload], limit, trace, moved)
    return answers[0]


def calls_in_child(
    version: Version,
    payloads: list[bytes],
    limit: float,
    trace: bool,
    moved: bool = False,
    stop_at_timeout: bool = False,
) -> list[dict[str, Any]]:
    """`run_call` on each payload, one after the other, in one fresh child of this process (a fork
    per call would cost more than the calls); one answer per payload, or a single `crashed` one when
    the child died, hung or flooded. `moved`: the child's new objects at other addresses than an
    unmoved twin's would be (see _moved). `stop_at_timeout`: the answers end with the first call
    that ran out of time (a new version that hangs has failed: the rest of its batch would only
    wait for the limit again and again)."""
    deadline = time.monotonic() + ((1 + TRACED_SHARE) * limit + 1.0) * len(payloads) + 5.0

    def work() -> list[dict[str, Any]]:
        kept = _moved() if moved else None
        answers = []
        for payload in payloads:
            answers.append(run_call(version, payload, limit, trace))
            if stop_at_timeout and answers[-1].get("timeout"):
                break
        del kept
        return answers

    answer = in_child(work, deadline)
    if not isinstance(answer, list) or not all(isinstance(item, dict) for item in answer):
        return [
            answer
            if isinstance(answer, dict) and "crashed" in answer
            else {"crashed": "an answer that is not a list of objects"}
        ]
    return answer


def _moved() -> list[Any]:
    """Blocks of every small size kept alive, so that what the calls make next lands at other
    addresses: a twin of the same process, unmoved, would otherwise give a result that shows an
    address (`hash()` or `repr()` of an iterator) the very same one, by the same allocations.
    Objects no free list recycles (bytes, large ints, bare objects), one size class of the
    allocator after the other, and enough of each to reach past the block a twin would take next."""
    per_class = 64
    return (
        [object() for _ in range(per_class)]
        + [(1 << 40) + index for index in range(per_class)]
        + [bytes(length) for length in range(15, 480, 16) for _ in range(per_class)]
    )


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
