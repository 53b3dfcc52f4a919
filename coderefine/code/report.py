"""What a code task's run gives back: each function's result and the file's report (its diff, the
new bytes, and whether they were written)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from coderefine.code import result_cache
from coderefine.code.files import unified_diff
from coderefine.engine import RefineResult

NOT_STARTED = "not started: the time budget was spent"
NOT_REACHED = "not reached: "  # the endpoint or the sandbox failed for good before this function
NOT_FINISHED = "not finished: the time budget was spent (its checks were stopped)"


@dataclass(frozen=True)
class FunctionResult:
    target: str
    original: str
    refine: RefineResult | None  # None when the function was skipped
    skipped: str | None = None
    unchanged: Mapping[str, Any] = field(default_factory=dict)  # the metrics when nothing is offered
    metric_keys: tuple[str, ...] = ()  # what `metrics` shows of the winner's
    cached: bool = False  # taken from the result cache, not run now
    baseline_seconds: float = 0.0  # the original's own check, before the first draft
    tests_seconds: float = 0.0  # the project's tests, when this function's start ran them
    tests_note: str | None = None  # what went wrong with the project's tests, for this function
    settled: bool = True  # False: skipped for a cause that may pass (a time limit under load, a crash)

    @property
    def final_result(self) -> bool:
        """Not cut short (time budget, endpoint failure): the same inputs would give it again."""
        if self.refine is None:
            return (
                self.settled
                and self.skipped is not None
                and not self.skipped.startswith((NOT_STARTED, NOT_REACHED, NOT_FINISHED))
            )
        return self.refine.error is None and self.refine.stop_reason != "time_budget"

    def to_dict(self) -> dict[str, Any]:
        """For the result cache: every prompt and answer included."""
        document = dataclasses.asdict(self)
        document.pop("cached")
        return document

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FunctionResult:
        """The inverse of `to_dict`."""
        refine = data["refine"]
        return cls(
            target=data["target"],
            original=data["original"],
            refine=result_cache.decode_refine(refine) if refine is not None else None,
            skipped=data["skipped"],
            unchanged=data["unchanged"],
            metric_keys=tuple(data["metric_keys"]),
            baseline_seconds=float(data.get("baseline_seconds") or 0.0),
            tests_seconds=float(data.get("tests_seconds") or 0.0),
            tests_note=data.get("tests_note"),
        )

    @property
    def seconds(self) -> float:
        """The whole function's time: the project's tests (when it ran them), the original's check, the drafts'."""
        return self.tests_seconds + self.baseline_seconds + (self.refine.seconds if self.refine is not None else 0.0)

    @property
    def improved(self) -> bool:
        return self.refine is not None and self.refine.status == "improved"

    @property
    def final(self) -> str:
        return self.refine.final if self.improved and self.refine and self.refine.final else self.original

    @property
    def metrics(self) -> dict[str, Any]:
        best = self.refine.best if self.refine is not None and self.improved else None
        if best is None:
            return dict(self.unchanged)
        return {key: best.facts.metrics.get(key) for key in self.metric_keys}


@dataclass(frozen=True)
class CodeReport:
    task: str
    file: str
    results: tuple[FunctionResult, ...]
    original_bytes: bytes
    new_bytes: bytes
    encoding: str
    sandbox: str
    applied: bool = False
    error: str | None = None  # what stopped a file's run before its last function (its winners are kept)
    apply_refused: str | None = None  # why winners asked to be written were not (the file changed meanwhile)
    interrupted: int | None = None  # the signal (SIGINT, SIGTERM) that stopped it: what finished is kept

    @property
    def diff(self) -> str:
        return unified_diff(self.file, self.original_bytes, self.new_bytes, self.encoding)

    @property
    def status(self) -> str:
        return "improved" if any(r.improved for r in self.results) else "no_improvement"


def interrupted_reason(signum: int) -> str:
    """Why a function was not finished: the run was interrupted (SIGINT, SIGTERM) before or during it."""
    return f"{NOT_REACHED}interrupted ({signal_name(signum)})"


def signal_name(signum: int) -> str:
    return {2: "SIGINT", 15: "SIGTERM"}.get(signum, f"signal {signum}")
