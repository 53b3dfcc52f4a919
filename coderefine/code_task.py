"""Code optimization as a Self-Refine task: drafts are checked and timed in the sandbox.

The task file (tasks/code_optimization.toml) holds the prompts and the stop
rule; this module adds what plain-text tasks lack: a draft is a new version of
one function, its facts are measured in the sandbox, and it is acceptable only
when it behaves exactly like the original and is reliably faster.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.code import Target, parse_candidate
from coderefine.engine import Facts, Judgement, Prompt, Step, StopRule
from coderefine.errors import TaskError
from coderefine.task_file import Prompts, Table, load_prompts, stop_rule
from coderefine.verify import Verdict

CODE_KINDS = ("code_optimization",)
_CODE_PLACEHOLDERS = frozenset({"context", "baseline"})


@dataclass(frozen=True)
class CodeTaskSpec:
    """A code task file, before it is bound to a target."""

    name: str
    kind: str
    description: str
    prompts: Prompts
    stop_rule: StopRule


def code_task_from_data(data: Mapping[str, Any], origin: str) -> CodeTaskSpec:
    top = Table(data, "", origin)
    top.check_keys({"name", "kind", "description", "init", "feedback", "refine", "stop"})
    kind = top.get("kind", str, required=True)
    if kind not in CODE_KINDS:
        raise TaskError(f"{origin}: field kind must be one of {', '.join(CODE_KINDS)}, not {kind!r}")
    return CodeTaskSpec(
        name=top.get("name", str, required=True),
        kind=kind,
        description=top.get("description", str, ""),
        prompts=load_prompts(top, _CODE_PLACEHOLDERS),
        stop_rule=stop_rule(top.table("stop")),
    )


Check = Callable[[str], Verdict]


@dataclass(frozen=True)
class OptimizationTask:
    """One target function, refined for speed; implements the engine's Task."""

    spec: CodeTaskSpec
    target: Target
    context: str
    baseline: str  # measured facts about the original, for the first prompt
    check: Check  # runs a candidate's source in the sandbox
    threshold: float

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def stop_rule(self) -> StopRule:
        return self.spec.stop_rule

    @property
    def improves_input(self) -> bool:
        return True  # an accepted draft is, by measurement, better than the original

    def _values(self, x: str, **more: str) -> dict[str, str]:
        return {"input": x, "context": self.context or "(none)", "baseline": self.baseline, **more}

    def init_prompt(self, x: str) -> Prompt:
        return self.spec.prompts.init.build(self._values(x))

    def parse_output(self, text: str) -> str:
        return parse_candidate(text, self.target).source

    def evaluate(self, x: str, output: str) -> Facts:
        verdict = self.check(output)
        return Facts(
            metrics=verdict.metrics(),
            summary=verdict.summary(self.threshold),
            acceptable=verdict.correct and verdict.faster,
        )

    def feedback_prompt(self, x: str, output: str, facts: Facts) -> Prompt:
        return self.spec.prompts.feedback.build(self._values(x, output=output, facts=facts.summary))

    def judge(self, feedback: str, facts: Facts) -> Judgement:
        speedup = facts.metrics.get("speedup")
        score = float(speedup) if facts.acceptable and isinstance(speedup, (int, float)) else None
        return Judgement(score, self.stop_rule.signalled(feedback))

    def refine_prompt(self, x: str, history: Sequence[Step]) -> Prompt:
        return self.spec.prompts.refine.build(self._values(x, history=self.spec.prompts.history(history)))


def load_code_task(path: Path) -> CodeTaskSpec:
    from coderefine.tasks import read_task_data

    return code_task_from_data(read_task_data(path), str(path))
