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

from coderefine.engine import Facts, Judgement, Prompt, Seed, Step, StopRule
from coderefine.taskfiles.format import Prompts, Table, check_regex, load_prompts, stop_rule
from coderefine.text.evaluators import EVALUATORS, Evaluator
from coderefine.text.parsers import PARSERS, Parser


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
    prompts: Prompts
    parser: Parser
    score_rule: ScoreRule
    stop_rule: StopRule
    evaluator: Evaluator | None = None
    source: Path | None = None

    @property
    def improves_input(self) -> bool:
        return False

    def init_prompt(self, x: str) -> Prompt:
        return self.prompts.init.build({"input": x})

    def candidates(self, x: str) -> Sequence[Seed]:
        return ()  # every draft of a text task is the model's

    def parse_output(self, text: str) -> str:
        return self.parser(text)

    def evaluate(self, x: str, output: str) -> Facts:
        return self.evaluator(x, output) if self.evaluator else Facts()

    def feedback_prompt(self, x: str, output: str, facts: Facts) -> Prompt:
        return self.prompts.feedback.build({"input": x, "output": output, "facts": facts.summary})

    def judge(self, feedback: str, facts: Facts) -> Judgement:
        # A measured problem outranks the model's claim that nothing is left to improve.
        problems = facts.metrics.get("problems", 0)
        return Judgement(self.score_rule.score(feedback, facts), self.stop_rule.signalled(feedback) and not problems)

    def refine_prompt(self, x: str, history: Sequence[Step]) -> Prompt:
        return self.prompts.refine.build({"input": x, "history": self.prompts.history(history)})


def text_task_from_data(data: Mapping[str, Any], origin: str, source: Path | None = None) -> TextTask:
    """Build a TextTask from a parsed task file, or raise TaskError naming the bad field."""
    top = Table(data, "", origin)
    top.check_keys({"name", "kind", "description", "init", "feedback", "refine", "output", "score", "stop", "facts"})
    return TextTask(
        name=top.get("name", str, required=True),
        description=top.get("description", str, ""),
        prompts=load_prompts(top),
        parser=_parser(top.table("output")),
        score_rule=_score_rule(top.table("score")),
        stop_rule=stop_rule(top.table("stop")),
        evaluator=_evaluator(top.table("facts")),
        source=source,
    )


def _parser(table: Table) -> Parser:
    kind = table.get("parser", str, "text")
    if kind not in PARSERS:
        raise table.error("parser", f"names no parser {kind!r} (known: {', '.join(sorted(PARSERS))})")
    build, option_types = PARSERS[kind]
    table.check_keys({"parser", *option_types})
    options = {key: table.get(key, option_types[key]) for key in option_types if key in table.data}
    for key in ("require", "pattern"):
        if key in options:
            check_regex(table, key, options[key])
    try:
        return build(**options)
    except TypeError as error:
        raise table.error("parser", f"options are incomplete: {error}") from None


def _score_rule(table: Table) -> ScoreRule:
    table.check_keys({"pattern", "fact"})
    pattern, fact = table.get("pattern", str), table.get("fact", str)
    if pattern is not None and fact is not None:
        raise table.error("fact", "cannot be given together with pattern")
    if pattern is not None:
        compiled = check_regex(table, "pattern", pattern)
        if "score" not in compiled.groupindex:
            raise table.error("pattern", "must have a named group (?P<score>...)")
    return ScoreRule(pattern=pattern, fact=fact)


def _evaluator(table: Table) -> Evaluator | None:
    table.check_keys({"evaluator"})
    name = table.get("evaluator", str)
    if name is None:
        return None
    if name not in EVALUATORS:
        raise table.error("evaluator", f"names no evaluator {name!r} (known: {', '.join(sorted(EVALUATORS))})")
    return EVALUATORS[name]
