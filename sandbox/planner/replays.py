"""Calls met on the way: the function's calls made while the tests that call it run again.

The tests' run keeps a sample of each function's calls, within a share of the tests' own time
(version/recorder.py): a function that a test reaches late, deep under the calls of others (a
parser's pass over a tree), gets few, and maybe none of the inputs it acts on. Each test's own
call is kept whole (the test function and its arguments: parameters, fixtures' values, a test
case). Here the tests that call the function run again, one after the other, in a child of the
planner with the function watched: each call it gets is pickled as it starts, as the recorder
pickles it, until MET_LIMIT distinct ones or REPLAY_SECONDS, the limit shared out among the tests
(the host sends them spread over each file's, not its first ones alone). Nothing of the tests' run is trusted
beyond the planner's own process: the child answers in JSON, and what it answers is checked as
any captured call is, by both versions.
"""

from __future__ import annotations

import base64
import contextlib
import inspect
import os
import signal
import sys
import time
from collections.abc import Sequence
from typing import Any

from .. import contract
from ..version import checked_call, test_modules, versions
from ..version.recorder import frame_arguments

REPLAY_SECONDS = 4.0  # the tests' run again, per check, at most
MET_LIMIT = 100  # distinct calls kept, at most
FRAMES_LIMIT = 20_000  # calls of the function looked at, at most (a hot one is called in a loop)
TESTS_LIMIT = 256  # tests run again, at most
LOOKS_PER_KEPT = 8  # calls of it pickled in one test per call it may keep from there, at most
_RESUMED = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


class _Enough(Exception):
    """The time is up: the test running now stops here."""


def met_calls(
    tests: Sequence[tuple[str, Sequence[str]]], code: Any, refs: dict[int, str], blank_self: bool
) -> list[bytes]:
    """The calls of the function whose own code is `code` that the tests (test function's key, its
    kept calls) make, pickled with `refs` as the function's captured calls are; `blank_self`: the
    first argument is an `__init__`'s self, pickled as the blank instance it is."""
    if not tests:
        return []

    def work() -> dict[str, Any]:
        _quiet()
        return {"calls": [base64.b64encode(data).decode("ascii") for data in _replayed(tests, code, refs, blank_self)]}

    answer = checked_call.in_child(work, time.monotonic() + REPLAY_SECONDS + 5.0)
    found: list[bytes] = []
    if isinstance(answer, dict) and isinstance(answer.get("calls"), list):
        for text in answer["calls"][:MET_LIMIT]:
            with contextlib.suppress(ValueError, TypeError):
                found.append(base64.b64decode(text, validate=True))
    return found


def _replayed(tests: Sequence[tuple[str, Sequence[str]]], code: Any, refs: dict[int, str], blank: bool) -> list[bytes]:
    kept: dict[bytes, None] = {}
    frames: list[Any] = []  # alive, so that a generator's resumption is told from a new call by its frame
    seen: set[int] = set()
    this_test: list[bytes] = []  # the calls kept from the test running now
    looked: list[Any] = []  # the calls looked at in the test running now
    runs = sum(len(calls) for _, calls in tests[:TESTS_LIMIT])
    per_test = max(1, MET_LIMIT // max(runs, 1))  # a test that loops gives more where there are few tests

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code is not code or len(this_test) >= per_test:
            return
        if len(kept) >= MET_LIMIT or len(frames) >= FRAMES_LIMIT or len(looked) >= LOOKS_PER_KEPT * per_test:
            return  # a test that calls it the same way over and over gave what it has
        if code.co_flags & _RESUMED:
            if id(frame) in seen:
                return
            seen.add(id(frame))
        frames.append(frame)
        looked.append(None)
        sys.setprofile(None)  # the pickling runs the project's reductions: not calls to watch
        try:
            args, kwargs = frame_arguments(frame)
            if blank and args:
                args = (versions.Unbuilt(args[0]), *args[1:])
            data = versions.dumps_with_refs((args, kwargs), refs)
            if data not in kept:
                kept[data] = None
                this_test.append(data)
        except Exception:  # a call that does not pickle is not one to check
            pass
        finally:
            sys.setprofile(watch)

    expired: list[bool] = []

    def stop(signum: int, frame: Any) -> None:
        expired.append(True)
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # again, should the test swallow it
        raise _Enough

    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, REPLAY_SECONDS)
    try:
        for key, calls in tests[:TESTS_LIMIT]:
            test = _test_function(key)
            if test is None:
                continue
            for text in calls:
                if len(kept) >= MET_LIMIT or expired:
                    return list(kept)
                this_test.clear()
                looked.clear()
                _run_once(test, text, watch)
    except _Enough:
        pass
    finally:
        sys.setprofile(None)
        signal.setitimer(signal.ITIMER_REAL, 0)
    return list(kept)


def _run_once(test: versions.Version, text: str, watch: Any) -> None:
    """One kept call of the test function, with the function watched; what it raises is the test's."""
    try:
        args, kwargs = versions.loads_with_refs(base64.b64decode(text), test)
    except Exception:  # a call of the test that does not unpickle here: not run
        return
    sys.setprofile(watch)
    try:
        test.function(*args, **kwargs)
    except _Enough:
        raise
    except BaseException:  # a failing test still made the calls it made before it failed
        pass
    finally:
        sys.setprofile(None)


def _test_function(key: str) -> versions.Version | None:
    """The test function of a recorder's key (`module:Class.name`), imported as pytest imported it."""
    module, _, qualname = key.partition(":")
    *classes, name = qualname.split(".")
    if len(classes) > 1 or not name:
        return None
    target = contract.TargetSpec(module=module, function_name=name, class_name=classes[0] if classes else None)
    try:
        return versions.Version(target, None)
    except ModuleNotFoundError as error:
        if error.name != module:
            return None
    except Exception:
        return None
    try:
        return versions.Version(target, None) if test_modules.import_by_base_name(module) else None
    except Exception:
        return None


def _quiet() -> None:
    """What the tests print goes nowhere: the box's own output has a limit."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):
        os.dup2(null, fd)
