"""What a chat model is to the rest of the package: messages in, one completion out, a call's own
sampling, and the `ChatModel` protocol the engine calls (whichever server answers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol


@dataclass(frozen=True)
class Message:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Completion:
    """One answer. `cached` answers cost no call and report the tokens of the original."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    seconds: float


@dataclass(frozen=True)
class Sampling:
    """A call's own temperature and seed, instead of the configured ones."""

    temperature: float
    seed: int | None = None


class ChatModel(Protocol):
    """What the engine needs from a model."""

    @property
    def name(self) -> str: ...

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        stop: Sequence[str] = (),
        sampling: Sampling | None = None,
    ) -> Completion: ...
