"""What a run gives back: each draft as an iteration, the calls and tokens spent, and the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from coderefine.engine.task import Facts, Prompt
from coderefine.llm.chat import Completion

Status = Literal["improved", "no_improvement", "error"]


@dataclass(frozen=True)
class Usage:
    llm_calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, completion: Completion) -> Usage:
        return Usage(
            llm_calls=self.llm_calls + (0 if completion.cached else 1),
            cached_calls=self.cached_calls + (1 if completion.cached else 0),
            prompt_tokens=self.prompt_tokens + (0 if completion.cached else completion.prompt_tokens),
            completion_tokens=self.completion_tokens + (0 if completion.cached else completion.completion_tokens),
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class Iteration:
    index: int
    output: str
    raw_output: str
    feedback: str
    facts: Facts
    score: float | None
    accepted: bool
    error: str | None
    prompt: Prompt
    feedback_prompt: Prompt | None
    usage: Usage
    seconds: float
    origin: str = "model"  # who wrote the draft: the model, or a Seed's origin (e.g. "analyzer")
    round: int = 0  # 0: the first drafts and the task's candidates; then one refined draft each
    repeat_of: int | None = None  # the earlier draft it repeats (its facts are that draft's)
    stop_signal: bool = False  # whether the critique of it said the task's stop phrase
    rules: tuple[str, ...] = ()  # the rewrite rules that wrote it (origin "catalogue")

    @property
    def metrics(self) -> dict[str, Any]:
        return {**self.facts.metrics, "score": self.score}


@dataclass(frozen=True)
class RefineResult:
    task: str
    input: str
    status: Status
    stop_reason: str
    final: str | None
    best_iteration: int | None
    iterations: tuple[Iteration, ...]
    usage: Usage
    model: str
    seconds: float
    error: str | None = None

    @property
    def best(self) -> Iteration | None:
        return None if self.best_iteration is None else self.iterations[self.best_iteration]
