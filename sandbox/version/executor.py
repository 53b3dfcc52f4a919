"""A version's own process: it loads the original or the new version and runs what the judge asks.

It never judges. Each checked call runs in a fresh child forked from this warm
process (nothing a call leaves behind reaches the next one), under a time
limit, and its outcome travels back to the judge as JSON (see encoding.encode):
the return value (iterators consumed to a bound), the exception type, the
arguments after the call, what it printed, and the lines it ran. Timing
rounds run here too, and the judge times them with its own clock.

The judge trusts nothing this process says: a hostile new version can at most
make its own answers wrong, late or missing, which is a failed check.

The version itself, and the pickles that carry calls to it, are versions.py's; one checked call
is checked_call.py's; here, the process's loop, its timed rounds and its profile.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import pickle
import random
import sys
import time
import traceback
from collections.abc import Iterator
from typing import Any, Callable

from .. import wire
from ..values import encoding
from . import symbolic
from .checked_call import call_in_child, calls_in_child, results_refs, short
from .versions import Version, loads_with_refs, plain_loads

# -- timing and profile ----------------------------------------------------------------------


class Workload:
    """Inputs to time with: a fresh copy of every input for every call, made before the round (as
    every checked call gets its own), so that no call meets an argument object an earlier one saw:
    a cache keyed by identity cannot fake speed, and a draft that changes what it was given cannot
    hand the next call something else. The last loop's calls and results stay for the judge's sample."""

    def __init__(self, version: Version, payloads: list[bytes], lazy: bool = False) -> None:
        self.version = version
        self.lazy = lazy  # each call's iterator is read as a checked call's is (see read)
        self.copies = [_copier(payload, version) for payload in payloads]
        self.sample: list[tuple[tuple[Any, ...], Any]] = []  # (args, result) of the last loop
        chance = random.Random(os.urandom(16))  # its own: the code under test may seed the module's
        self._shuffle, self._draw = chance.shuffle, chance.randrange

    def batches(self, loops: int) -> list[list[Any]]:
        # Made in an order drawn anew each round: the memory an earlier round's argument had goes to
        # another input now, so a cache keyed by an object's address answers for the wrong one.
        count = len(self.copies)
        made: list[list[Any]] = [[None] * count for _ in range(loops)]
        order = list(range(loops))
        self._shuffle(order)
        for loop in order:
            start = self._draw(count)
            for index in (*range(start, count), *range(start)):
                made[loop][index] = self.copies[index]()
        return made

    def encoded_sample(self) -> list[Any]:
        """The last loop's results, encoded as checked calls' are (None where one cannot be)."""
        refs = self.version.refs()
        encoded = []
        for args, value in self.sample:
            try:
                encoded.append(encoding.encode(value, refs=results_refs(refs, args)))
            except Exception:
                encoded.append(None)
        return encoded


READ = encoding.LAZY_LIMIT + 1  # items a checked call reads of a returned iterator, at most


def read(result: Any) -> Any:
    """A returned iterator's items, read as a checked call reads them (to the bound, and one more to
    see whether it ends there): a generator does its work only when read, and a version timed on
    making one alone would look as fast as any other. Anything else as it is."""
    if isinstance(result, Iterator):
        return list(itertools.islice(result, READ))
    return result


def _copier(payload: bytes, version: Version) -> Callable[[], Any]:
    """A maker of fresh copies of one input. Plain unpickling costs a third of unpickling with
    references, and a round of a function that changes its inputs makes a copy per call."""
    try:
        plain_loads(payload, version)
    except Exception:  # it names module-level objects or defaults: they must be this version's
        return functools.partial(loads_with_refs, payload, version)
    return functools.partial(plain_loads, payload, version)


def _timed_round(version: Version, workload: Workload, loops: int, requests: int, answers: int) -> dict[str, Any]:
    """Copies are made first; then the judge says go and times the round with its own clock. The
    last loop's results are kept for the judge's sample (see Workload)."""
    *batches, last = workload.batches(loops)
    function = version.function
    wire.send_json(answers, {"prepared": True})
    wire.receive(requests)
    with contextlib.redirect_stdout(io.StringIO()):
        if workload.lazy:  # the same loop for both versions: the judge asks both alike
            started = time.perf_counter()
            for batch in batches:
                for args, kwargs in batch:
                    read(function(*args, **kwargs))
            workload.sample = [(args, read(function(*args, **kwargs))) for args, kwargs in last]
            return {"seconds": time.perf_counter() - started}
        started = time.perf_counter()
        for batch in batches:
            for args, kwargs in batch:
                function(*args, **kwargs)
        workload.sample = [(args, function(*args, **kwargs)) for args, kwargs in last]
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
                read(version.function(*args, **kwargs)) if workload.lazy else version.function(*args, **kwargs)
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
        lines.append(
            f"{name[:80]}{where}: {calls} calls, about {_share(own, spent)}% of the time in its own code, "
            f"{_share(total, spent)}% with what it calls"
        )
    return "\n".join(lines)


def _share(seconds: float, spent: float) -> int:
    return min(100, round(seconds / spent * 10) * 10)


# -- the server loop -------------------------------------------------------------------------


def serve(
    requests: int, answers: int, target: Any, candidate: str | None, project: str | None, project_tests: Any
) -> None:
    """Load the version, then answer the judge's requests until it says stop or goes away."""
    try:
        version = Version(target, candidate)
    except LookupError as error:  # the module imported; the function is not where it can be checked
        wire.send_json(answers, {"ready": False, "unreachable": short(error)})
        return
    except BaseException as error:
        wire.send_json(answers, {"ready": False, "error": f"{type(error).__name__}: {short(error)}"})
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
            answer = call_in_child(version, request["payload"], request["limit"], request["trace"], request["moved"])
        elif kind == "calls":
            found = calls_in_child(
                version,
                request["payloads"],
                request["limit"],
                request["trace"],
                request["moved"],
                bool(request.get("stop_at_timeout")),
            )
            answer = {"answers": found}
        elif kind == "workload":
            workload = Workload(version, request["payloads"], bool(request.get("lazy")))
            answer = {"calls": len(workload.copies)}
        elif kind == "round":
            answer = _timed_round(version, workload, request["loops"], requests, answers)  # type: ignore[arg-type]
        elif kind == "sample":
            answer = {"results": workload.encoded_sample()}  # type: ignore[union-attr]
        elif kind == "profile":
            answer = {"profile": profile_rows(version, workload)}  # type: ignore[arg-type]
        elif kind == "symbolic":
            answer = symbolic.search(version, request["annotations"], request["seconds"])
        elif kind == "reach":
            answer = symbolic.reach(version, request["annotations"], request["seconds"])
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
        from . import project_tests

        # Code under test finds none of the checker's modules by name (it could behave otherwise if it did).
        for name in [name for name in sys.modules if name == __package__ or name.startswith(f"{__package__}.")]:
            del sys.modules[name]
        serve(requests, answers, target, candidate, project, project_tests)
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        code = 1
    finally:
        os._exit(code)
