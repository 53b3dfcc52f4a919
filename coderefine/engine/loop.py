"""The Self-Refine loop, independent of what is being refined.

    y0      = LLM(init prompt, x)                       # `samples` of them; beside them the
                                                        # task's own candidates (rules, a linter)
    facts_t = task.evaluate(x, y_t)                     # measured, not asked
    fb_t    = LLM(feedback prompt, x, y_t, facts_t)      # while the rest of facts_t is measured;
                                                        # or the facts alone (feedback="facts")
    stop?     stop signal | target score | plateau | no new draft | malformed twice
              | max iterations | budget
    y_t+1   = LLM(refine prompt, x, y_0, facts_0, fb_0, ..., y_t, facts_t, fb_t)

The refine prompt always carries the whole history. The result is the
best-scoring acceptable iterate, not the last one, with the full trace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast

from coderefine.engine.result import Iteration, RefineResult, Status, Usage
from coderefine.engine.task import Facts, Judgement, MalformedAnswer, Prompt, Seed, Step, StopRule, Task
from coderefine.errors import EnvironmentProblem
from coderefine.llm.chat import ChatModel, Completion, Sampling
from coderefine.settings import Settings

Feedback = Literal["model", "facts"]
SMALL_MODEL_SAMPLES = 4  # first drafts of a small model: one of several is more often right


@dataclass(frozen=True)
class Budget:
    max_calls: int | None = None
    max_tokens: int | None = None
    deadline: float | None = None  # a time.monotonic() value: no new draft is started after it


@dataclass(frozen=True)
class RefineOptions:
    """Caller's overrides of the task's stop rule, the budget, and how the model is asked."""

    max_iterations: int | None = None
    plateau_margin: float | None = None
    plateau_patience: int | None = None
    budget: Budget = Budget()
    # A draft that repeats an earlier one teaches nothing new (small models often copy their last
    # attempt): it is asked again once, sampled for variety, unless a good draft is known already.
    resamples: int = 1
    resample_temperature: float = 0.8
    samples: int = 1  # first drafts, each with its own seed and temperature after the first
    # "model": the model critiques each draft (Self-Refine); "facts": the measured facts are the
    # feedback, with no call (a very small model's critique is noise).
    feedback: Feedback = "model"

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
    model: ChatModel | None,
    options: RefineOptions = RefineOptions(),
    on_iteration: ProgressCallback | None = None,
) -> RefineResult:
    """Run Self-Refine on input `x` until a stop rule holds. With no model, only the task's own
    candidates are measured (stop reason "no_model")."""
    rule = options.stop_rule(task.stop_rule)
    run = _Run(task, x, model, options, rule, on_iteration)
    started = time.monotonic()
    try:
        reason = run.first_round()
        rounds = 1
        while reason is None:
            reason = run.spent() or ("max_iterations" if rounds >= rule.max_iterations else None)
            if reason is None:
                reason = run.refine_round(rounds)
                rounds += 1
    except EnvironmentProblem as problem:
        if not run.iterations:
            raise  # nothing to keep: report the problem itself
        run.error = str(problem)
        reason = "llm_error"
    return run.result(reason, time.monotonic() - started)


def _stop_reason(rule: StopRule, iterations: Sequence[Iteration], critiqued: Iteration | None) -> str | None:
    """Why the run stops after a round, or None; `critiqued`: the round's draft the model reviewed."""
    if critiqued is not None and critiqued.accepted and critiqued.stop_signal:
        return "stop_signal"
    best = _best(iterations)
    if best is not None and _reaches(best.score, rule.target_score):
        return "target_score"
    if _plateaued(iterations, rule):
        return "plateau"
    answers = [it for it in iterations if it.origin == "model"]
    # Twice in a row: the model cannot answer in the format asked. A round's samples are tries side
    # by side: one of them that parsed is a draft to refine, whatever its neighbours were.
    latest = [it for it in answers if it.round == answers[-1].round]
    if len(answers) >= 2 and answers[-1].error and answers[-2].error and all(it.error for it in latest):
        return "malformed"
    return None


