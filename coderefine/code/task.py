"""The code tasks: a draft is a new version of one function, its facts measured.

The task files (tasks/code_optimization.toml, tasks/code_readability.toml)
hold the prompts and the stop rule; this module adds what plain-text tasks
lack. Every draft must behave exactly like the original (checked in the
sandbox); for speed it must be reliably faster, for readability it must score
higher by radon's measures and be no slower than coderefine.code.slowdown allows. ruff's
findings (see coderefine.code.analyzer) join the original's facts and each draft's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from coderefine.code import analyzer, catalogue
from coderefine.code.candidate import parse_candidate
from coderefine.code.check import Verdict
from coderefine.code.checker import Checker
from coderefine.code.scores import Measures, measure
from coderefine.code.slowdown import Cost, SlowdownRule
from coderefine.code.target import Target
from coderefine.engine import Facts, Judgement, Prompt, Seed, Step, StopRule
from coderefine.errors import TaskError
from coderefine.taskfiles.format import Prompts, PromptTemplate, Table, load_prompts, prompt_template, stop_rule

_CODE_PLACEHOLDERS = frozenset({"context", "baseline"})


@dataclass(frozen=True)
class CodeTaskSpec:
    """A code task file, before it is bound to a target."""

    name: str
    kind: str
    description: str
    prompts: Prompts
    stop_rule: StopRule
    # The first prompt for a small model (`model_size = "small"`): examples of the classic rewrites.
    init_small: PromptTemplate | None = None


def code_task_from_data(data: Mapping[str, Any], origin: str) -> CodeTaskSpec:
    top = Table(data, "", origin)
    top.check_keys({"name", "kind", "description", "init", "init_small", "feedback", "refine", "stop"})
    small = top.table("init_small") if "init_small" in data else None
    kind = top.get("kind", str, required=True)  # which kind a command needs: load_code_task says
    return CodeTaskSpec(
        name=top.get("name", str, required=True),
        kind=kind,
        description=top.get("description", str, ""),
        prompts=load_prompts(top, _CODE_PLACEHOLDERS),
        stop_rule=stop_rule(top.table("stop")),
        init_small=prompt_template(small, "init", _CODE_PLACEHOLDERS) if small is not None else None,
    )


@dataclass(frozen=True)
class _CodeTask:
    """What both code tasks share: one target function, its context, the task file's prompts."""

    spec: CodeTaskSpec
    target: Target
    context: str
    baseline: str  # measured facts about the original, for the first prompt
    check: Checker  # runs a candidate's source in the sandbox
    rules: tuple[str, ...]  # ruff's, for the static analysis facts (empty: none)
    rewrite_rules: tuple[str, ...] | None  # the catalogue's rules that write drafts (None: all)
    small: bool  # the model is a small one: its first prompt has examples (the spec's init_small)
    given: tuple[str, ...]  # the caller's own drafts (the function's new source), checked like any

    _score_key = "speedup"  # the metric an accepted draft is scored by (a class constant, not a field)
    _catalogue: ClassVar[catalogue.Kind] = "speed"  # which of the catalogue's rules write drafts

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
        return {"input": x, "context": self.context or "(none)", "baseline": self._baseline, **more}

    @cached_property
    def _baseline(self) -> str:
        found = analyzer.safe_facts(self.target.source, self.rules, of="the original")
        return f"{self.baseline}\n{found}" if found else self.baseline

    def candidates(self, x: str) -> Sequence[Seed]:
        """Drafts beside the model's: the caller's own, ruff's fixes of the original (unsafe ones
        too: the sandbox checks them), and the catalogue's rewrites."""
        found = [Seed(f"```python\n{text.rstrip()}\n```", "given") for text in self.given]
        try:
            fixed = analyzer.fixed(self.target.source, self.rules)
        except analyzer.AnalyzerUnavailable:
            fixed = None
        if fixed is not None:
            found.append(Seed(f"```python\n{fixed}```", "analyzer"))
        chosen = self.rewrite_rules
        for rewrite in catalogue.rewrites(self.target.source, self._catalogue, self.target.module_names, chosen):
            found.append(Seed(rewrite.text, "catalogue", rewrite.rules))
        return found

    def analysis(self, output: str) -> str:
        """The draft's static analysis facts, as a line to add to its summary ("" when there are none)."""
        found = analyzer.safe_facts(parse_candidate(output, self.target).function_source, self.rules, of="this draft")
        return f"\n{found}" if found else ""

    def init_prompt(self, x: str) -> Prompt:
        template = self.spec.init_small if self.small and self.spec.init_small else self.spec.prompts.init
        return template.build(self._values(x))

    def parse_output(self, text: str) -> str:
        return parse_candidate(text, self.target).source

    def feedback_prompt(self, x: str, output: str, facts: Facts) -> Prompt:
        return self.spec.prompts.feedback.build(self._values(x, output=output, facts=facts.summary))

    def judge(self, feedback: str, facts: Facts) -> Judgement:
        score = facts.metrics.get(self._score_key)
        value = float(score) if facts.acceptable and isinstance(score, (int, float)) else None
        return Judgement(value, self.stop_rule.signalled(feedback))

    def refine_prompt(self, x: str, history: Sequence[Step]) -> Prompt:
        return self.spec.prompts.refine.build(self._values(x, history=self.spec.prompts.history(history)))


