"""The planner's process as the judge sees it (planner/serve.py is its own side): forked before the
judge becomes its own user, as the original's user, with the project on its path; asked for the
calls of a check, its answers checked for their shape before any is believed.

The judge itself never imports the project: whatever the original's module does as it is imported
(patch the comparison, write a verdict) it does in the planner's process, which holds no channel
to the runner and cannot signal or trace the judge.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any, Callable

from .. import contract, wire
from .draws import Draws
from .errors import Mismatch, SetupError
from .workers import Cpus, end_child, settle_in

Call = tuple[str, bytes, str]  # (source, payload, the call as text)
CheckOne = Callable[[bytes, str, str], None]  # (payload, shown, source): raises Mismatch where they differ
ANSWER_S = 900.0  # a draw of hundreds of inputs, or a shrink: the runner's timeout bounds it anyway
_SOURCES = frozenset(
    {"example", "doctest", "captured", "benchmark", "fixture", "explored", "generated", "stray", "symbolic"}
    | {"exhaustive", "boundary"}
)
_MORE_LIMIT = 8  # everyday draws, at most this many times the usual, where a small domain repeats itself


class Planner:
    """The calls of one check, from a process of the original's user."""

    def __init__(self, job: contract.CheckJob, uid: int | None, cpus: Cpus) -> None:
        self.job = job
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            _child(request_read, answer_write, job, uid, cpus)
        os.close(request_read)
        os.close(answer_write)
        self.requests, self.answers = request_write, answer_read
        self.kinds: dict[bytes, tuple[str, str]] = {}  # an explored input's (parameter, kind)
        self.missing: str | None = None
        self.untyped = False
        self.captured = 0
        self.annotations: dict[str, str] = {}
        self._steps: list[tuple[int, int]] = []
        self._small: int | None = None
        self._keep_draws = uid is not None  # in a container, where the judge has a user (and a folder) of its own
        self._draws: Draws | None = None
        self.kept = 0  # calls taken from the kept draws

    def ready(self) -> None:
        """The original's module imported in the planner's process; SetupError where it is not."""
        said = self._answer()
        if said.get("ready") is not True:
            raise SetupError(str(said.get("error") or said.get("crashed") or "the planner did not start")[:2000])
        self.untyped = said.get("untyped") is True
        captured = said.get("captured")
        self.captured = captured if isinstance(captured, int) and not isinstance(captured, bool) else 0

    def fixed_calls(self) -> list[Call]:
        return self._calls({"kind": "fixed"})

    def variants(self) -> list[Call]:
        return self._calls({"kind": "variants"})

    def boundaries(self) -> list[Call]:
        return self._calls({"kind": "boundaries"})

    def generated(self, enough: Callable[[], bool]) -> Iterator[tuple[int, int]]:
        """(handle, how many to draw) of each strategy, in the planner's order (see calls.CallSource),
        then more everyday inputs until `enough()`, where the domain is small."""
        self._plan()
        yield from self._steps
        more = self.job.max_examples
        limit = _MORE_LIMIT * max(more, self.job.min_inputs)
        while self._small is not None and not enough() and more < limit:
            more *= 2
            yield self._small, more

    def collect(self, handle: int, count: int) -> list[Call]:
        """`count` draws of the strategy `handle`: as kept from an earlier check of the same plan
        (draws.py), else drawn by the planner now."""
        kept = self._draws.get(handle, count) if self._draws is not None else None
        if kept is not None:
            with contextlib.suppress(SetupError):
                calls = self._read_calls(kept)
                self.kept += len(calls)
                return calls
        said = self._ask({"kind": "collect", "handle": handle, "count": count})
        calls = self._read_calls(said)
        if self._draws is not None:
            self._draws.put(handle, count, said)
        return calls

    def shrink(self, handle: int, count: int, check_one: CheckOne) -> None:
        """The planner draws again, one call at a time, and asks the judge about each; the judge
        checks it and keeps its own Mismatch: the last one, the smallest, is raised here."""
        self._send({"kind": "shrink", "handle": handle, "count": count})
        failures: list[Mismatch] = []
        while True:
            said = self._answer()
            if said.get("shrunk") is True:
                break
            source, payload, shown = _call(said.get("check"))
            try:
                check_one(payload, shown, source)
                differs = False
            except Mismatch as mismatch:
                failures.append(mismatch)
                differs = True
            self._send({"differs": differs})
        if failures:
            raise failures[-1]

    def original_source(self) -> tuple[str | None, str, int]:
        """The original's source, its function's name, and the lines before it in its file."""
        said = self._ask({"kind": "original_source"})
        source, name, offset = said.get("source"), said.get("name"), said.get("offset")
        if not isinstance(name, str) or not isinstance(offset, int) or not isinstance(source, (str, type(None))):
            raise SetupError("the planner's process gave no source of the original")
        return source, name, offset

    def symbolic_calls(self, found: list[dict[str, Any]]) -> list[tuple[bytes, str]]:
        return [(payload, shown) for _, payload, shown in self._calls({"kind": "symbolic_calls", "found": found})]

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            wire.send_pickle(self.requests, {"kind": "stop"})
        end_child(self.pid, (self.requests, self.answers))

    def _plan(self) -> None:
        said = self._ask({"kind": "steps"})
        steps, small = said.get("steps"), said.get("small")
        if not isinstance(steps, list) or not all(_is_step(step) for step in steps):
            raise SetupError("the planner's process gave no plan of inputs")
        self._steps = [(step[0], step[1]) for step in steps]
        self._small = small if isinstance(small, int) and not isinstance(small, bool) else None
        self.missing = str(said["missing"])[:1000] if isinstance(said.get("missing"), str) else None
        annotations = said.get("annotations")
        if isinstance(annotations, dict):
            self.annotations = {str(k): str(v) for k, v in annotations.items() if isinstance(v, str)}
        knowledge = said.get("knowledge")
        if isinstance(knowledge, str) and self._keep_draws:
            self._draws = Draws(contract.DRAWS_FOLDER, self.job, knowledge)

    def _calls(self, request: dict[str, Any]) -> list[Call]:
        return self._read_calls(self._ask(request))

    def _read_calls(self, said: dict[str, Any]) -> list[Call]:
        calls, kinds = said.get("calls"), said.get("kinds")
        if not isinstance(calls, list) or not isinstance(kinds, list):
            raise SetupError("the planner's process answered without calls")
        for item in kinds:
            if isinstance(item, list) and len(item) == 3 and all(isinstance(part, str) for part in item):
                self.kinds.setdefault(_payload(item[0]), (item[1][:200], item[2][:200]))
        return [_call(item) for item in calls]

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self._send(request)
        said = self._answer()
        if "error" in said:
            raise SetupError(f"the planner's process could not answer: {str(said['error'])[:500]}")
        return said

    def _send(self, request: dict[str, Any]) -> None:
        try:
            wire.send_pickle(self.requests, request)
        except OSError as error:
            raise SetupError(f"the planner's process is gone: {error}") from None

    def _answer(self) -> dict[str, Any]:
        try:
            said = wire.receive_json(self.answers, time.monotonic() + ANSWER_S)
        except wire.ChannelClosed as problem:
            raise SetupError(f"the planner's process stopped: {problem}") from None
        if not isinstance(said, dict):
            raise SetupError("the planner's process answered something that is not an object")
        return said


def _child(requests: int, answers: int, job: contract.CheckJob, uid: int | None, cpus: Cpus) -> None:
    """The planner's process: the original's user, the project on its path, then planner/serve.py."""
    code = 0
    try:
        settle_in({requests, answers}, uid, cpus)
        from ..planner import serve

        serve.serve(requests, answers, job)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _is_step(step: Any) -> bool:
    return (
        isinstance(step, list)
        and len(step) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in step)
        and step[1] <= 100_000
    )


def _call(item: Any) -> Call:
    if not (isinstance(item, list) and len(item) == 3 and all(isinstance(part, str) for part in item)):
        raise SetupError("the planner's process gave a call of another shape")
    source, text, shown = item
    if source not in _SOURCES:
        raise SetupError(f"the planner's process gave a call of an unknown source {source[:40]!r}")
    return source, _payload(text), shown[:2000]


def _payload(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise SetupError("the planner's process gave a call that is not base64") from None
