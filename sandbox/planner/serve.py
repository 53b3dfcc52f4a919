"""The planner's process: the original's module imported, the calls of a check drawn, on request.

It runs as the original's user, with the project on its path, forked by the judge before the judge
becomes its own user (judge/planned.py is the judge's side). The judge asks in pickles (it is
trusted here); the planner answers in JSON alone, which the judge checks before it believes any
of it: a module of the repository that runs code as it is imported reaches this process, never
the judge's, and so never the verdict.

A call travels as [source, payload (base64 of its pickle), the call as text]; each answer that
makes calls also gives the explored ones' (parameter, kind) by payload.
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

from .. import wire
from .calls import CallSource, CannotPlan


def serve(requests: int, answers: int, job: Any) -> None:
    """Import the original, then answer the judge's requests until it says stop or goes away."""
    try:
        source = CallSource(job)
    except CannotPlan as problem:
        wire.send_json(answers, {"ready": False, "error": str(problem)})
        return
    plan = _Plan(source, requests, answers)
    wire.send_json(answers, {"ready": True, "untyped": source.untyped, "captured": len(source.captured)})
    while True:
        try:
            request = pickle.loads(wire.receive(requests))
        except (wire.ChannelClosed, EOFError):
            return
        if request["kind"] == "stop":
            return
        wire.send_json(answers, plan.answer(request))


class _Plan:
    """The strategies drawn from, by handle (their index), and the answer to each request."""

    def __init__(self, source: CallSource, requests: int, answers: int) -> None:
        self.source, self.requests, self.answers = source, requests, answers
        self.strategies: list[Any] = []

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        kind = request["kind"]
        source = self.source
        if kind == "fixed":
            return self._calls(list(source.fixed_calls()))
        if kind == "variants":
            return self._calls(source.variants())
        if kind == "boundaries":
            return self._calls(source.boundaries())
        if kind == "steps":
            return self._steps()
        if kind == "collect":
            return self._calls(source.collect(self.strategies[request["handle"]], request["count"]))
        if kind == "shrink":
            source.shrink(self.strategies[request["handle"]], request["count"], self._differs)
            return {"shrunk": True}
        if kind == "original_source":
            text, name, offset = source.version_source(True)
            return {"source": text, "name": name, "offset": offset}
        if kind == "symbolic_calls":
            return self._calls(
                [("symbolic", payload, shown) for payload, shown in source.symbolic_calls(request["found"])]
            )
        return {"error": f"unknown request {kind!r}"}

    def _steps(self) -> dict[str, Any]:
        """What to draw, in order: [handle, count] for each strategy of `CallSource.generated`, and
        the handle of the everyday inputs, of which the judge asks more where the domain is small."""
        steps = []
        for strategy, count in self.source.generated(lambda: True):
            self.strategies.append(strategy)
            steps.append([len(self.strategies) - 1, count])
        plan = self.source.plan()
        small = None
        if plan.small is not None:
            self.strategies.append(plan.small)
            small = len(self.strategies) - 1
        return {
            "steps": steps,
            "small": small,
            "missing": self.source.missing,
            "annotations": dict(plan.annotations),
            "knowledge": plan.knowledge,
        }

    def _calls(self, calls: list[tuple[str, bytes, str]]) -> dict[str, Any]:
        kinds = self.source.kinds
        return {
            "calls": [[source, _text(payload), shown] for source, payload, shown in calls],
            "kinds": [[_text(payload), *kinds[payload]] for _, payload, _ in calls if payload in kinds],
        }

    def _differs(self, payload: bytes, shown: str, source: str) -> bool:
        """The judge's word on one call while hypothesis shrinks: it checks it, and keeps the failure."""
        wire.send_json(self.answers, {"check": [source, _text(payload), shown]})
        said = pickle.loads(wire.receive(self.requests))
        return bool(said.get("differs"))


def _text(payload: bytes) -> str:
    return base64.b64encode(payload).decode("ascii")
