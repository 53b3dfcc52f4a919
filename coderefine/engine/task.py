"""What a task and the loop exchange: the prompts a task writes, the facts it measures about a
draft, its judgement, the history it is handed, its stop rule, and the Task protocol itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from coderefine.llm.chat import Message


class MalformedAnswer(ValueError):
    """The model's answer does not have the shape the task asked for."""


@dataclass(frozen=True)
class Prompt:
    """Messages for one LLM call, with that call's generation limits."""

    messages: tuple[Message, ...]
    max_tokens: int | None = None
    stop: tuple[str, ...] = ()


@dataclass(frozen=True)
class Facts:
    """What was measured about a draft, before the model critiques it.

    `summary` is the text the feedback and refine prompts are given;
    `metrics` goes into the result as is. A draft that is not `acceptable`
    (wrong, malformed) is never chosen as the result.
    """

    metrics: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""
    acceptable: bool = True
    # Facts still being measured (a code draft's symbolic search): the loop asks for the critique
    # with these, then calls `rest()` for the last word before it judges or keeps the draft.
    rest: Callable[[], Facts] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Judgement:
    score: float | None
    stop_signal: bool = False


@dataclass(frozen=True)
class Step:
    """One entry of the history handed to the refine prompt."""

    output: str
    facts: Facts
    feedback: str


@dataclass(frozen=True)
class StopRule:
    max_iterations: int = 4
    signal: str | None = None  # a phrase in the feedback that ends the loop
    target_score: float | None = None  # a score this high ends the loop
    plateau_margin: float = 0.0  # the best must improve by more than this ...
    plateau_patience: int = 2  # ... within this many iterations, or the loop stops

    def signalled(self, feedback: str) -> bool:
        """Whether the feedback says the stop phrase (any case)."""
        return self.signal is not None and self.signal.lower() in feedback.lower()


class Task(Protocol):
    """A refinement task: prompts, parsing, measurement and judgement."""

    @property
    def name(self) -> str: ...

    @property
    def stop_rule(self) -> StopRule: ...

    @property
    def improves_input(self) -> bool:
        """True when every acceptable draft already beats the input (code tasks);
        False when drafts compete with the first draft (text tasks)."""
        ...

    def init_prompt(self, x: str) -> Prompt: ...

    def parse_output(self, text: str) -> str: ...

    def evaluate(self, x: str, output: str) -> Facts: ...

    def feedback_prompt(self, x: str, output: str, facts: Facts) -> Prompt: ...

    def judge(self, feedback: str, facts: Facts) -> Judgement: ...

    def refine_prompt(self, x: str, history: Sequence[Step]) -> Prompt: ...

    def candidates(self, x: str) -> Sequence[Seed]:
        """Drafts that are not the model's (a code task's: a linter's fixes, rewrite rules), measured
        beside the model's first draft and kept in the history like any draft, never critiqued."""
        ...


@dataclass(frozen=True)
class Seed:
    """A draft from elsewhere than the model: the answer text as the model would give it, and its origin."""

    text: str
    origin: str
    rules: tuple[str, ...] = ()  # the rewrite rules that wrote it, for the facts and the trace