@dataclass(frozen=True)
class OptimizationTask(_CodeTask):
    """One target function, refined for speed; implements the engine's Task."""

    threshold: float

    def evaluate(self, x: str, output: str) -> Facts:
        checking = self.check.start(output)
        analysis = self.analysis(output)
        facts = self._facts(checking.early, analysis)
        if not facts.acceptable:
            return facts  # no search runs for a draft that would not be offered
        return replace(facts, rest=lambda: self._facts(checking.final(), analysis))

    def _facts(self, verdict: Verdict, analysis: str) -> Facts:
        return Facts(
            metrics=verdict.metrics(),
            summary=verdict.summary(self.threshold) + analysis,
            acceptable=verdict.verified and verdict.faster,
        )


@dataclass(frozen=True)
class ReadabilityTask(_CodeTask):
    """One target function, refined for readability as radon measures it; never much slower."""

    before: Measures  # the original's measures
    slowdown: SlowdownRule  # how much slower a draft may be
    min_gain: float  # score points a draft must gain over the original

    _score_key = "score"
    _catalogue: ClassVar[catalogue.Kind] = "readability"

    def evaluate(self, x: str, output: str) -> Facts:
        after = measure(parse_candidate(output, self.target).function_source)
        metrics: dict[str, Any] = {
            "score": after.score,
            "score_before": self.before.score,
            "radon": after.to_dict(),
            "correct": None,
        }
        scores = f"{self.target.name}: {readability_summary(after, self.before)}"
        needed = self.before.score + self.min_gain
        if after.score < needed:
            # Not worth a sandbox run: it cannot be accepted whatever it does.
            summary = f"{scores}\nNOT MORE READABLE: it needs a score of at least {needed:.1f}.{self.analysis(output)}"
            return Facts(metrics=metrics, summary=summary, acceptable=False)
        verdict = self.check(output)
        cost = self.slowdown.cost(verdict)
        metrics.update({key: value for key, value in verdict.metrics().items() if key != "faster"})
        metrics["added_ns_per_call"] = cost.added_ns
        return Facts(
            metrics=metrics,
            summary=f"{scores}\n{_behaviour(verdict, cost)}{self.analysis(output)}",
            acceptable=verdict.verified and cost.allowed,
        )


def _behaviour(verdict: Verdict, cost: Cost) -> str:
    if not verdict.verified or not verdict.speed():
        return verdict.behaviour()
    return f"{verdict.behaviour()} {verdict.speed()}: {cost.reason}" + ("." if cost.allowed else ", so not accepted.")


def readability_summary(after: Measures, before: Measures) -> str:
    """The radon facts of a draft beside the original's, as the prompts are told them."""
    return (
        f"Readability score {after.score:.1f} (the original: {before.score:.1f}; higher is better). "
        f"Cyclomatic complexity {after.complexity} (was {before.complexity}); "
        f"maintainability index {after.maintainability:.1f} (was {before.maintainability:.1f}); "
        f"Halstead difficulty {after.halstead_difficulty:.1f} (was {before.halstead_difficulty:.1f}); "
        f"{after.logical_lines} logical lines (was {before.logical_lines}); "
        f"{after.comment_lines} comment or docstring lines (was {before.comment_lines}); "
        f"names {after.parts['names']:.0f}/100 (was {before.parts['names']:.0f})"
        + (
            f", unclear: {', '.join(after.unclear_names[:8])} (single letters outside loops, "
            "abbreviations without vowels, numbered names)."
            if after.unclear_names
            else "."
        )
    )


def load_code_task(path: Path, kind: str) -> CodeTaskSpec:
    """A code task file of the given kind."""
    from coderefine.taskfiles.builtin import read_task_data

    spec = code_task_from_data(read_task_data(path), str(path))
    if spec.kind != kind:
        raise TaskError(f"{path}: field kind is {spec.kind!r}, but this command needs a {kind!r} task")
    return spec
