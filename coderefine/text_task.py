"""Plain-text tasks: a task file (TOML) is all there is to one.

A task file holds the init, feedback and refine prompts with their few-shot
examples, how to parse an answer, how to read a score from the feedback (or
from measured facts), and when to stop. See tasks/README.md for the format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.engine import Facts, Judgement, Prompt, Step, StopRule
from coderefine.errors import TaskError
from coderefine.evaluators import EVALUATORS, Evaluator
from coderefine.llm import Message
from coderefine.parsers import PARSERS, Parser
from coderefine.templates import placeholders, render


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
class ScoreRule:
    """Where a draft's score comes from: a pattern in the feedback, or a fact."""

    pattern: str | None = None  # named groups: score, and optionally max (score is then score/max)
    fact: str | None = None

    def score(self, feedback: str, facts: Facts) -> float | None:
        if self.fact is not None:
            value = facts.metrics.get(self.fact)
            return float(value) if isinstance(value, (int, float)) else None
        if self.pattern is None:
            return None
        matches = list(re.finditer(self.pattern, feedback, re.IGNORECASE | re.MULTILINE))
        if not matches:
            return None
        last = matches[-1]  # a total comes after the parts
        value = float(last.group("score"))
        maximum = last.groupdict().get("max")
        return value / float(maximum) if maximum and float(maximum) > 0 else value


@dataclass(frozen=True)
class TextTask:
    name: str
    description: str
    init: PromptTemplate
    feedback: PromptTemplate
    refine: PromptTemplate
    step: str
    parser: Parser
    score_rule: ScoreRule
    stop_rule: StopRule
    evaluator: Evaluator | None = None
    source: Path | None = None

    @property
    def improves_input(self) -> bool:
        return False

    def init_prompt(self, x: str) -> Prompt:
        return self.init.build({"input": x})

    def parse_output(self, text: str) -> str:
        return self.parser(text)

    def evaluate(self, x: str, output: str) -> Facts:
        return self.evaluator(x, output) if self.evaluator else Facts()

    def feedback_prompt(self, x: str, output: str, facts: Facts) -> Prompt:
        return self.feedback.build({"input": x, "output": output, "facts": facts.summary})

    def judge(self, feedback: str, facts: Facts) -> Judgement:
        signal = self.stop_rule.signal
        said_stop = bool(signal) and signal.lower() in feedback.lower()  # type: ignore[union-attr]
        # A measured problem outranks the model's claim that nothing is left to improve.
        problems = facts.metrics.get("problems", 0)
        return Judgement(self.score_rule.score(feedback, facts), said_stop and not problems)

    def refine_prompt(self, x: str, history: Sequence[Step]) -> Prompt:
        steps = [
            render(
                self.step,
                {
                    "number": str(number),
                    "output": step.output,
                    "facts": step.facts.summary,
                    "feedback": step.feedback,
                },
            )
            for number, step in enumerate(history, start=1)
        ]
        return self.refine.build({"input": x, "history": "\n\n".join(steps)})


# -- loading -------------------------------------------------------------------------------

_PROMPT_PLACEHOLDERS = {
    "init": ({"input"}, {"input"}),  # (allowed, required)
    "feedback": ({"input", "output", "facts"}, {"output"}),
    "refine": ({"input", "history"}, {"history"}),
}
_STEP_PLACEHOLDERS = ({"number", "output", "facts", "feedback"}, {"output", "feedback"})