def _reaches(score: float | None, target: float | None) -> bool:
    return score is not None and target is not None and score >= target


def _plateaued(iterations: Sequence[Iteration], rule: StopRule) -> bool:
    """True when the best score has not risen by more than the margin for `patience` rounds (the
    first drafts and the task's candidates are one round)."""
    best: float | None = None
    since_best = 0
    for number in range(iterations[-1].round + 1):
        scores = [it.score for it in iterations if it.round == number and it.accepted and it.score is not None]
        top = max(scores, default=None)
        if top is not None and (best is None or top > best + rule.plateau_margin):
            best, since_best = top, 0
        else:
            since_best += 1
    return best is not None and since_best >= rule.plateau_patience


@dataclass
class _Draft:
    """A draft measured but not yet recorded: its critique may still be asked, and the rest of its
    facts may still be measured (settled in place: the one mutable thing of a draft)."""

    completion: Completion
    prompt: Prompt
    origin: str
    output: str
    facts: Facts
    error: str | None
    started: float  # time.monotonic() before it was asked
    spent: Usage  # the calls it cost: its asks (measured right after them), then its critique
    repeat_of: int | None = None  # the index of the earlier draft it repeats
    rules: tuple[str, ...] = ()  # a candidate's rewrite rules


class _Run:
    """The mutable state of one refinement run: history, trace and spending."""

    def __init__(
        self,
        task: Task,
        x: str,
        model: ChatModel | None,
        options: RefineOptions,
        rule: StopRule,
        on_iteration: ProgressCallback | None,
    ) -> None:
        self.task, self.x, self.model, self.options, self.rule = task, x, model, options, rule
        self.on_iteration = on_iteration
        self.budget = options.budget
        self.iterations: list[Iteration] = []
        self.history: list[Step] = []
        self.usage = Usage()
        self.error: str | None = None
        self._round = 0

    def spent(self) -> str | None:
        """Why no further draft can be afforded ("budget", "time_budget"), or None."""
        # A draft costs two calls: itself and the critique of it.
        calls_left = self.budget.max_calls is None or self.usage.llm_calls + 2 <= self.budget.max_calls
        tokens_left = self.budget.max_tokens is None or self.usage.total_tokens < self.budget.max_tokens
        if not (calls_left and tokens_left):
            return "budget"
        if self.budget.deadline is not None and time.monotonic() >= self.budget.deadline:
            return "time_budget"
        return None

    # -- the rounds ---------------------------------------------------------------------------

    def first_round(self) -> str | None:
        """The model's first drafts, the lead one critiqued, then the task's own candidates."""
        drafts: list[_Draft] = []
        lead: _Draft | None = None
        failed: EnvironmentProblem | None = None
        if self.model is not None:
            prompt = self.task.init_prompt(self.x)
            for sample in range(max(1, self.options.samples)):
                if sample and self.spent() is not None:
                    break
                started, before = time.monotonic(), self.usage
                completion = self._call(prompt, _sampling(sample))
                drafts.append(self._measure(completion, prompt, "model", drafts, started, before))
            if len(drafts) > 1:  # the lead is chosen by what was measured to the end
                for draft in drafts:
                    self._settle(draft)
            lead = self._lead(drafts)
            for draft in drafts:
                try:
                    self._record(draft, self._feedback(draft) if draft is lead else self._silent(draft))
                except EnvironmentProblem as problem:
                    failed = problem  # the critique failed: the round's other drafts are measured all the same
        critiqued = self.iterations[drafts.index(lead)] if drafts and lead is not None else None
        for seed in self.task.candidates(self.x):
            self._record_candidate(seed)
        if failed is not None:
            raise failed
        if self.model is None:
            return "no_model"
        return _stop_reason(self.rule, self.iterations, critiqued)

    def refine_round(self, number: int) -> str | None:
        self._round = number
        prompt = self.task.refine_prompt(self.x, self.history)
        started, before = time.monotonic(), self.usage
        completion = self._call(prompt)
        accepted = any(it.accepted for it in self.iterations)
        if self._repeated(completion.text) is not None and not accepted and self.options.resamples > 0:
            # Seeded, so that a run can be replayed from the response cache.
            completion = self._call(prompt, Sampling(self.options.resample_temperature, seed=number * 100 + 1))
        draft = self._measure(completion, prompt, "model", (), started, before)
        if draft.repeat_of is not None:
            self._record(draft, self._silent(draft))
            # Measured before: nothing new to learn, nor to ask (a malformed one may say more).
            return _stop_reason(self.rule, self.iterations, None) if draft.error else "no_new_draft"
        # The critique of the last draft would never be read (unless its score is in it): no call.
        last_round = number + 1 >= self.rule.max_iterations
        unread = draft.error is None and (not draft.facts.acceptable or self._judge("", draft).score is not None)
        self._record(draft, self._silent(draft) if last_round and unread else self._feedback(draft))
        return _stop_reason(self.rule, self.iterations, self.iterations[-1])

    # -- one draft ----------------------------------------------------------------------------

    def _call(self, prompt: Prompt, sampling: Sampling | None = None) -> Completion:
        assert self.model is not None
        completion = self.model.complete(
            prompt.messages, max_tokens=prompt.max_tokens, stop=prompt.stop, sampling=sampling
        )
        self.usage = self.usage.add(completion)
        return completion

    def _repeated(self, text: str, drafts: Sequence[_Draft] = ()) -> int | None:
        """The index of an earlier draft this answer repeats (the same output, or the same malformed
        text), or None."""
        try:
            output = self.task.parse_output(text)
        except MalformedAnswer:
            same = [it.index for it in self.iterations if text.strip() == it.raw_output.strip()]
            return same[0] if same else None
        same = [it.index for it in self.iterations if it.output == output]
        same += [len(self.iterations) + i for i, draft in enumerate(drafts) if draft.output == output]
        return same[0] if same else None

    def _measure(
        self,
        completion: Completion,
        prompt: Prompt,
        origin: str,
        drafts: Sequence[_Draft],
        started: float,
        usage_before: Usage,
    ) -> _Draft:
        """The draft's facts: measured, or an earlier draft's when it repeats one (never twice).
        `drafts`: this round's, not yet recorded."""
        # Its own asks only: a round's later samples are asked before this one is recorded.
        draft = _Draft(completion, prompt, origin, "", Facts(), None, started, _difference(self.usage, usage_before))
        draft.repeat_of = self._repeated(completion.text, drafts)
        if draft.repeat_of is not None:
            known = self._known(draft.repeat_of, drafts)
            draft.output, draft.facts, draft.error = known.output, known.facts, known.error
            return draft
        try:
            draft.output = self.task.parse_output(completion.text)
        except MalformedAnswer as problem:
            draft.facts, draft.error = (
                Facts(summary=f"The answer was malformed: {problem}", acceptable=False),
                str(problem),
            )
            return draft
        draft.facts = self.task.evaluate(self.x, draft.output)
        return draft

    def _known(self, index: int, drafts: Sequence[_Draft]) -> _Draft | Iteration:
        return self.iterations[index] if index < len(self.iterations) else drafts[index - len(self.iterations)]

    def _settle(self, draft: _Draft) -> None:
        if draft.facts.rest is not None:
            draft.facts = draft.facts.rest()

    def _feedback(self, draft: _Draft) -> tuple[str, Prompt | None, EnvironmentProblem | None]:
        """The critique of a draft: the parser's reason for a malformed one, else the model's (asked
        while the rest of its facts are measured), or none when the facts are the feedback."""
        if draft.error is not None:
            return f"The previous answer could not be used: {draft.error}. Answer in the required format.", None, None
        if self.options.feedback == "facts" or draft.repeat_of is not None:
            self._settle(draft)
            return "", None, None
        prompt = self.task.feedback_prompt(self.x, draft.output, draft.facts)
        failed: EnvironmentProblem | None = None
        before = self.usage
        try:
            feedback = self._call(prompt).text.strip()
            draft.spent = _sum(draft.spent, _difference(self.usage, before))
        except EnvironmentProblem as problem:
            # The draft is measured already: a verified one must outlive the failed critique.
            failed, feedback = problem, ""
        self._settle(draft)  # measured beside the critique (a symbolic search): the last word
        return feedback, prompt, failed

    def _silent(self, draft: _Draft) -> tuple[str, Prompt | None, EnvironmentProblem | None]:
        self._settle(draft)
        if draft.error is not None:
            return f"The previous answer could not be used: {draft.error}. Answer in the required format.", None, None
        return "", None, None

    def _record_candidate(self, seed: Seed) -> None:
        if self._repeated(seed.text) is not None:
            return  # written already (by the model, or by another rule): measured once is enough
        completion = Completion(text=seed.text, prompt_tokens=0, completion_tokens=0, cached=False, seconds=0.0)
        draft = self._measure(completion, Prompt(messages=()), seed.origin, (), time.monotonic(), self.usage)
        draft.rules = seed.rules
        self._record(draft, self._silent(draft))

    def _record(self, draft: _Draft, critique: tuple[str, Prompt | None, EnvironmentProblem | None]) -> None:
        feedback, feedback_prompt, failed = critique
        judgement = self._judge(feedback, draft)
        iteration = Iteration(
            index=len(self.iterations),
            output=draft.output,
            raw_output=draft.completion.text,
            feedback=feedback,
            facts=draft.facts,
            score=judgement.score,
            accepted=draft.facts.acceptable,
            error=draft.error,
            prompt=draft.prompt,
            feedback_prompt=feedback_prompt,
            usage=draft.spent,
            seconds=time.monotonic() - draft.started,
            origin=draft.origin,
            round=self._round,
            repeat_of=draft.repeat_of,
            stop_signal=judgement.stop_signal,
            rules=draft.rules,
        )
        self.iterations.append(iteration)
        facts = draft.facts
        if draft.rules:  # the model learns who wrote it, and from which rules
            facts = replace(
                facts, summary=f"Written by rewrite rules ({', '.join(draft.rules)}), not by you. {facts.summary}"
            )
        self.history.append(Step(output=draft.output or draft.completion.text, facts=facts, feedback=feedback))
        if self.on_iteration is not None:
            self.on_iteration(iteration, self.rule)
        if failed is not None:
            raise failed  # recorded above, so the run's result keeps this draft

    def _judge(self, feedback: str, draft: _Draft) -> Judgement:
        if draft.error is not None:
            return Judgement(score=None)
        if draft.repeat_of is not None and draft.repeat_of < len(self.iterations):
            return Judgement(self.iterations[draft.repeat_of].score)  # the same draft, the same score
        return self.task.judge(feedback, draft.facts)

    def _lead(self, drafts: Sequence[_Draft]) -> _Draft | None:
        """The first draft the critique is about: the best accepted one, else the first the parser
        took, else the first."""
        scores = {id(d): self._judge("", d).score for d in drafts if d.error is None and d.facts.acceptable}
        scored = [d for d in drafts if scores.get(id(d)) is not None]
        if scored:
            return max(scored, key=lambda d: scores[id(d)] or 0.0)
        parsed = [d for d in drafts if d.error is None]
        return parsed[0] if parsed else (drafts[0] if drafts else None)

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
            model=self.model.name if self.model is not None else "none",
            seconds=seconds,
            error=self.error,
        )


def _sampling(sample: int) -> Sampling | None:
    """The first draft as configured; each further one its own seed and a warmer temperature, so
    that the samples differ and each can be replayed from the response cache."""
    return None if sample == 0 else Sampling(temperature=min(1.0, round(0.4 + 0.2 * sample, 2)), seed=sample)


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


def _sum(one: Usage, other: Usage) -> Usage:
    return Usage(
        llm_calls=one.llm_calls + other.llm_calls,
        cached_calls=one.cached_calls + other.cached_calls,
        prompt_tokens=one.prompt_tokens + other.prompt_tokens,
        completion_tokens=one.completion_tokens + other.completion_tokens,
    )


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
        samples=settings.samples or (SMALL_MODEL_SAMPLES if settings.small_model else 1),
        feedback=cast(Feedback, settings.feedback or ("facts" if settings.small_model else "model")),
    )
