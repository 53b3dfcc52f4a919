"""The Self-Refine loop, independent of what is being refined.

    y0      = LLM(init prompt, x)
    facts_t = task.evaluate(x, y_t)                     # measured, not asked
    fb_t    = LLM(feedback prompt, x, y_t, facts_t)      # while the rest of facts_t is measured
    stop?     stop signal | target score | plateau | max iterations | budget
    y_t+1   = LLM(refine prompt, x, y_0, facts_0, fb_0, ..., y_t, facts_t, fb_t)

The refine prompt always carries the whole history. The result is the
best-scoring acceptable iterate, not the last one, with the full trace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from coderefine.engine.result import Iteration, RefineResult, Status, Usage
from coderefine.engine.task import Facts, Judgement, MalformedAnswer, Prompt, Seed, Step, StopRule, Task
from coderefine.errors import EnvironmentProblem
from coderefine.llm.chat import ChatModel, Completion, Sampling
from coderefine.settings import Settings


@dataclass(frozen=True)
class Budget:
    max_calls: int | None = None
    max_tokens: int | None = None
    deadline: float | None = None  # a time.monotonic() value: no new draft is started after it


@dataclass(frozen=True)
class RefineOptions:
    """Caller's overrides of the task's stop rule, and the budget."""

    max_iterations: int | None = None
    plateau_margin: float | None = None
    plateau_patience: int | None = None
    budget: Budget = Budget()
    # A draft that repeats an earlier one teaches nothing new (small models often
    # copy their last attempt): ask again this many times, sampling for variety.
    resamples: int = 2
    resample_temperature: float = 0.8

    def stop_rule(self, task_rule: StopRule) -> StopRule:
        changes = {
            name: value
            for name in ("max_iterations", "plateau_margin", "plateau_patience")
            if (value := getattr(self, name)) is not None
        }
        return replace(task_rule, **changes)


ProgressCallback = Callable[[Iteration, StopRule], None]


def refine(
    task: Task,
    x: str,
    model: ChatModel,
    options: RefineOptions = RefineOptions(),
    on_iteration: ProgressCallback | None = None,
) -> RefineResult:
    """Run Self-Refine on input `x` until a stop rule holds."""
    rule = options.stop_rule(task.stop_rule)
    run = _Run(task, x, model, options)
    started = time.monotonic()
    stop_reason = "max_iterations"
    seed = task.seed(x)
    if seed is not None:  # one draft more than the model's
        rule = replace(rule, max_iterations=rule.max_iterations + 1)
    for index in range(rule.max_iterations):
        spent = run.spent()
        if spent is not None:
            stop_reason = spent
            break
        if index == 0 and seed is not None:
            prompt = Prompt(messages=())
        else:
            prompt = task.init_prompt(x) if index == 0 else task.refine_prompt(x, run.history)
        try:
            iteration, judgement = run.iterate(index, prompt, seed if index == 0 else None)
        except EnvironmentProblem as problem:
            if not run.iterations:
                raise  # nothing to keep: report the problem itself
            run.error = str(problem)
            stop_reason = "llm_error"
            break
        if on_iteration is not None:
            on_iteration(iteration, rule)
        reason = _stop_reason(rule, judgement, run.iterations)
        if reason is not None:
            stop_reason = reason
            break
    return run.result(stop_reason, time.monotonic() - started)


def _stop_reason(rule: StopRule, judgement: Judgement, iterations: Sequence[Iteration]) -> str | None:
    last = iterations[-1]
    if last.accepted and judgement.stop_signal:
        return "stop_signal"
    if last.accepted and _reaches(judgement.score, rule.target_score):
        return "target_score"
    if _plateaued(iterations, rule):
        return "plateau"
    return None


def _reaches(score: float | None, target: float | None) -> bool:
    return score is not None and target is not None and score >= target


def _plateaued(iterations: Sequence[Iteration], rule: StopRule) -> bool:
    """True when the best score has not risen by more than the margin for `patience` iterations."""
    best: float | None = None
    since_best = 0
    for iteration in iterations:
        score = iteration.score if iteration.accepted else None
        if score is not None and (best is None or score > best + rule.plateau_margin):
            best, since_best = score, 0
        else:
            since_best += 1
    return best is not None and since_best >= rule.plateau_patience


class _Run:
    """The mutable state of one refinement run: history, trace and spending."""

    def __init__(self, task: Task, x: str, model: ChatModel, options: RefineOptions) -> None:
        self.task, self.x, self.model, self.options = task, x, model, options
        self.budget = options.budget
        self.iterations: list[Iteration] = []
        self.history: list[Step] = []
        self.usage = Usage()
        self.error: str | None = None

    def spent(self) -> str | None:
        """Why no further draft can be afforded ("budget", "time_budget"), or None."""
        # An iteration costs two calls: the draft and the feedback on it.
        calls_left = self.budget.max_calls is None or self.usage.llm_calls + 2 <= self.budget.max_calls
        tokens_left = self.budget.max_tokens is None or self.usage.total_tokens < self.budget.max_tokens
        if not (calls_left and tokens_left):
            return "budget"
        if self.budget.deadline is not None and time.monotonic() >= self.budget.deadline:
            return "time_budget"
        return None

    def _call(self, prompt: Prompt, sampling: Sampling | None = None) -> Completion:
        completion = self.model.complete(
            prompt.messages, max_tokens=prompt.max_tokens, stop=prompt.stop, sampling=sampling
        )
        self.usage = self.usage.add(completion)
        return completion

    def _draft(self, index: int, prompt: Prompt) -> Completion:
        """The model's answer, asked again (sampled, seeded) while it repeats an earlier draft."""
        draft = self._call(prompt)
        for attempt in range(1, self.options.resamples + 1):
            if not self._repeats(draft.text) or self.spent() is not None:
                break
            # Seeded, so that a run can be replayed from the response cache.
            sampling = Sampling(self.options.resample_temperature, seed=index * 100 + attempt)
            draft = self._call(prompt, sampling)
        return draft

    def _repeats(self, text: str) -> bool:
        try:
            output = self.task.parse_output(text)
        except MalformedAnswer:
            return any(text.strip() == it.raw_output.strip() for it in self.iterations)
        return any(output == it.output for it in self.iterations)

    def iterate(self, index: int, prompt: Prompt, seed: Seed | None = None) -> tuple[Iteration, Judgement]:
        started, usage_before = time.monotonic(), self.usage
        if seed is not None:
            draft = Completion(text=seed.text, prompt_tokens=0, completion_tokens=0, cached=False, seconds=0.0)
        else:
            draft = self._draft(index, prompt)
        feedback_prompt: Prompt | None = None
        failed: EnvironmentProblem | None = None
        error: str | None
        try:
            output = self.task.parse_output(draft.text)
        except MalformedAnswer as problem:
            output, error = "", str(problem)
            facts = Facts(summary=f"The answer was malformed: {error}", acceptable=False)
            # No model call: the parser already knows exactly what was wrong.
            feedback = f"The previous answer could not be used: {error}. Answer in the required format."
            judgement = Judgement(score=None)
        else:
            error = None
            facts = self.task.evaluate(self.x, output)
            feedback_prompt = self.task.feedback_prompt(self.x, output, facts)
            try:
                feedback = self._call(feedback_prompt).text.strip()
            except EnvironmentProblem as problem:
                # The draft is measured already: a verified one must outlive the failed critique.
                failed, feedback = problem, ""
            if facts.rest is not None:
                # Measured beside the critique (a symbolic search): the last word before any judgement.
                facts = facts.rest()
            judgement = self.task.judge(feedback, facts)
        iteration = Iteration(
            index=index,
            output=output,
            raw_output=draft.text,
            feedback=feedback,
            facts=facts,
            score=judgement.score,
            accepted=facts.acceptable,
            error=error,
            prompt=prompt,
            feedback_prompt=feedback_prompt,
            usage=_difference(self.usage, usage_before),
            seconds=time.monotonic() - started,
            origin=seed.origin if seed is not None else "model",
        )
        self.iterations.append(iteration)
        self.history.append(Step(output=output or draft.text, facts=facts, feedback=feedback))
        if failed is not None:
            raise failed  # recorded above, so the run's result keeps this draft
        return iteration, judgement

    def result(self, stop_reason: str, seconds: float) -> RefineResult:
        best = _best(self.iterations)
        status: Status
        if best is None:
            status = "no_improvement" if self.task.improves_input else "error"
        elif self.task.improves_input:
            status = "improved"
        else:
            first = next(it for it in self.iterations if it.accepted)
            status = "improved" if best.index != first.index else "no_improvement"
        return RefineResult(
            task=self.task.name,
            input=self.x,
            status=status,
            stop_reason=stop_reason,
            final=best.output if best is not None else None,
            best_iteration=best.index if best is not None else None,
            iterations=tuple(self.iterations),
            usage=self.usage,
            model=self.model.name,
            seconds=seconds,
            error=self.error,
        )


def _best(iterations: Sequence[Iteration]) -> Iteration | None:
    """The highest-scoring accepted iterate; the earliest wins a tie.

    With no scores at all nothing shows that a later draft is better, so the
    first accepted one stands.
    """
    accepted = [it for it in iterations if it.accepted]
    scored = [it for it in accepted if it.score is not None]
    if scored:
        return max(scored, key=lambda it: (it.score, -it.index))
    return accepted[0] if accepted else None


def _difference(after: Usage, before: Usage) -> Usage:
    return Usage(
        llm_calls=after.llm_calls - before.llm_calls,
        cached_calls=after.cached_calls - before.cached_calls,
        prompt_tokens=after.prompt_tokens - before.prompt_tokens,
        completion_tokens=after.completion_tokens - before.completion_tokens,
    )


def options_from(settings: Settings) -> RefineOptions:
    """The loop's options as the settings give them."""
    return RefineOptions(
        max_iterations=settings.max_iterations,
        plateau_margin=settings.plateau_margin,
        plateau_patience=settings.plateau_patience,
        budget=Budget(max_calls=settings.budget_calls, max_tokens=settings.budget_tokens),
    )