class _Table:
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
            raise self.error(key, f"must be {_kind_name(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.error(key, f"must be {_kind_name(kinds)}, not {type(value).__name__}")
        return value

    def table(self, key: str, *, required: bool = False) -> _Table:
        value = self.get(key, dict, {}, required=required)
        return _Table(value, f"{self.where}.{key}" if self.where else key, self.origin)

    def check_keys(self, allowed: set[str]) -> None:
        unknown = sorted(set(self.data) - allowed)
        if unknown:
            raise self.error(unknown[0], f"is not a known field (known: {', '.join(sorted(allowed))})")


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a table"}  # fmt: skip
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def text_task_from_data(data: Mapping[str, Any], origin: str, source: Path | None = None) -> TextTask:
    """Build a TextTask from a parsed task file, or raise TaskError naming the bad field."""
    top = _Table(data, "", origin)
    top.check_keys({"name", "kind", "description", "init", "feedback", "refine", "output", "score",
                    "stop", "facts"})  # fmt: skip
    name = top.get("name", str, required=True)
    prompts = {key: _prompt_template(top.table(key, required=True), key) for key in _PROMPT_PLACEHOLDERS}
    refine_table = top.table("refine")
    step = refine_table.get("step", str, required=True)
    _check_placeholders(refine_table, "step", step, *_STEP_PLACEHOLDERS)
    return TextTask(
        name=name,
        description=top.get("description", str, ""),
        init=prompts["init"],
        feedback=prompts["feedback"],
        refine=prompts["refine"],
        step=step,
        parser=_parser(top.table("output")),
        score_rule=_score_rule(top.table("score")),
        stop_rule=_stop_rule(top.table("stop")),
        evaluator=_evaluator(top.table("facts")),
        source=source,
    )


def _prompt_template(table: _Table, kind: str) -> PromptTemplate:
    table.check_keys({"system", "prompt", "max_tokens", "stop"} | ({"step"} if kind == "refine" else set()))
    prompt = table.get("prompt", str, required=True)
    _check_placeholders(table, "prompt", prompt, *_PROMPT_PLACEHOLDERS[kind])
    stop = table.get("stop", list, [])
    if not all(isinstance(item, str) and item for item in stop):
        raise table.error("stop", "must be a list of non-empty strings")
    max_tokens = table.get("max_tokens", int)
    if max_tokens is not None and max_tokens <= 0:
        raise table.error("max_tokens", "must be positive")
    return PromptTemplate(prompt, table.get("system", str), max_tokens, tuple(stop))


def _check_placeholders(table: _Table, key: str, template: str, allowed: set[str], required: set[str]) -> None:
    used = placeholders(template)
    if unknown := sorted(used - allowed):
        raise table.error(key, f"uses unknown placeholder {{{{{unknown[0]}}}}} (known: {', '.join(sorted(allowed))})")
    if missing := sorted(required - used):
        raise table.error(key, f"must contain {{{{{missing[0]}}}}}")


def _parser(table: _Table) -> Parser:
    kind = table.get("parser", str, "text")
    if kind not in PARSERS:
        raise table.error("parser", f"names no parser {kind!r} (known: {', '.join(sorted(PARSERS))})")
    build, option_types = PARSERS[kind]
    table.check_keys({"parser", *option_types})
    options = {key: table.get(key, option_types[key]) for key in option_types if key in table.data}
    for key in ("require", "pattern"):
        if key in options:
            _check_regex(table, key, options[key])
    try:
        return build(**options)
    except TypeError as error:
        raise table.error("parser", f"options are incomplete: {error}") from None


def _score_rule(table: _Table) -> ScoreRule:
    table.check_keys({"pattern", "fact"})
    pattern, fact = table.get("pattern", str), table.get("fact", str)
    if pattern is not None and fact is not None:
        raise table.error("fact", "cannot be given together with pattern")
    if pattern is not None:
        compiled = _check_regex(table, "pattern", pattern)
        if "score" not in compiled.groupindex:
            raise table.error("pattern", "must have a named group (?P<score>...)")
    return ScoreRule(pattern=pattern, fact=fact)


def _stop_rule(table: _Table) -> StopRule:
    table.check_keys({"signal", "target_score", "max_iterations", "plateau_margin", "plateau_patience"})
    rule = StopRule(
        max_iterations=table.get("max_iterations", int, 4),
        signal=table.get("signal", str),
        target_score=_number(table, "target_score"),
        plateau_margin=_number(table, "plateau_margin") or 0.0,
        plateau_patience=table.get("plateau_patience", int, 2),
    )
    if rule.max_iterations < 1:
        raise table.error("max_iterations", "must be at least 1")
    if rule.plateau_patience < 1:
        raise table.error("plateau_patience", "must be at least 1")
    return rule


def _evaluator(table: _Table) -> Evaluator | None:
    table.check_keys({"evaluator"})
    name = table.get("evaluator", str)
    if name is None:
        return None
    if name not in EVALUATORS:
        raise table.error("evaluator", f"names no evaluator {name!r} (known: {', '.join(sorted(EVALUATORS))})")
    return EVALUATORS[name]


def _number(table: _Table, key: str) -> float | None:
    value = table.get(key, (int, float))
    return None if value is None else float(value)


def _check_regex(table: _Table, key: str, pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as error:
        raise table.error(key, f"is not a valid regular expression: {error}") from None

