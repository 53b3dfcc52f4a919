"""The task-file format shared by every kind of task: typed tables, prompts, stop rules.

A task file is TOML. Each kind of task (plain text, code optimization, ...)
reads its own tables with these helpers, so every kind reports a broken file
the same way: `PATH: field [table].key <problem>`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coderefine.engine import Prompt, Step, StopRule
from coderefine.errors import TaskError
from coderefine.llm.chat import Message
from coderefine.taskfiles.templates import placeholders, render

# The placeholders each prompt may use, and those it must: (allowed, required).
# A kind of task may allow more (code tasks add {{context}}).
BASE_PLACEHOLDERS: Mapping[str, tuple[frozenset[str], frozenset[str]]] = {
    "init": (frozenset({"input"}), frozenset({"input"})),
    "feedback": (frozenset({"input", "output", "facts"}), frozenset({"output"})),
    "refine": (frozenset({"input", "history"}), frozenset({"history"})),
    "step": (frozenset({"number", "output", "facts", "feedback"}), frozenset({"output", "feedback"})),
}


@dataclass(frozen=True)
class PromptTemplate:
    prompt: str
    system: str | None = None
    max_tokens: int | None = None
    stop: tuple[str, ...] = ()

    def build(self, values: Mapping[str, str]) -> Prompt:
        messages = [Message("user", render(self.prompt, values))]
        if self.system:
            messages.insert(0, Message("system", self.system))
        return Prompt(tuple(messages), self.max_tokens, self.stop)


@dataclass(frozen=True)
class Prompts:
    """The three prompts of a task, and how one step of the history is written."""

    init: PromptTemplate
    feedback: PromptTemplate
    refine: PromptTemplate
    step: str

    def history(self, steps: Sequence[Step]) -> str:
        return "\n\n".join(
            render(
                self.step,
                {"number": str(number), "output": step.output, "facts": step.facts.summary, "feedback": step.feedback},
            )
            for number, step in enumerate(steps, start=1)
        )


class Table:
    """Typed access to one TOML table, with errors that name file and field."""

    def __init__(self, data: Mapping[str, Any], where: str, origin: str) -> None:
        self.data, self.where, self.origin = data, where, origin

    def error(self, key: str, problem: str) -> TaskError:
        field = f"[{self.where}].{key}" if self.where else key
        return TaskError(f"{self.origin}: field {field} {problem}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, *, required: bool = False) -> Any:
        if key not in self.data:
            if required:
                raise self.error(key, "is missing")
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.error(key, f"must be {kind_name(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.error(key, f"must be {kind_name(kinds)}, not {type(value).__name__}")
        return value

    def table(self, key: str, *, required: bool = False) -> Table:
        value = self.get(key, dict, {}, required=required)
        return Table(value, f"{self.where}.{key}" if self.where else key, self.origin)

    def check_keys(self, allowed: set[str]) -> None:
        unknown = sorted(set(self.data) - allowed)
        if unknown:
            raise self.error(unknown[0], f"is not a known field (known: {', '.join(sorted(allowed))})")


def kind_name(kinds: tuple[type, ...]) -> str:
    names = {
        bool: "true or false",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def prompt_template(table: Table, kind: str, extra: frozenset[str] = frozenset()) -> PromptTemplate:
    table.check_keys({"system", "prompt", "max_tokens", "stop"} | ({"step"} if kind == "refine" else set()))
    prompt = table.get("prompt", str, required=True)
    allowed, required = BASE_PLACEHOLDERS[kind]
    check_placeholders(table, "prompt", prompt, allowed | extra, required)
    stop = table.get("stop", list, [])
    if not all(isinstance(item, str) and item for item in stop):
        raise table.error("stop", "must be a list of non-empty strings")
    max_tokens = table.get("max_tokens", int)
    if max_tokens is not None and max_tokens <= 0:
        raise table.error("max_tokens", "must be positive")
    return PromptTemplate(prompt, table.get("system", str), max_tokens, tuple(stop))


def check_placeholders(
    table: Table, key: str, template: str, allowed: frozenset[str], required: frozenset[str]
) -> None:
    used = placeholders(template)
    if unknown := sorted(used - allowed):
        raise table.error(key, f"uses unknown placeholder {{{{{unknown[0]}}}}} (known: {', '.join(sorted(allowed))})")
    if missing := sorted(required - used):
        raise table.error(key, f"must contain {{{{{missing[0]}}}}}")


def load_prompts(top: Table, extra: frozenset[str] = frozenset()) -> Prompts:
    """The [init], [feedback] and [refine] tables; `extra` placeholders are allowed in all three."""
    kinds = ("init", "feedback", "refine")
    templates = {kind: prompt_template(top.table(kind, required=True), kind, extra) for kind in kinds}
    refine_table = top.table("refine")
    step = refine_table.get("step", str, required=True)
    allowed, required = BASE_PLACEHOLDERS["step"]
    check_placeholders(refine_table, "step", step, allowed, required)
    return Prompts(templates["init"], templates["feedback"], templates["refine"], step)


def stop_rule(table: Table) -> StopRule:
    table.check_keys({"signal", "target_score", "max_iterations", "plateau_margin", "plateau_patience"})
    rule = StopRule(
        max_iterations=table.get("max_iterations", int, 4),
        signal=table.get("signal", str),
        target_score=number(table, "target_score"),
        plateau_margin=number(table, "plateau_margin") or 0.0,
        plateau_patience=table.get("plateau_patience", int, 2),
    )
    if rule.max_iterations < 1:
        raise table.error("max_iterations", "must be at least 1")
    if rule.plateau_patience < 1:
        raise table.error("plateau_patience", "must be at least 1")
    return rule


def number(table: Table, key: str) -> float | None:
    value = table.get(key, (int, float))
    return None if value is None else float(value)


def check_regex(table: Table, key: str, pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as error:
        raise table.error(key, f"is not a valid regular expression: {error}") from None
